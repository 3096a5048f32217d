// SPDX-License-Identifier: Apache-2.0
#pragma once
// The continuous families (families/family_concept.hpp): RealVariable<double>, the Gaussian and
// double-well site updates (families/real/detail/real_updates.hpp), energies summed per machine in
// node order, and observers of x, x^2 and x_i x_j in fixed point.
//
// The machine at ladder beta samples exp(-a E_ref - b (E - E_ref)), E_ref the node terms:
// on the annealing path a = beta_max (the ladder's top) and b = beta, and the swap energy
// is E - E_ref (the couplings' terms alone); on the model itself a = b = beta and the swap
// energy is E (DeviceModel::annealed).
//
// Energies: each machine's is summed by one thread, node by node in index order (the node
// term, then the couplings to higher-numbered neighbours in CRS order), in double with no
// contraction, then rounded once to fixed point (kContinuousFractionBits): the same bits
// on every space and thread count. Moment sums add per-value fixed-point integers, exact in
// any order and over ranks.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/families/detail/initial_values.hpp"
#include "hamon/core/families/detail/moment_observers.hpp"
#include "hamon/core/families/detail/sweep_launch.hpp"
#include "hamon/core/families/family_concept.hpp"
#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/real/detail/real_model_views.hpp"
#include "hamon/core/families/real/detail/real_registers.hpp"
#include "hamon/core/families/real/detail/real_updates.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/device_model_tables.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/model/variable_kind.hpp"
#include "hamon/core/state/chain_rows.hpp"
#include "hamon/core/state/moment_buffers.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/fixed_point.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
using RealState = FamilyState<ExecutionSpace, RealVariable<double>::storage_type>;

/// Machines of one host work item: a node's machines in runs of this many, their values
/// contiguous (ChainState's LayoutLeft), 8 Philox generators side by side for the
/// Gaussian words.
inline constexpr std::int32_t kRealLanes = 32;

/// The Gaussian word of machine `machine` at site `node`: word machine % 4 of the draw of
/// its group of four machines, so one Philox call serves four updates (a machine's word
/// depends on its index only, never on which rank or work item holds it).
KOKKOS_INLINE_FUNCTION std::uint32_t gaussian_word(std::uint64_t seed, std::int64_t node,
                                                   std::int32_t machine, std::uint32_t sweep,
                                                   std::uint32_t round) {
  return real_draw(seed, node, machine / 4, sweep, round, 0u).w[machine % 4];
}

/// Machines of one host work item of the energy pass: their sums side by side in a
/// vectorised loop, each machine's in its own order (node by node, as machine_energy).
inline constexpr std::int32_t kRealEnergyLanes = 8;

/// The continuous family (family_concept.hpp): Gaussian and double-well sites.
struct RealFamily {
  using variable = RealVariable<double>;
  /// No flip and no agreement between real values (no Houdayer move, no overlaps); exp(-0 E)
  /// does not normalise, so a ladder from beta = 0 anneals from the node terms; fixed-point
  /// sums bound the machines (real_updates.hpp).
  static constexpr FamilyAbilities abilities{/*cluster_moves=*/false,
                                             /*replica_overlaps=*/false, AnnealingSupport::required,
                                             kMaxRealMachines};

  template <class Model>
  static bool takes(const Model& model) {
    return model.continuous_kind != 0;
  }
  template <class Model>
  static std::string name(const Model& model) {
    return to_string(static_cast<ContinuousKind>(model.continuous_kind));
  }
  template <class Model>
  static std::int32_t values_per_variable(const Model&) {
    return 0;
  }
  /// A Gaussian's energy is convex: one basin, which the node updates decorrelate without
  /// round trips (FamilyFacts::one_basin); a double well's has two per node.
  template <class Model>
  static bool one_basin(const Model& model) {
    return model.continuous_kind == static_cast<std::int32_t>(ContinuousKind::gaussian);
  }
  /// A NaN or an infinity would poison every later energy.
  template <class Model>
  static std::string value_problem(const Model&, double value) {
    if (std::isfinite(value)) return {};
    return "holds " + std::to_string(value) + ", not a finite value";
  }
  template <class Model>
  static double table_bytes(const Model&, std::int64_t) {
    return 0.0;
  }
  /// Per node: x, x^2 and the node term of E_ref (columns i, n + i, 2n + i).
  template <class Model>
  static std::int64_t node_columns(const Model&) {
    return 3;
  }
  /// |mean x| summed over rounds, from the fixed-point sums of |sum_i x_i| / n.
  template <class Model>
  static double order_parameter(const Model&, double per_node_sum, std::int64_t) {
    return std::ldexp(per_node_sum, -kContinuousFractionBits);
  }

  /// Nothing depends on the ladder but the betas themselves.
  template <class Space>
  static void refresh(const Space&, const DeviceModel<typename Space::memory_space>&,
                      RealState<Space>&) {}
  /// Fixed-point sums, three columns per node: the means of x, the variances from the sums
  /// of x^2, and on the annealing path (where the energy sums hold E - E_ref) the node terms
  /// added back to the energy.
  template <class Space>
  static double node_moments(const Space&, const DeviceModel<typename Space::memory_space>& model,
                             const ColumnBatchSums& nodes, std::vector<double>& energy,
                             Moments& out) {
    const double unit = std::ldexp(1.0, -kContinuousFractionBits);
    const std::size_t n = nodes.width / 3;
    const std::size_t rows = nodes.rows();
    nodes.append_columns(0, n, unit, out.node_means, out.node_means_stderr);
    for (std::size_t i = 0; i < n; ++i) {
      const MeanWithError v = nodes.variance(i, n + i, unit);
      out.node_variances.push_back(v.mean);
      out.node_variances_stderr.push_back(v.standard_error);
    }
    if (model.annealed) {
      for (std::size_t k = 0; k < rows; ++k) {
        std::int64_t terms = 0;
        for (std::size_t i = 0; i < n; ++i) terms += nodes.at(k, 2 * n + i);
        energy[k] += static_cast<double>(terms) * unit;
      }
    }
    return unit;
  }

  /// Every variable uniform in (-1, 1) (the wells' span; a Gaussian forgets it in a sweep).
  template <class ExecutionSpace>
  static void start(const ExecutionSpace& space,
                    const DeviceModel<typename ExecutionSpace::memory_space>&,
                    RealState<ExecutionSpace>& state, std::uint64_t seed) {
    draw_initial_values(
        space, state, seed, KOKKOS_LAMBDA(const std::int64_t, const std::uint32_t word) {
          return 2.0 * to_unit_interval(word) - 1.0;
        });
  }
  /// One sweep: colour by colour, every (node of the colour, local machine) pair. On the
  /// host a work item is one node's machines, 32 at a time: their coupled sums in vectorised
  /// loops, then the updates of the 32 lanes in vector registers
  /// (families/real/detail/real_registers.hpp) or, in the portable loops, the Gaussian quantile's
  /// central region vectorised and the rest lane by lane. Elsewhere (and with HostKernel::device)
  /// one (node, machine) pair per work item, consecutive items on consecutive machines. Every path
  /// does the arithmetic of the scalar update on the same words: the same bits.
  template <class ExecutionSpace>
  static void sweep(const ExecutionSpace& space,
                    const DeviceModel<typename ExecutionSpace::memory_space>& model,
                    const RealState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                    std::uint32_t sweep_index, HostKernel kernel) {
    using memory_space = typename ExecutionSpace::memory_space;
    const RealModelViews<memory_space> views(model);
    const auto x = state.spins;
    const auto betas = state.betas;
    const auto chain_of_machine = state.local_chain_of_machine();
    const auto block_nodes = model.block_nodes;
    const std::int32_t first = state.first_machine;
    const std::int64_t n_machines = state.n_local_machines();
    const std::int32_t top = static_cast<std::int32_t>(betas.extent(0)) - 1;
    const bool annealed = model.annealed;
    // The update of machine row m at node i, given its coupled sum and (Gaussian) word.
    const auto update =
        KOKKOS_LAMBDA(std::int64_t i, std::int64_t m, double phi, std::uint32_t word) {
      const double beta = betas(chain_of_machine(m));
      const double a = annealed ? betas(top) : beta;
      if (views.gaussian) {
        const double z = standard_normal_quantile(to_unit_interval(word));
        x(m, i) = gaussian_site_value(views.weights(i), views.fields(i), phi, a, beta, z);
        return;
      }
      const auto machine = static_cast<std::int32_t>(first + m);
      const auto words = [&](std::uint32_t call) {
        return real_draw(seed, i, machine, sweep_index, round, call);
      };
      const DoubleWellSite site{a * views.weights(i), a * views.fields(i) + beta * phi};
      x(m, i) = double_well_slice_step(site, x(m, i), words, kSliceTries);
    };
    const bool registers = use_host_vectors<ExecutionSpace>(kernel);
    const std::size_t n_colours = model.block_offsets.empty() ? 0 : model.block_offsets.size() - 1;
    for (std::size_t c = 0; c < n_colours; ++c) {
      const std::int64_t begin = model.block_offsets[c];
      const std::int64_t n_block = model.block_offsets[c + 1] - begin;
      if (n_block == 0 || n_machines == 0) continue;
      if constexpr (host_style<ExecutionSpace>) {
        if (kernel != HostKernel::device) {
          launch(
              space, "hamon::real_sweep", n_block, n_block * n_machines, [=](const std::int64_t k) {
                const std::int64_t i = block_nodes(begin + k);
                for (std::int64_t m0 = 0; m0 < n_machines; m0 += kRealLanes) {
                  const auto lanes = static_cast<std::int32_t>(
                      n_machines - m0 < kRealLanes ? n_machines - m0 : kRealLanes);
                  double phi[kRealLanes];
                  for (std::int32_t l = 0; l < kRealLanes; ++l) phi[l] = 0.0;
                  for (std::int64_t e = views.row_offsets(i); e < views.row_offsets(i + 1); ++e) {
                    const double coupling = views.couplings(e);
                    const double* neighbour = &x(m0, views.columns(e));
                    HAMON_SIMD
                    for (std::int32_t l = 0; l < lanes; ++l) phi[l] += coupling * neighbour[l];
                  }
                  if (!views.gaussian && !registers) {
                    for (std::int32_t l = 0; l < lanes; ++l) update(i, m0 + l, phi[l], 0u);
                    continue;
                  }
                  // The lanes' inverse temperatures (a, b above); unused lanes get harmless ones.
                  double a[kRealLanes], b[kRealLanes];
                  for (std::int32_t l = 0; l < kRealLanes; ++l) {
                    b[l] = l < lanes ? betas(chain_of_machine(m0 + l)) : 1.0;
                    a[l] = annealed && l < lanes ? betas(top) : b[l];
                  }
                  double* values = &x(m0, i);
                  const auto machine0 = static_cast<std::uint32_t>(first + m0);
#if HAMON_HOST_SIMD
                  if (!views.gaussian) {
                    double a_lambda[kRealLanes], slope[kRealLanes];
                    for (std::int32_t l = 0; l < kRealLanes; ++l) {
                      a_lambda[l] = a[l] * views.weights(i);
                      slope[l] = a[l] * views.fields(i) + b[l] * phi[l];
                    }
                    double_well_registers(seed, static_cast<std::uint32_t>(i), machine0,
                                          sweep_index, round, values, a_lambda, slope, values,
                                          lanes, kSliceTries);
                    continue;
                  }
#endif
                  // Gaussian: the words of 8 Philox generators side by side (first and m0 are
                  // multiples of 16: the lanes' groups of four start at l = 0).
                  constexpr int kGroups = kRealLanes / 4;
                  std::uint32_t nodes[kGroups], groups[kGroups], words[kRealLanes];
                  for (int g = 0; g < kGroups; ++g) {
                    nodes[g] = static_cast<std::uint32_t>(i);
                    groups[g] = machine0 / 4 + static_cast<std::uint32_t>(g);
                  }
                  philox4_lanes<kGroups>(seed, nodes, groups, sweep_index, round, words);
                  const double d = views.weights(i);
                  const double h = views.fields(i);
#if HAMON_HOST_SIMD
                  if (registers) {
                    gaussian_registers(words, phi, a, b, d, h, values, lanes, annealed);
                    continue;
                  }
#endif
                  // The portable loops: the quantile's central region for every lane vectorised,
                  // the tails (about 15% of the draws) one by one.
                  double z[kRealLanes];
                  HAMON_SIMD
                  for (std::int32_t l = 0; l < kRealLanes; ++l) {
                    z[l] = normal_quantile_central(to_unit_interval(words[l]) - 0.5);
                  }
                  for (std::int32_t l = 0; l < lanes; ++l) {
                    const double p = to_unit_interval(words[l]);
                    if (!normal_quantile_is_central(p - 0.5)) z[l] = standard_normal_quantile(p);
                  }
                  for (std::int32_t l = 0; l < lanes; ++l) {
                    values[l] = gaussian_site_value(d, h, phi[l], a[l], b[l], z[l]);
                  }
                }
              });
          continue;
        }
      }
      {
        launch(
            space, "hamon::real_sweep", n_block * n_machines, n_block * n_machines,
            KOKKOS_LAMBDA(const std::int64_t k) {
              const std::int64_t i = block_nodes(begin + k / n_machines);
              const std::int64_t m = k % n_machines;
              const std::uint32_t word =
                  views.gaussian ? gaussian_word(seed, i, static_cast<std::int32_t>(first + m),
                                                 sweep_index, round)
                                 : 0u;
              update(i, m, views.coupled_sum(i, x, m), word);
            });
      }
    }
  }
  template <class ExecutionSpace>
  static void add_energies(const ExecutionSpace& space,
                           const DeviceModel<typename ExecutionSpace::memory_space>& model,
                           const RealState<ExecutionSpace>& state, HostKernel kernel) {
    const RealModelViews<typename ExecutionSpace::memory_space> views(model);
    const auto x = state.spins;
    const auto energy_fixed = state.local_energy_fixed();
    const std::int64_t n_nodes = model.n_nodes;
    const std::int64_t n_machines = state.n_local_machines();
    const bool with_nodes = !model.annealed;
    if constexpr (host_style<ExecutionSpace>) {
      if (kernel != HostKernel::device) {
        launch(space, "hamon::real_energies",
               (n_machines + kRealEnergyLanes - 1) / kRealEnergyLanes, n_machines * n_nodes,
               [=](const std::int64_t g) {
                 const std::int64_t m0 = g * kRealEnergyLanes;
                 const auto lanes = static_cast<std::int32_t>(
                     n_machines - m0 < kRealEnergyLanes ? n_machines - m0 : kRealEnergyLanes);
                 double sum[kRealEnergyLanes] = {};
                 for (std::int64_t i = 0; i < n_nodes; ++i) {
                   const double* xi = &x(m0, i);
                   if (with_nodes) {
                     HAMON_SIMD
                     for (std::int32_t l = 0; l < lanes; ++l) sum[l] += views.node_energy(i, xi[l]);
                   }
                   for (std::int64_t e = views.row_offsets(i); e < views.row_offsets(i + 1); ++e) {
                     if (views.columns(e) <= i) continue;
                     const double coupling = views.couplings(e);
                     const double* xj = &x(m0, views.columns(e));
                     HAMON_SIMD
                     for (std::int32_t l = 0; l < lanes; ++l) sum[l] -= coupling * xi[l] * xj[l];
                   }
                 }
                 for (std::int32_t l = 0; l < lanes; ++l)
                   energy_fixed(m0 + l) = add_fixed(energy_fixed(m0 + l), real_to_fixed(sum[l]));
               });
        return;
      }
    }
    launch(
        space, "hamon::real_energies", n_machines, n_machines * n_nodes,
        KOKKOS_LAMBDA(const std::int64_t m) {
          energy_fixed(m) = add_fixed(
              energy_fixed(m), real_to_fixed(views.machine_energy(x, m, n_nodes, with_nodes)));
        });
  }
  /// The cold chain's values, squares and node terms per node and products per edge, in
  /// fixed point; the swap energy (replicated, as every rank holds the energies) and, on
  /// the rank that holds the cold machine, |sum_i x_i| for the order parameter. On the
  /// annealing path the energy E is the swap energy plus the node terms' column
  /// (moments_of): both are exact sums, so the ranks' shares add up to one process's.
  template <class ExecutionSpace>
  static void observe(const ExecutionSpace& space,
                      const DeviceModel<typename ExecutionSpace::memory_space>& model,
                      const RealState<ExecutionSpace>& state,
                      const MomentBuffers<ExecutionSpace>& b, std::int64_t batch) {
    const RealModelViews<typename ExecutionSpace::memory_space> views(model);
    const ChainRows<ExecutionSpace, double> rows(state);
    const auto x = state.spins;
    const auto node_sums = b.node_sums;
    const std::int64_t n_nodes = model.n_nodes;
    observe_coldest_nodes_and_edges(
        space, model, rows, b, batch, "real",
        KOKKOS_LAMBDA(const std::int32_t m, const std::int64_t i) {
          const double v = x(m, i);
          // Checked sums: one that leaves int64 is marked, never wrapped (add_fixed).
          auto add = [&](std::int64_t column, double term) {
            node_sums(batch, column) = add_fixed(node_sums(batch, column), real_to_fixed(term));
          };
          add(i, v);
          add(n_nodes + i, v * v);
          add(2 * n_nodes + i, views.node_energy(i, v));
        },
        KOKKOS_LAMBDA(const std::int32_t m, const std::int32_t i, const std::int32_t j) {
          return real_to_fixed(x(m, i) * x(m, j));
        });
    const auto energy_sums = b.energy_sums;
    const auto abs_sum = b.abs_magnetization_sums;
    const auto counts = b.counts;
    const auto energy_fixed = state.energy_fixed;
    const int bits = model.energy_fraction_bits;
    small_for(
        space, "hamon::observe_real_scalars", 1, KOKKOS_LAMBDA(const std::int64_t) {
          const std::int32_t cold = rows.machine_of_chain(rows.coldest);
          const std::int32_t m = rows.row(rows.coldest);
          if (m >= 0) {
            std::int64_t total = 0;
            for (std::int64_t i = 0; i < n_nodes; ++i)
              total = add_fixed(total, real_to_fixed(x(m, i)));
            const std::int64_t magnitude = total < 0 && total != kFixedOutOfRange ? -total : total;
            // An energy out of range marks the sums too (the energy sums are doubles).
            abs_sum(batch) =
                add_fixed(abs_sum(batch),
                          energy_fixed(cold) == kFixedOutOfRange ? kFixedOutOfRange : magnitude);
          }
          energy_sums(batch) += fixed_point_energy(energy_fixed(cold), bits);
          counts(batch) += 1;
        });
  }
};

}  // namespace hamon::detail
