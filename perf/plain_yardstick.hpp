// SPDX-License-Identifier: Apache-2.0
#pragma once
// The yardsticks (plain_sweep.hpp, plain_potts_sweep.hpp) in both of their builds, behind
// one small interface, so a benchmark can time the two builds side by side in the same
// minute and hold hamon's rates against the faster one.

#include <cstdint>
#include <memory>

namespace hamon::perf {

/// How a yardstick was compiled (perf/CMakeLists.txt sets the flags of each).
enum class PlainBuild {
  project,   ///< the project's own flags (-O3 -march=native -ffp-contract=off)
  newcomer,  ///< as a newcomer builds a loop: -O2 with OpenMP, no -march
};
inline constexpr PlainBuild kPlainBuilds[] = {PlainBuild::project, PlainBuild::newcomer};

/// The build's short name for counters and records ("project", "newcomer").
const char* plain_build_name(PlainBuild build);
/// The build's compiler flags as CMake passed them, for records.
const char* plain_build_flags(PlainBuild build);

/// One yardstick sweep of every chain per call to sweep().
class PlainYardstick {
 public:
  virtual ~PlainYardstick() = default;
  virtual void sweep() = 0;
  virtual std::int64_t updates_per_sweep() const = 0;
  /// The first chain's state, to keep the sweeps observable to the optimiser.
  virtual const void* state() const = 0;
};

/// The Ising yardstick: an L x L periodic +-J lattice, `chains` chains on `threads` threads.
std::unique_ptr<PlainYardstick> make_plain_ising(PlainBuild build, int side, int chains,
                                                 std::uint64_t seed, int threads);
/// The Potts yardstick: an L x L periodic q-state ferromagnet.
std::unique_ptr<PlainYardstick> make_plain_potts(PlainBuild build, int side, int chains, int q,
                                                 std::uint64_t seed, int threads);

}  // namespace hamon::perf
