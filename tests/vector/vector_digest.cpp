// SPDX-License-Identifier: Apache-2.0
// hamon_vector_digest: fixed-seed sweeps and energy passes of every built-in family on the
// Serial space, reduced to CRC-32 digests of the state's bytes, so that two machines of
// different architectures (tools/arm-check.sh: x86 natively, aarch64 under QEMU) can compare
// their host kernels bit for bit by comparing a few lines of text.
//
// On this machine every case runs with the portable loops, the device kernel's style, and
// the vector path on each instruction set it dispatches to here (one at a time); they must
// all give the portable loops' bytes, else the program names the case and the kernel and
// exits with status 1. Lines starting with '#' describe the machine (architecture, vector
// targets) and differ between machines by design; every other line must not.
#include <hwy/targets.h>
#include <zlib.h>

#include <Kokkos_Core.hpp>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/energy.hpp"
#include "hamon/core/families/family_table.hpp"
#include "hamon/core/families/gibbs_sweep.hpp"
#include "hamon/core/families/real/real_family.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"
#include "hamon/core/util/host_kernel.hpp"

namespace {

// Serial where built (a build without it, e.g. the Kokkos 5.2 compile check's OpenMP-only
// headers, takes the default host space: every host space gives the same bits).
#ifdef KOKKOS_ENABLE_SERIAL
using Space = Kokkos::Serial;
#else
using Space = Kokkos::DefaultHostExecutionSpace;
#endif
using Kernel = hamon::HostKernel;

constexpr std::uint64_t kSeed = 20261207;
constexpr std::uint32_t kSweeps = 6;
// Past one work item's 32 lanes: a full chunk and a one-machine tail.
constexpr std::int32_t kMachines = 33;

/// CRC-32 of a view's bytes, copied to the host (zlib's crc32, as the checkpoints use).
template <class View>
std::uint32_t digest(const View& view) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  const auto* bytes = reinterpret_cast<const Bytef*>(host.data());
  const auto size = host.size() * sizeof(typename View::value_type);
  return static_cast<std::uint32_t>(crc32(crc32(0L, Z_NULL, 0), bytes, static_cast<uInt>(size)));
}

/// The digests of one run: the variables after the sweeps, and the energy pass over them.
struct Digests {
  std::uint32_t values = 0;
  std::uint32_t energies = 0;
  bool operator==(const Digests& other) const {
    return values == other.values && energies == other.energies;
  }
};

/// A ladder from `lowest` to `highest`, one temperature per machine.
std::vector<double> ladder(double lowest, double highest) {
  std::vector<double> betas(static_cast<std::size_t>(kMachines));
  for (std::int32_t k = 0; k < kMachines; ++k) {
    betas[static_cast<std::size_t>(k)] = lowest + (highest - lowest) * k / (kMachines - 1);
  }
  return betas;
}

/// Spins and Potts states (one byte each): the family the model's kind selects.
Digests byte_run(const hamon::SpinModel& model, const std::vector<double>& betas, Kernel kernel) {
  Space space;
  const auto dm = hamon::make_device_model(space, model);
  auto state = hamon::make_chain_state(space, dm, betas, kSeed);
  for (std::uint32_t sweep = 0; sweep < kSweeps; ++sweep) {
    hamon::gibbs_sweep(space, dm, state, kSeed, 1, sweep, kernel);
  }
  hamon::compute_energies(space, dm, state, kernel);
  space.fence();
  return {digest(state.spins), digest(state.energy_fixed)};
}

/// Gaussian and double-well variables (doubles): the real family.
Digests real_run(const hamon::SpinModel& model, const std::vector<double>& betas, Kernel kernel) {
  Space space;
  const auto family = hamon::detail::family_table<hamon::detail::RealFamily, Space>();
  const auto dm = hamon::make_device_model(space, model);
  auto state = hamon::detail::make_family_state(space, family, dm, betas, kSeed,
                                                hamon::MachineBlock{0, kMachines});
  for (std::uint32_t sweep = 0; sweep < kSweeps; ++sweep) {
    family.sweep(space, dm, state, kSeed, 1, sweep, kernel);
  }
  family.energies(space, dm, state, kernel);
  space.fence();
  return {digest(state.spins), digest(state.energy_fixed)};
}

struct Case {
  std::string name;
  std::function<Digests(Kernel)> run;
};

std::vector<Case> cases() {
  using hamon::ValueDistribution;
  std::vector<Case> all;
  const auto byte_case = [&](std::string name, hamon::SpinModel model, double highest) {
    all.push_back({std::move(name), [model = std::move(model), highest](Kernel kernel) {
                     return byte_run(model, ladder(0.0, highest), kernel);
                   }});
  };
  // +-J couplings and integer fields on a periodic 3D lattice: the lattice fast path.
  byte_case("spin-lattice-pm-j",
            hamon::make_lattice({6, 6, 8}, true, ValueDistribution::pm_one(3),
                                ValueDistribution::pm_one(5, 2.0)),
            3.0);
  // Gaussian couplings and fields: real local fields, the exp of every update.
  byte_case("spin-lattice-gaussian",
            hamon::make_lattice({12, 10}, true, ValueDistribution::gaussian(3),
                                ValueDistribution::gaussian(4, 0.7)),
            3.0);
  // An open-boundary graph (the CSR path) with integer couplings of several sizes, fields
  // and two clamped nodes.
  {
    std::vector<hamon::Edge> edges;
    const std::int64_t n = 150;
    std::vector<double> fields(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      edges.push_back({i, (i + 1) % n, static_cast<double>(1 + i % 3)});
      if (i % 4 == 0) edges.push_back({i, (i + 7) % n, i % 8 == 0 ? -2.0 : 1.0});
      fields[static_cast<std::size_t>(i)] = static_cast<double>(i % 5) - 2.0;
    }
    byte_case("spin-csr", hamon::SpinModel::from_edges(n, edges, fields, {{3, 1}, {40, -1}}), 2.0);
  }
  // q = 3 Potts: a ferromagnet with integer fields (weight tables), and a Gaussian glass with
  // drawn fields (exp per state).
  hamon::PottsFields integer;
  integer.uniform = {1.0, 0.0, -2.0};
  byte_case("potts3-lattice",
            hamon::make_potts_lattice({8, 10}, true, 3, ValueDistribution::constant(1.0), integer),
            2.0);
  hamon::PottsFields drawn;
  drawn.drawn = ValueDistribution::gaussian(4, 0.7);
  byte_case("potts3-gaussian",
            hamon::make_potts_lattice({8, 10}, true, 3, ValueDistribution::gaussian(3), drawn),
            2.0);
  // Continuous variables on a periodic lattice with Gaussian couplings and fields (the
  // Gaussian's conditional at beta 0 is improper: its ladder starts above 0).
  const auto shape = hamon::make_lattice({16, 16}, true, ValueDistribution::gaussian(4, 0.2),
                                         ValueDistribution::gaussian(5, 0.3));
  const std::int64_t n = shape.n_nodes();
  const auto gaussian = hamon::SpinModel::gaussian(
      n, shape.edges(), std::vector<double>(static_cast<std::size_t>(n), 2.0), shape.fields());
  const auto double_well = hamon::SpinModel::double_well(
      n, shape.edges(), std::vector<double>(static_cast<std::size_t>(n), 0.8), shape.fields());
  all.push_back({"gaussian", [gaussian](Kernel kernel) {
                   return real_run(gaussian, ladder(0.05, 6.0), kernel);
                 }});
  all.push_back({"double-well", [double_well](Kernel kernel) {
                   return real_run(double_well, ladder(0.0, 6.0), kernel);
                 }});
  return all;
}

std::string hex(std::uint32_t value) {
  char text[9];
  std::snprintf(text, sizeof text, "%08" PRIx32, value);
  return text;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
#if defined(__aarch64__)
  std::printf("# architecture aarch64\n");
#elif defined(__x86_64__)
  std::printf("# architecture x86_64\n");
#else
  std::printf("# architecture other\n");
#endif
  std::string names;
#if HAMON_HOST_SIMD
  const auto targets = hamon::detail::host_vector_targets();
  for (const std::int64_t target : targets) {
    names += " " + hamon::detail::host_vector_target_name(target);
  }
#else
  names = " (none: portable loops only)";
#endif
  std::printf("# vector targets%s\n", names.c_str());
  // Everything Highway finds this CPU able to run, compiled in or not (on ARM: whether SVE
  // would be reachable, core/CMakeLists.txt disabling it).
  std::string supported;
  const std::int64_t bits = hwy::SupportedTargets();
  for (int bit = 0; bit < 63; ++bit) {
    if ((bits >> bit) & 1) supported += std::string(" ") + hwy::TargetName(std::int64_t{1} << bit);
  }
  std::printf("# cpu supports%s\n", supported.c_str());
  int failures = 0;
  std::uint32_t combined = crc32(0L, Z_NULL, 0);
  for (const Case& c : cases()) {
    const Digests reference = c.run(Kernel::portable);
    std::vector<std::pair<std::string, Digests>> others{{"device", c.run(Kernel::device)},
                                                        {"best", c.run(Kernel::best)}};
#if HAMON_HOST_SIMD
    for (const std::int64_t target : targets) {
      hamon::detail::restrict_host_vector_target(target);
      others.emplace_back(hamon::detail::host_vector_target_name(target), c.run(Kernel::best));
    }
    hamon::detail::restrict_host_vector_target(0);
#endif
    for (const auto& [kernel, digests] : others) {
      if (!(digests == reference)) {
        std::fprintf(stderr,
                     "hamon_vector_digest: %s: kernel %s gives values %s energies %s, the "
                     "portable loops values %s energies %s\n",
                     c.name.c_str(), kernel.c_str(), hex(digests.values).c_str(),
                     hex(digests.energies).c_str(), hex(reference.values).c_str(),
                     hex(reference.energies).c_str());
        ++failures;
      }
    }
    std::printf("%-22s values %s energies %s\n", c.name.c_str(), hex(reference.values).c_str(),
                hex(reference.energies).c_str());
    const std::uint32_t both[2] = {reference.values, reference.energies};
    combined = crc32(combined, reinterpret_cast<const Bytef*>(both), sizeof both);
  }
  std::printf("%-22s %s\n", "all", hex(combined).c_str());
  return failures == 0 ? 0 : 1;
}
