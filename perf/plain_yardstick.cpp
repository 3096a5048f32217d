// SPDX-License-Identifier: Apache-2.0
#include "plain_yardstick.hpp"

namespace hamon::perf {

// Defined by the two builds of plain_yardstick_build.cpp.
#define HAMON_DECLARE_PLAIN_BUILD(ns)                                                         \
  namespace ns {                                                                              \
  std::unique_ptr<PlainYardstick> make_ising(int side, int chains, std::uint64_t seed,        \
                                             int threads);                                    \
  std::unique_ptr<PlainYardstick> make_potts(int side, int chains, int q, std::uint64_t seed, \
                                             int threads);                                    \
  const char* flags();                                                                        \
  }
HAMON_DECLARE_PLAIN_BUILD(project)
HAMON_DECLARE_PLAIN_BUILD(newcomer)
#undef HAMON_DECLARE_PLAIN_BUILD

const char* plain_build_name(PlainBuild build) {
  return build == PlainBuild::project ? "project" : "newcomer";
}

const char* plain_build_flags(PlainBuild build) {
  return build == PlainBuild::project ? project::flags() : newcomer::flags();
}

std::unique_ptr<PlainYardstick> make_plain_ising(PlainBuild build, int side, int chains,
                                                 std::uint64_t seed, int threads) {
  return build == PlainBuild::project ? project::make_ising(side, chains, seed, threads)
                                      : newcomer::make_ising(side, chains, seed, threads);
}

std::unique_ptr<PlainYardstick> make_plain_potts(PlainBuild build, int side, int chains, int q,
                                                 std::uint64_t seed, int threads) {
  return build == PlainBuild::project ? project::make_potts(side, chains, q, seed, threads)
                                      : newcomer::make_potts(side, chains, q, seed, threads);
}

}  // namespace hamon::perf
