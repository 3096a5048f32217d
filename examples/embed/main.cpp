// SPDX-License-Identifier: Apache-2.0
// A Kokkos application that embeds hamon (docs/embedding.md walks through it):
//  - it initialises Kokkos itself and owns its Views: a 4 x 4 periodic +-J lattice with
//    small fields, filled by its own kernel on its own execution-space instance;
//  - it builds hamon's model from those Views and runs a hamon::Sampler on that instance,
//    one round per iteration of its own loop;
//  - half-way it saves a checkpoint, runs on to the end, then resumes a second Sampler (given
//    the model already in the execution space) from the checkpoint and checks that both
//    ends are bit-identical (every byte of the final state), and that a run with other
//    options refuses the checkpoint;
//  - it reads the results back into its own Views (per-chain energies, the cold chain's
//    spins, the magnetisation per node) and checks the spins against the energy hamon
//    reports, with its own kernel;
//  - it checks the cold chain's mean energy against exact enumeration (2^16 states).
// It never fences Kokkos as a whole, only its instance. Exit status 0: every check passed.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <hamon/core/model/device_model.hpp>
#include <hamon/core/model/model_from_views.hpp>
#include <hamon/core/sampler/checkpoint.hpp>
#include <hamon/core/sampler/sampler.hpp>
#include <hamon/version.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Memory = Space::memory_space;

constexpr int kSide = 4;
constexpr int kNodes = kSide * kSide;
constexpr int kEdges = 2 * kNodes;  // right and down neighbour of every node
constexpr double kBeta = 0.8;       // the target (cold) inverse temperature

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("  %-62s %s\n", what.c_str(), ok ? "ok" : "FAILED");
  if (!ok) ++failures;
}

/// A View of the application's, allocated (and zeroed) on its instance.
template <class T>
Kokkos::View<T*, Memory> app_view(const Space& space, const char* label, std::size_t n) {
  return Kokkos::View<T*, Memory>(Kokkos::view_alloc(space, std::string(label)), n);
}

/// The application's own data: a lattice it built, in its memory space.
struct Lattice {
  Kokkos::View<std::int32_t*, Memory> edge_i, edge_j;
  Kokkos::View<double*, Memory> couplings, fields;
};

Lattice build_lattice(const Space& space) {
  Lattice l{app_view<std::int32_t>(space, "embed::edge_i", kEdges),
            app_view<std::int32_t>(space, "embed::edge_j", kEdges),
            app_view<double>(space, "embed::couplings", kEdges),
            app_view<double>(space, "embed::fields", kNodes)};
  const auto edge_i = l.edge_i, edge_j = l.edge_j;
  const auto couplings = l.couplings, fields = l.fields;
  Kokkos::parallel_for(
      "embed::build_lattice", Kokkos::RangePolicy<Space>(space, 0, kNodes),
      KOKKOS_LAMBDA(const int n) {
        const int x = n % kSide, y = n / kSide;
        const int neighbour[2] = {y * kSide + (x + 1) % kSide, ((y + 1) % kSide) * kSide + x};
        for (int d = 0; d < 2; ++d) {
          const int e = 2 * n + d;
          const std::uint32_t hash = static_cast<std::uint32_t>(e + 1) * 2654435761u;
          edge_i(e) = n;
          edge_j(e) = neighbour[d];
          couplings(e) = (hash >> 16) & 1u ? 1.0 : -1.0;
        }
        fields(n) = 0.125 * static_cast<double>(n % 3 - 1);
      });
  return l;
}

hamon::NrptOptions sampling_options() {
  hamon::NrptOptions o;
  o.n_chains = 4;
  o.beta_min = 0.0;
  o.beta_max = kBeta;
  o.burn_in = 200;
  o.n_rounds = 6000;
  o.seed = 20240601;
  o.observers.moments = true;
  o.observers.moment_batches = 16;
  return o;
}

/// The whole of a state, as the checkpoint file would hold it: equal bytes, equal states.
std::string bytes_of(const hamon::CheckpointIdentity& identity, const hamon::SamplerState& s) {
  std::ostringstream out;
  hamon::write_checkpoint(out, hamon::Checkpoint{identity, s, {}});
  return out.str();
}

/// Runs `sampler` up to round `to`, one round per iteration (where an application would do
/// its own work between rounds), and saves a checkpoint after round `save_at`.
void drive(hamon::Sampler<Space>& sampler, std::int64_t to, std::int64_t save_at,
           const std::filesystem::path& checkpoint) {
  while (sampler.rounds_done() < to) {
    sampler.run(1);
    if (sampler.rounds_done() == save_at) {
      hamon::save_checkpoint(checkpoint, {sampler.identity(), sampler.state(), {}});
    }
  }
}

/// <E>/N of the cold chain by enumerating every configuration.
double exact_energy_per_node(const hamon::SpinModel& model) {
  std::vector<std::int8_t> s(kNodes);
  std::vector<double> energies(std::size_t(1) << kNodes);
  double lowest = 0.0;
  for (std::size_t c = 0; c < energies.size(); ++c) {
    for (int i = 0; i < kNodes; ++i) s[i] = (c >> i) & 1u ? 1 : -1;
    energies[c] = model.energy(s);
    lowest = std::min(lowest, energies[c]);
  }
  double z = 0.0, e = 0.0;
  for (double energy : energies) {
    const double w = std::exp(-kBeta * (energy - lowest));
    z += w;
    e += w * energy;
  }
  return e / z / kNodes;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);  // the application owns Kokkos, not hamon
  {
    const Space space;  // the instance everything below is enqueued on
    const Lattice lattice = build_lattice(space);
    // The model from the application's Views (copied on `space`; the Views stay the app's).
    const hamon::SpinModel model = hamon::spin_model_from_views(
        space, kNodes, lattice.edge_i, lattice.edge_j, lattice.couplings, lattice.fields);
    const hamon::NrptOptions options = sampling_options();
    const std::int64_t total = options.burn_in + options.n_rounds;
    const std::int64_t midway = total / 2;
    const std::filesystem::path checkpoint = "hamon_embed.ckpt";
    std::printf("hamon %s embedded in a Kokkos application (%s): %d spins, %d edges\n",
                hamon::version, Space::name(), kNodes, kEdges);

    hamon::Sampler<Space> uninterrupted(space, model, options);
    drive(uninterrupted, total, midway, checkpoint);
    const hamon::NrptResult result = uninterrupted.result();
    const hamon::SamplerState end = uninterrupted.state();

    const hamon::LoadedCheckpoint loaded = hamon::load_checkpoint(checkpoint);
    check(loaded.checkpoint.state.rounds_done == midway,
          "the checkpoint holds round " + std::to_string(midway));
    // This one gets the model already in the execution space (a DeviceModel, which several
    // samplers may share): it is the same run, so it takes the checkpoint.
    const auto device_model = hamon::make_device_model(space, model);
    hamon::Sampler<Space> resumed(space, device_model, options, loaded.checkpoint);
    drive(resumed, total, -1, checkpoint);
    check(bytes_of(resumed.identity(), resumed.state()) == bytes_of(uninterrupted.identity(), end),
          "resumed from the checkpoint: the same state, bit for bit");
    check(resumed.result().moments.energy_per_node.mean == result.moments.energy_per_node.mean,
          "resumed from the checkpoint: the same mean energy");

    hamon::NrptOptions other = options;
    other.seed += 1;
    bool refused = false;
    try {
      hamon::Sampler<Space> wrong(space, model, other, loaded.checkpoint);
    } catch (const hamon::CheckpointError& e) {
      refused = std::string(e.what()).find("sampling options") != std::string::npos;
    }
    check(refused, "a run with another seed refuses the checkpoint");
    for (const char* suffix : {"", ".prev", ".new"}) {
      std::filesystem::remove(checkpoint.string() + suffix);
    }

    // Results back into the application's Views, copied on its instance.
    using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    const auto n_chains = static_cast<std::size_t>(options.n_chains);
    const auto chain_energy = app_view<double>(space, "embed::chain_energy", n_chains);
    const auto cold_spins = app_view<std::int8_t>(space, "embed::cold_spins", kNodes);
    const auto magnetisation = app_view<double>(space, "embed::magnetisation", kNodes);
    const std::int32_t cold_machine = end.machine_of_chain[n_chains - 1];
    Kokkos::deep_copy(space, chain_energy,
                      Kokkos::View<const double*, Kokkos::HostSpace, Unmanaged>(
                          result.final_energies.data(), n_chains));
    Kokkos::deep_copy(space, cold_spins,
                      Kokkos::View<const std::int8_t*, Kokkos::HostSpace, Unmanaged>(
                          end.spins.data() + std::size_t(cold_machine) * kNodes, kNodes));
    Kokkos::deep_copy(space, magnetisation,
                      Kokkos::View<const double*, Kokkos::HostSpace, Unmanaged>(
                          result.moments.node_means.data(), kNodes));

    // The application's own kernel: the cold configuration's energy from its own couplings.
    double recomputed = 0.0;
    {
      const auto edge_i = lattice.edge_i, edge_j = lattice.edge_j;
      const auto couplings = lattice.couplings, fields = lattice.fields;
      const auto spins = cold_spins;
      Kokkos::parallel_reduce(
          "embed::energy", Kokkos::RangePolicy<Space>(space, 0, kNodes),
          KOKKOS_LAMBDA(const int n, double& sum) {
            for (int e = 2 * n; e < 2 * n + 2; ++e) {
              sum -= couplings(e) * spins(edge_i(e)) * spins(edge_j(e));
            }
            sum -= fields(n) * spins(n);
          },
          recomputed);
    }
    // Host copies, on the instance too (in host memory a mirror is the View itself).
    const auto energy_host = Kokkos::create_mirror_view(Kokkos::HostSpace(), chain_energy);
    const auto m_host = Kokkos::create_mirror_view(Kokkos::HostSpace(), magnetisation);
    if (energy_host.data() != chain_energy.data()) {
      Kokkos::deep_copy(space, energy_host, chain_energy);
      Kokkos::deep_copy(space, m_host, magnetisation);
    }
    space.fence();  // the reduction, the copies in and out: done, on this instance only
    check(std::abs(recomputed - energy_host(n_chains - 1)) < 1e-9,
          "the cold spins have the energy hamon reports");
    bool bounded = true;
    for (int i = 0; i < kNodes; ++i) bounded = bounded && std::abs(m_host(i)) <= 1.0;
    check(bounded, "the magnetisation per node is in [-1, 1]");

    // The exact oracle: the estimate must lie within 4 batch-means standard errors.
    const double exact = exact_energy_per_node(model);
    const hamon::MeanWithError estimate = result.moments.energy_per_node;
    std::printf("  <E>/N at beta %.2f: exact %.5f, sampled %.5f +- %.5f (%lld rounds)\n", kBeta,
                exact, estimate.mean, estimate.standard_error,
                static_cast<long long>(result.n_rounds));
    check(estimate.standard_error > 0.0 &&
              std::abs(estimate.mean - exact) <= 4.0 * estimate.standard_error,
          "the mean energy agrees with enumeration (4 standard errors)");
  }
  std::printf("hamon_embed: %s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
