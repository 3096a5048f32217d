// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Potts yardstick, the q-state twin of plain_sweep.hpp: a deliberately plain scalar
// heat-bath sweep of a 2D periodic L x L q-state Potts ferromagnet (J = 1), the loop a
// newcomer writes. One uint8 state array per chain (chain-major), checkerboard order, q
// expf and one 64-bit hash (splitmix64 of the update's counter) per update, the inverse
// CDF over the q states, no tables, chains spread over OpenMP threads like plain_sweep.hpp.
// It is compiled twice like plain_sweep.hpp (plain_yardstick_build.cpp). The Potts
// benchmarks run it in the same process with the thread count of the row it is
// compared with, so every Potts rate is recorded as a like-for-like ratio to it
// (perf/tools/record_benchmark.py: x_plain).

#include <cmath>
#include <cstdint>
#include <vector>

#include "plain_sweep.hpp"

namespace hamon::perf::HAMON_PLAIN_BUILD {

class PlainPottsSweep {
 public:
  PlainPottsSweep(int side, int chains, int q, std::uint64_t seed, int threads = 1)
      : side_(side), chains_(chains), q_(q), threads_(threads), seed_(seed) {
    states_.resize(static_cast<std::size_t>(side) * side * static_cast<std::size_t>(chains));
    std::uint64_t k = 0;
    for (auto& s : states_) {
      s = static_cast<std::uint8_t>(splitmix64(seed ^ ++k) % static_cast<std::uint64_t>(q));
    }
    for (int c = 0; c < chains; ++c)
      betas_.push_back(chains > 1 ? float(c) / float(chains - 1) : 1.0f);
  }

  void sweep() {
    const std::uint64_t first = counter_;
    counter_ += static_cast<std::uint64_t>(updates_per_sweep());
    for_each_chain(chains_, threads_, first, static_cast<std::uint64_t>(side_) * side_,
                   [this](int c, std::uint64_t counter) { sweep_chain(c, counter); });
  }

  std::int64_t updates_per_sweep() const {
    return static_cast<std::int64_t>(side_) * side_ * chains_;
  }
  const std::uint8_t* state() const { return states_.data(); }

 private:
  void sweep_chain(int c, std::uint64_t counter) {
    std::vector<float> weight(static_cast<std::size_t>(q_));
    std::uint8_t* s = &states_[static_cast<std::size_t>(c) * side_ * side_];
    const float beta = betas_[static_cast<std::size_t>(c)];
    for_each_checkerboard_site(side_, [&](const PlainSite& n) {
      const int neighbours[4] = {s[n.right], s[n.left], s[n.down], s[n.up]};
      float total = 0.0f;
      for (int k = 0; k < q_; ++k) {
        int agree = 0;
        for (int m : neighbours) agree += m == k ? 1 : 0;
        total += std::exp(beta * static_cast<float>(agree));
        weight[static_cast<std::size_t>(k)] = total;
      }
      const float u = hashed_uniform(seed_, counter + static_cast<std::uint64_t>(n.i)) * total;
      int k = 0;
      while (k < q_ - 1 && u >= weight[static_cast<std::size_t>(k)]) ++k;
      s[n.i] = static_cast<std::uint8_t>(k);
    });
  }

  int side_, chains_, q_, threads_;
  std::uint64_t seed_, counter_ = 0;
  std::vector<std::uint8_t> states_;
  std::vector<float> betas_;
};

}  // namespace hamon::perf::HAMON_PLAIN_BUILD
