// SPDX-License-Identifier: Apache-2.0
// The 2D q-state Potts ferromagnet (E = -sum_<ij> delta(x_i, x_j), periodic L x L) at its
// exactly known critical point beta_c = ln(1 + sqrt q): the energy per site approaches
// u_c = -(1 + 1/sqrt q) as L grows, with a finite-size shift ~ L^{-(1 - alpha)/nu}
// (q = 3: alpha = 1/3, nu = 5/6, exponent 0.8; q = 2: a log, exponent ~1). A long
// measurement, not a benchmark (no timing is asserted anywhere): NRPT with an adapted
// ladder on [beta_lo beta_c, beta_c] (--beta-lo 0.8), the cold chain's energy per site
// with its batch-means error. Results: perf/results/potts_critical_energy/; the suite's
// short check is tstPotts.hpp's potts_critical_energy_l16.
//
//   potts_critical_energy [--q 3] [--sizes 16,32,64] [--rounds 200000,60000,20000]
//                         [--chains 8,12,16]
//                         [--beta-lo 0.8] [--seed 1]
//
// --rounds and --chains: one per size (measured rounds, after a tenth as many of burn-in
// with the ladder adapted). Prints one markdown table row per size.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_text.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"

int main(int argc, char** argv) {
  int q = 3;
  std::vector<int> sizes = {16, 32, 64};
  std::vector<int> chains = {8, 12, 16};
  std::vector<int> rounds = {200000, 60000, 20000};
  double beta_lo = 0.8;
  unsigned long long seed = 1;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string key = argv[a], value = argv[a + 1];
    if (key == "--q") {
      q = std::stoi(value);
    } else if (key == "--sizes") {
      sizes = hamon_perf::split_ints(value);
    } else if (key == "--chains") {
      chains = hamon_perf::split_ints(value);
    } else if (key == "--rounds") {
      rounds = hamon_perf::split_ints(value);
    } else if (key == "--beta-lo") {
      beta_lo = std::stod(value);
    } else if (key == "--seed") {
      seed = std::stoull(value);
    } else {
      std::fprintf(stderr, "potts_critical_energy: unknown option %s\n", key.c_str());
      return 2;
    }
  }
  if (argc % 2 == 0 || chains.size() != sizes.size() || rounds.size() != sizes.size()) {
    std::fprintf(
        stderr,
        "potts_critical_energy: options come in pairs; one --chains and --rounds per size\n");
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  const double beta_c = std::log(1.0 + std::sqrt(static_cast<double>(q)));
  const double u_c = -(1.0 + 1.0 / std::sqrt(static_cast<double>(q)));
  std::printf(
      "q = %d, beta_c = %.10f, u_c = %.10f, ladder on [%.2f beta_c, "
      "beta_c]\n\n",
      q, beta_c, u_c, beta_lo);
  std::printf(
      "| L | chains | rounds | u(L) | error | u(L) - u_c | (u(L) - u_c) L^0.8 | round trips | "
      "seconds |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const int l = sizes[k];
    const auto model = hamon::make_potts_lattice({l, l}, true, q);
    hamon::NrptOptions o;
    o.n_chains = chains[k];
    o.beta_min = beta_lo * beta_c;
    o.beta_max = beta_c;
    o.n_rounds = rounds[k];
    o.burn_in = rounds[k] / 10;
    o.adapt_schedule = true;
    o.n_expl = 1;
    o.seed = seed;
    o.observers.moments = true;
    o.observers.edge_moments = false;
    const auto start = std::chrono::steady_clock::now();
    const auto r = hamon::nrpt(Kokkos::DefaultHostExecutionSpace(), model, o);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto& u = r.moments.energy_per_node;
    std::printf("| %d | %d | %d | %.5f | %.5f | %+.5f | %+.4f | %lld | %.1f |\n", l, chains[k],
                rounds[k], u.mean, u.standard_error, u.mean - u_c,
                (u.mean - u_c) * std::pow(l, 0.8), static_cast<long long>(r.total_round_trips),
                seconds);
    std::fflush(stdout);
  }
  return 0;
}
