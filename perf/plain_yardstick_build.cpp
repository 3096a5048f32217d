// SPDX-License-Identifier: Apache-2.0
// One build of the yardsticks: perf/CMakeLists.txt compiles this file twice, with the
// project's flags and with a newcomer's, each with its own HAMON_PLAIN_BUILD namespace.

#include <memory>

#include "plain_potts_sweep.hpp"
#include "plain_sweep.hpp"
#include "plain_yardstick.hpp"

namespace hamon::perf::HAMON_PLAIN_BUILD {
namespace {

template <class Sweep>
class Yardstick final : public PlainYardstick {
 public:
  template <class... Args>
  explicit Yardstick(Args... args) : sweep_(args...) {}
  void sweep() override { sweep_.sweep(); }
  std::int64_t updates_per_sweep() const override { return sweep_.updates_per_sweep(); }
  const void* state() const override { return sweep_.state(); }

 private:
  Sweep sweep_;
};

}  // namespace

std::unique_ptr<PlainYardstick> make_ising(int side, int chains, std::uint64_t seed, int threads) {
  return std::make_unique<Yardstick<PlainSweep>>(side, chains, seed, threads);
}

std::unique_ptr<PlainYardstick> make_potts(int side, int chains, int q, std::uint64_t seed,
                                           int threads) {
  return std::make_unique<Yardstick<PlainPottsSweep>>(side, chains, q, seed, threads);
}

const char* flags() {
  return HAMON_PLAIN_FLAGS;
}

}  // namespace hamon::perf::HAMON_PLAIN_BUILD
