// SPDX-License-Identifier: Apache-2.0
// The cost of best-state tracking as a fraction of a round: on a 2D +-J lattice, the round
// loop's round without it (n_expl sweeps, the energies, the DEO pass and the index process)
// against the same rounds with it, from the same random start (the first `rounds` rounds of
// a run, where improvements are frequent), and the tracker alone, per enabled host space.
//
//   build/bin/bench_best_states [rounds]
//
// "settled": the tracker as in most rounds of a run, nothing improves (a compare per
// machine). "improving": every machine improves every round (its best is reset before each
// call, the reset timed with it): each team copies its machine's row, the bound for the first
// rounds of a run. Prints a Markdown table; the minimum of 5 repetitions of each timing.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hamon/core/families/model_families.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/detail/round_loop.hpp"

namespace {

template <class F>
double min_seconds(int reps, F&& f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

template <class Space>
void measure(const char* name, int side, int chains, int n_expl, int rounds) {
  const Space space;
  const auto model = hamon::make_lattice({side, side}, true, hamon::ValueDistribution::pm_one(1));
  const auto dm = hamon::make_device_model(space, model);
  hamon::NrptOptions o;
  o.n_chains = chains;
  o.n_expl = n_expl;
  o.beta_max = 1.0;
  o.seed = 7;
  const auto betas = hamon::ladder_of(o);
  const auto fresh = [&] {
    hamon::detail::RoundLoop<Space> loop;
    loop.family = hamon::detail::family_of<Space>(dm);
    loop.state = hamon::detail::make_family_state(space, loop.family, dm, betas, o.seed,
                                                  hamon::MachineBlock{0, chains});
    loop.start_best(space, dm);
    space.fence();
    return loop;
  };
  // `rounds` rounds from a random start, with and without the tracker: the first rounds of a
  // run, where most rounds improve some machine's best.
  const auto from_start = [&](bool track) {
    double best = 1e300;
    for (int rep = 0; rep < 5; ++rep) {
      auto loop = fresh();
      best = std::min(best, min_seconds(1, [&] {
                        for (int r = 0; r < rounds; ++r) {
                          loop.sweep(space, dm, o, true);
                          if (track) loop.track_best(space);
                          loop.swap(space, dm, o);
                          ++loop.rounds_done;
                        }
                        space.fence();
                      }));
    }
    return best / rounds;
  };
  const double round_s = from_start(false);
  const double tracked_s = from_start(true);
  auto loop = fresh();
  loop.track_best(space);  // the best is now this state's: later calls improve nothing
  const double settled_s = min_seconds(5,
                                       [&] {
                                         for (int r = 0; r < rounds; ++r) loop.track_best(space);
                                         space.fence();
                                       }) /
                           rounds;
  const double improving_s =
      min_seconds(5,
                  [&] {
                    for (int r = 0; r < rounds; ++r) {
                      Kokkos::deep_copy(space, loop.best.energy_fixed, hamon::kNoBestEnergy);
                      loop.track_best(space);
                    }
                    space.fence();
                  }) /
      rounds;
  std::printf("| %s | %d | %d | %d | %.1f | %.1f | %+.2f %% | %.2f | %.2f %% | %.2f | %.2f %% |\n",
              name, side, chains, n_expl, round_s * 1e6, tracked_s * 1e6,
              100.0 * (tracked_s - round_s) / round_s, settled_s * 1e6, 100.0 * settled_s / round_s,
              improving_s * 1e6, 100.0 * improving_s / round_s);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  std::printf(
      "| space | L | chains | n_expl | round (us) | tracked round (us) | difference |"
      " settled (us) | settled / round | improving (us) | improving / round |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int side : {32, 128}) {
    for (int chains : {8, 32}) {
      for (int n_expl : {1, 4}) {
#ifdef KOKKOS_ENABLE_SERIAL
        measure<Kokkos::Serial>("Serial", side, chains, n_expl, rounds);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
        measure<Kokkos::OpenMP>("OpenMP", side, chains, n_expl, rounds);
#endif
      }
    }
  }
  return 0;
}
