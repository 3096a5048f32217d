// SPDX-License-Identifier: Apache-2.0
#pragma once
// The yardstick: a deliberately plain scalar heat-bath sweep, the loop a newcomer writes.
//
// One int8 spin array per chain (chain-major), a 2D periodic L x L lattice with +-J
// couplings stored as float per bond (right, down), checkerboard order (neighbours wrapped
// by comparisons, not divisions), one expf and one 64-bit hash (splitmix64 of the update's
// counter: chain, sweep, site) per update, no tables, no vectorisation tricks. A counter
// hash rather than a sequential generator lets the chains run on OpenMP threads (one chain
// per thread at a time, as a newcomer parallelises over replicas) with the same spins for
// any thread count. The benchmarks run it in the same process as hamon's kernels with the
// thread count of the row it is compared with (1 for Serial, the OpenMP space's for
// OpenMP), so every hamon number can be recorded as a like-for-like ratio to it
// (perf/tools/record_benchmark.py adds the column), which is stable on a shared machine
// where absolute timings are not.
//
// A yardstick must be the plain loop at its best, and its best build depends on the
// compiler and the machine: GCC's -O3 vectoriser slows this loop 2-3x (one expf per lane
// through a vector libm), so the -O2 build a newcomer would use is often the faster one.
// This header is therefore compiled twice (plain_yardstick_build.cpp): once with the
// project's flags, once as a newcomer builds it, each into its own namespace
// (HAMON_PLAIN_BUILD) so the two copies of these inline functions never merge at link
// time; the benchmarks reach them through plain_yardstick.hpp and time both builds.

#include <cmath>
#include <cstdint>
#include <vector>

#include "hamon/core/util/seeds.hpp"

#ifndef HAMON_PLAIN_BUILD
#error "plain_sweep.hpp is compiled only through plain_yardstick_build.cpp, which names the build"
#endif

namespace hamon::perf::HAMON_PLAIN_BUILD {

/// A site i = y * L + x of an L x L periodic lattice and its four neighbours.
struct PlainSite {
  int i, right, left, down, up;
};

/// Calls visit(site) for every site in checkerboard order, both colours in turn; the
/// neighbours are wrapped by comparisons, not divisions.
template <class Visit>
void for_each_checkerboard_site(int L, Visit&& visit) {
  for (int colour = 0; colour < 2; ++colour) {
    for (int y = 0; y < L; ++y) {
      const int up = y == 0 ? L - 1 : y - 1, dn = y == L - 1 ? 0 : y + 1;
      for (int x = (y + colour) & 1; x < L; x += 2) {
        const int lf = x == 0 ? L - 1 : x - 1, rt = x == L - 1 ? 0 : x + 1;
        visit(PlainSite{y * L + x, y * L + rt, y * L + lf, dn * L + x, up * L + x});
      }
    }
  }
}

/// The uniform number in [0, 1) of update `counter`: one 64-bit hash (splitmix64).
inline float hashed_uniform(std::uint64_t seed, std::uint64_t counter) {
  return static_cast<float>(mix64(seed + counter * kSplitMix64Increment) >> 40) *
         (1.0f / 16777216.0f);
}

/// Calls sweep_chain(c, first update counter of chain c) for every chain, the chains
/// spread over `threads` OpenMP threads (one thread where the build has no OpenMP).
template <class SweepChain>
void for_each_chain(int chains, int threads, std::uint64_t first, std::uint64_t per_chain,
                    SweepChain&& sweep_chain) {
  (void)threads;
#if defined(_OPENMP)
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
  for (int c = 0; c < chains; ++c)
    sweep_chain(c, first + static_cast<std::uint64_t>(c) * per_chain);
}

class PlainSweep {
 public:
  PlainSweep(int side, int chains, std::uint64_t seed, int threads = 1)
      : side_(side), chains_(chains), threads_(threads), seed_(seed) {
    const std::size_t n = static_cast<std::size_t>(side) * side;
    right_.resize(n);
    down_.resize(n);
    spins_.resize(n * static_cast<std::size_t>(chains));
    std::uint64_t k = 0;
    for (auto& j : right_) j = (splitmix64(seed ^ ++k) & 1u) ? 1.0f : -1.0f;
    for (auto& j : down_) j = (splitmix64(seed ^ ++k) & 1u) ? 1.0f : -1.0f;
    for (auto& s : spins_) s = (splitmix64(seed ^ ++k) & 1u) ? 1 : -1;
    for (int c = 0; c < chains; ++c)
      betas_.push_back(chains > 1 ? float(c) / float(chains - 1) : 1.0f);
  }

  /// One sweep of every chain: both checkerboard colours in turn.
  void sweep() {
    const std::uint64_t first = counter_;
    counter_ += static_cast<std::uint64_t>(updates_per_sweep());
    for_each_chain(chains_, threads_, first, static_cast<std::uint64_t>(side_) * side_,
                   [this](int c, std::uint64_t counter) { sweep_chain(c, counter); });
  }

  std::int64_t updates_per_sweep() const {
    return static_cast<std::int64_t>(side_) * side_ * chains_;
  }
  int threads() const { return threads_; }
  const std::int8_t* state() const { return spins_.data(); }

 private:
  void sweep_chain(int c, std::uint64_t counter) {
    std::int8_t* s = &spins_[static_cast<std::size_t>(c) * side_ * side_];
    const float beta = betas_[static_cast<std::size_t>(c)];
    for_each_checkerboard_site(side_, [&](const PlainSite& n) {
      const float h = right_[n.i] * s[n.right] + right_[n.left] * s[n.left] +
                      down_[n.i] * s[n.down] + down_[n.up] * s[n.up];
      const float p_up = 1.0f / (1.0f + std::exp(-2.0f * beta * h));
      const float u = hashed_uniform(seed_, counter + static_cast<std::uint64_t>(n.i));
      s[n.i] = u < p_up ? 1 : -1;
    });
  }

  int side_, chains_, threads_;
  std::uint64_t seed_, counter_ = 0;
  std::vector<float> right_, down_, betas_;
  std::vector<std::int8_t> spins_;
};

}  // namespace hamon::perf::HAMON_PLAIN_BUILD
