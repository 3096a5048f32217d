// The `hamon` command. For now: `hamon demo` runs the built-in example (a 16x16 periodic
// Ising ferromagnet at the critical coupling, sampled with NRPT) and prints its summary;
// `hamon devices` lists the Kokkos backends. YAML experiments come with `hamon run`.
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "hamon/core/model_builders.hpp"
#include "hamon/core/nrpt.hpp"
#include "hamon/version.hpp"

namespace {

int run_demo(std::uint64_t seed) {
  const auto model = hamon::make_lattice({16, 16}, true);
  hamon::NrptOptions options;
  options.n_chains = 8;
  options.beta_min = 0.0;
  options.beta_max = 0.4406868;
  options.n_rounds = 20000;
  options.burn_in = 2000;
  options.n_expl = 2;
  options.seed = seed;
  options.adapt_schedule = true;
  options.observers.moments = true;
  const auto start = std::chrono::steady_clock::now();
  const auto r = hamon::nrpt(Kokkos::DefaultHostExecutionSpace(), model, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("hamon %s demo: 16x16 periodic Ising ferromagnet, beta_max = %.7f\n",
              hamon::version, options.beta_max);
  std::printf("  space             %s\n", Kokkos::DefaultHostExecutionSpace::name());
  std::printf("  chains            %zu, rounds %lld (+%lld burn-in), %d sweeps/round\n",
              r.betas.size(), static_cast<long long>(r.n_rounds),
              static_cast<long long>(options.burn_in), options.n_expl);
  std::printf("  betas            ");
  for (double b : r.betas) std::printf(" %.4f", b);
  std::printf("\n  acceptance       ");
  for (double a : r.swaps.acceptance) std::printf(" %.3f", a);
  std::printf("\n  Lambda            %.4f\n", r.swaps.Lambda);
  std::printf("  round trips       %lld (tau_obs %.5f, tau_pred %.5f, efficiency %.3f)\n",
              static_cast<long long>(r.total_round_trips), r.tau_observed,
              r.swaps.tau_predicted, r.efficiency);
  std::printf("  energy/node       %.5f +- %.5f\n", r.moments.energy_per_node.mean,
              r.moments.energy_per_node.standard_error);
  std::printf("  |m|/node          %.5f +- %.5f\n", r.moments.abs_magnetization_per_node.mean,
              r.moments.abs_magnetization_per_node.standard_error);
  std::printf("  time              %.3f s (%.3f spin updates/ns)\n", seconds,
              static_cast<double>(r.spin_updates) / seconds * 1e-9);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"hamon: non-reversible parallel tempering and block Gibbs sampling on Kokkos"};
  app.set_version_flag("--version", std::string("hamon ") + hamon::version);
  app.require_subcommand(1);
  std::uint64_t seed = 42;
  auto* demo = app.add_subcommand("demo", "Run the built-in example (16x16 Ising, NRPT)");
  demo->add_option("--seed", seed, "random seed");
  auto* devices = app.add_subcommand("devices", "List the Kokkos backends of this build");
  CLI11_PARSE(app, argc, argv);

  Kokkos::ScopeGuard kokkos(argc, argv);
  if (*devices) {
    std::cout << "backends: " << hamon::build_backends << "\n";
    Kokkos::print_configuration(std::cout);
    return 0;
  }
  if (*demo) return run_demo(seed);
  return 0;
}
