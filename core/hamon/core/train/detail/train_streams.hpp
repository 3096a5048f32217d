// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where training's random numbers come from: seeds derived from the run's seed, one stream
// per purpose, and the epoch's row order.

#include <cstdint>
#include <vector>

#include "hamon/core/util/seeds.hpp"

namespace hamon::detail {

/// The sweep word of the positive phase's hidden samples (below kTieSweep; the negative
/// chains' sweeps stay below it, validate_options).
inline constexpr std::uint32_t kPositivePhaseSweep = 0x20000000u;

/// The seed streams of training (derive_seed's index space, beside tuning's).
enum class TrainStream : std::uint64_t {
  chains = 101,   // index 0: the chains and the positive phase; 1: the initial weights
  shuffle = 102,  // the epochs' row orders
  log_z = 103,    // log Z ladders
};

inline std::uint64_t train_seed(std::uint64_t seed, TrainStream stream, std::uint64_t index) {
  return derive_seed(seed, static_cast<SeedStream>(stream), index);
}

/// Rows [0, n) in the order of epoch `epoch`: sorted by a 64-bit hash of (seed, epoch, row).
std::vector<std::int64_t> epoch_order(std::int64_t n_rows, std::uint64_t seed, std::int64_t epoch);

}  // namespace hamon::detail
