// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Potts yardstick, the q-state twin of plain_sweep.hpp: a deliberately plain scalar
// heat-bath sweep of a 2D periodic L x L q-state Potts ferromagnet (J = 1), the loop a
// newcomer writes. One uint8 state array per chain (chain-major), checkerboard order, q
// std::exp and one splitmix64 number per update, the inverse CDF over the q states, one
// thread, no tables. The Potts benchmarks run it in the same process, so every Potts rate
// is recorded as a ratio to it (perf/tools/record_benchmark.py: x_plain).

#include <cmath>
#include <cstdint>
#include <vector>

#include "hamon/core/seeds.hpp"

namespace hamon::perf {

class PlainPottsSweep {
 public:
  PlainPottsSweep(int side, int chains, int q, std::uint64_t seed)
      : side_(side), chains_(chains), q_(q), state_(seed) {
    states_.resize(static_cast<std::size_t>(side) * side * static_cast<std::size_t>(chains));
    for (auto& s : states_) s = static_cast<std::uint8_t>(next() % static_cast<std::uint64_t>(q));
    for (int c = 0; c < chains; ++c) betas_.push_back(chains > 1 ? double(c) / (chains - 1) : 1.0);
  }

  void sweep() {
    const int L = side_;
    std::vector<double> weight(static_cast<std::size_t>(q_));
    for (int c = 0; c < chains_; ++c) {
      std::uint8_t* s = &states_[static_cast<std::size_t>(c) * L * L];
      const double beta = betas_[static_cast<std::size_t>(c)];
      for (int colour = 0; colour < 2; ++colour) {
        for (int y = 0; y < L; ++y) {
          const int up = y == 0 ? L - 1 : y - 1, dn = y == L - 1 ? 0 : y + 1;
          for (int x = (y + colour) & 1; x < L; x += 2) {
            const int lf = x == 0 ? L - 1 : x - 1, rt = x == L - 1 ? 0 : x + 1;
            const int neighbours[4] = {s[y * L + rt], s[y * L + lf], s[dn * L + x], s[up * L + x]};
            double total = 0.0;
            for (int k = 0; k < q_; ++k) {
              int agree = 0;
              for (int n : neighbours) agree += n == k ? 1 : 0;
              total += std::exp(beta * agree);
              weight[static_cast<std::size_t>(k)] = total;
            }
            const double u = static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0) * total;
            int k = 0;
            while (k < q_ - 1 && u >= weight[static_cast<std::size_t>(k)]) ++k;
            s[y * L + x] = static_cast<std::uint8_t>(k);
          }
        }
      }
    }
  }

  std::int64_t updates_per_sweep() const {
    return static_cast<std::int64_t>(side_) * side_ * chains_;
  }
  const std::uint8_t* states() const { return states_.data(); }

 private:
  std::uint64_t next() { return mix64(state_ += kSplitMix64Increment); }  // splitmix64

  int side_, chains_, q_;
  std::uint64_t state_;
  std::vector<std::uint8_t> states_;
  std::vector<double> betas_;
};

}  // namespace hamon::perf
