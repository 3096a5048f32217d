// SPDX-License-Identifier: Apache-2.0
// A downstream Kokkos program embedding hamon: it owns Kokkos::initialize, builds a model
// through the installed headers, runs NRPT in the default host space and checks the
// result's invariants. Exit code 0 = the package works.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <hamon/core/model/model_builders.hpp>
#include <hamon/core/sampler/nrpt.hpp>
#include <hamon/version.hpp>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const auto model = hamon::make_lattice({8, 8}, true);
  hamon::NrptOptions options;
  options.n_chains = 4;
  options.beta_max = 0.44;
  options.n_rounds = 200;
  options.seed = 1;
  const auto result = hamon::nrpt(Kokkos::DefaultHostExecutionSpace(), model, options);
  const bool ok = result.betas.size() == 4 && result.swaps.attempted.size() == 3 &&
                  result.swaps.attempted[0] == 100 && result.final_energies.size() == 4 &&
                  result.final_energies[3] >= -128.0 && result.final_energies[3] <= 128.0;
  std::printf("hamon %s downstream: Lambda = %.3f, round trips = %lld -> %s\n", hamon::version,
              result.swaps.Lambda, static_cast<long long>(result.total_round_trips),
              ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
