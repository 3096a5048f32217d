// SPDX-License-Identifier: Apache-2.0
#pragma once
// The yardstick: a deliberately plain scalar heat-bath sweep, the loop a newcomer writes.
//
// One int8 spin array per chain (chain-major), a 2D periodic L x L lattice with +-J
// couplings stored per bond (right, down), checkerboard order (neighbours wrapped by
// comparisons, not divisions), one std::exp and one 64-bit splitmix64 number per update (a
// cheap generator: std::mt19937 costs about as much as the exp and would flatter the
// ratios), one thread, no tables, no vectorisation tricks. The benchmarks run it in the
// same process as hamon's kernels, so every hamon number can be recorded as a ratio to it
// (perf/tools/record_benchmark.py adds the column), which is stable on a shared machine
// where absolute timings are not.

#include <cmath>
#include <cstdint>
#include <vector>

#include "hamon/core/seeds.hpp"

namespace hamon::perf {

class PlainSweep {
 public:
  PlainSweep(int side, int chains, std::uint64_t seed)
      : side_(side), chains_(chains), state_(seed) {
    const std::size_t n = static_cast<std::size_t>(side) * side;
    right_.resize(n);
    down_.resize(n);
    spins_.resize(n * static_cast<std::size_t>(chains));
    for (auto& j : right_) j = (next() & 1u) ? 1 : -1;
    for (auto& j : down_) j = (next() & 1u) ? 1 : -1;
    for (auto& s : spins_) s = (next() & 1u) ? 1 : -1;
    for (int c = 0; c < chains; ++c) betas_.push_back(chains > 1 ? double(c) / (chains - 1) : 1.0);
  }

  /// One sweep of every chain: both checkerboard colours in turn.
  void sweep() {
    const int L = side_;
    for (int c = 0; c < chains_; ++c) {
      std::int8_t* s = &spins_[static_cast<std::size_t>(c) * L * L];
      const double beta = betas_[static_cast<std::size_t>(c)];
      for (int colour = 0; colour < 2; ++colour) {
        for (int y = 0; y < L; ++y) {
          const int up = y == 0 ? L - 1 : y - 1, dn = y == L - 1 ? 0 : y + 1;
          for (int x = (y + colour) & 1; x < L; x += 2) {
            const int lf = x == 0 ? L - 1 : x - 1, rt = x == L - 1 ? 0 : x + 1;
            const int i = y * L + x;
            const int phi = right_[i] * s[y * L + rt] + right_[y * L + lf] * s[y * L + lf] +
                            down_[i] * s[dn * L + x] + down_[up * L + x] * s[up * L + x];
            const double p_up = 1.0 / (1.0 + std::exp(-2.0 * beta * phi));
            const double u = static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
            s[i] = u < p_up ? 1 : -1;
          }
        }
      }
    }
  }

  std::int64_t updates_per_sweep() const {
    return static_cast<std::int64_t>(side_) * side_ * chains_;
  }
  const std::int8_t* spins() const { return spins_.data(); }

 private:
  std::uint64_t next() { return mix64(state_ += kSplitMix64Increment); }  // splitmix64

  int side_, chains_;
  std::uint64_t state_;
  std::vector<std::int8_t> right_, down_, spins_;
  std::vector<double> betas_;
};

}  // namespace hamon::perf
