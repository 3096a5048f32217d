// SPDX-License-Identifier: Apache-2.0
#pragma once
// Persistent chains of an RBM: `n_ladders` ladders of the same ascending betas (the last
// is the target), in one ChainState made as the sampler makes one (make_ladders_state):
// rung i of ladder l is machine (row) i * n_ladders + l, so the target rung's machines are
// the last n_ladders rows; the swap counters are the state's, per rung pair. Swaps move
// states between rows, never labels (rbm_row_swaps.hpp), so chain_of_machine stays as made.
//
// A sweep updates the visible layer, then the hidden one, each unit from its local field
// phi with the sampler's own decision (families/spin/spin_decision.hpp: the byte of Philox at
// counter (node, machine / 16, sweep, round), ties from the tie domain, the chain's field
// boundaries), so the dense path (phi of a layer for every machine as one GEMM) and the
// csr path (gibbs_sweep over the RBM's graph) give the same bits. Alongside the int8 spins
// the layers are kept as +-1 doubles (GEMM operands), in step with the spins.
//
// The DEO pass (after the sweeps of an update) is the sampler's (deo_swap_pass,
// tempering/swap.hpp) over every ladder of the state: the rung pairs (r, r + 1) with
// r = round mod 2, 2 + round mod 2, ...; the uniform of a pair is word 0 of Philox at counter
// (r, ladder, swap stream, round). Kernels go through the sampler's launch (util/launch.hpp).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/gibbs_sweep.hpp"
#include "hamon/core/families/spin/field_boundaries.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"
#include "hamon/core/families/spin/spin_decision.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/stats/statistics.hpp"
#include "hamon/core/tempering/swap.hpp"
#include "hamon/core/train/detail/dense_gemm.hpp"
#include "hamon/core/train/detail/rbm_row_swaps.hpp"
#include "hamon/core/train/detail/rbm_views.hpp"
#include "hamon/core/train/rbm_parameters.hpp"
#include "hamon/core/train/training_options.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

/// Decides one layer of every machine from its fields (the dense path): work item (unit,
/// group of 16 machines), as the sampler's device style does.
template <class ExecutionSpace>
struct DecideLayer {
  using views = TrainViews<ExecutionSpace>;
  typename ChainState<ExecutionSpace>::spin_view spins;
  typename views::matrix fields;  // (machines, units): W-part of phi
  typename views::matrix layer;   // (machines, units): the new spins as doubles
  Kokkos::View<double**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space> boundary;
  typename ChainState<ExecutionSpace>::template view<double> betas;  // per chain
  typename ChainState<ExecutionSpace>::template view<std::int32_t> chain_of_machine;
  const double* bias = nullptr;
  std::int64_t first_node = 0;  // of the layer in the RBM's node numbering
  std::int64_t n_units = 0;
  std::int32_t n_machines = 0;
  std::uint64_t seed = 0;
  std::uint32_t sweep = 0;
  std::uint32_t round = 0;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    const std::int64_t u = idx % n_units;
    const auto group = static_cast<std::int32_t>(idx / n_units);
    const auto node = static_cast<std::uint32_t>(first_node + u);
    const Philox4 draw = philox4(seed, node, static_cast<std::uint32_t>(group), sweep, round);
    const std::int32_t first = group * kMachinesPerDraw;
    const std::int32_t lanes =
        n_machines - first < kMachinesPerDraw ? n_machines - first : kMachinesPerDraw;
    const DecisionTables tables{nullptr, boundary.data()};
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const std::int32_t m = first + lane;
      const std::int32_t c = chain_of_machine(m);
      const ChainRow chain{betas(c), static_cast<std::int64_t>(c) * kFieldBoundaries, 0};
      const double phi = fields(m, u) + bias[u];
      const std::int8_t s = decide_spin<DecisionRule::boundary>(
          tables, chain, draw_byte(draw, lane), phi,
          [&] { return tie_bits(seed, node, static_cast<std::uint32_t>(m), sweep, round); });
      spins(m, static_cast<std::int64_t>(node)) = s;
      layer(m, u) = s;
    }
  }
};

template <class ExecutionSpace>
class RbmChains {
 public:
  using views = TrainViews<ExecutionSpace>;
  using memory_space = typename ExecutionSpace::memory_space;

  /// Chains of `parameters`' shape (the weights matter only to the csr path, which reads
  /// the current ones at every sweep), uniformly random from `seed`.
  RbmChains(const ExecutionSpace& space, const RbmParameters& parameters, std::int32_t n_ladders,
            const std::vector<double>& ladder, std::uint64_t seed, SweepPath path)
      : space_(space),
        n_visible_(parameters.n_visible),
        n_hidden_(parameters.n_hidden),
        n_ladders_(n_ladders),
        ladder_(ladder),
        seed_(seed),
        path_(path) {
    model_ = make_device_model(space, make_rbm(parameters));
    // Real fields, whatever the current values: the decision tables are field boundaries
    // (they depend on the ladder only), so the csr sweep decides as DecideLayer does.
    model_.integer_field_bound = -1;
    state_ = make_ladders_state(space, model_, ladder, n_ladders, seed);
    const std::int32_t n = n_machines();
    visible_ = views::new_matrix(space, "hamon::train_visible", n, n_visible_);
    hidden_ = views::new_matrix(space, "hamon::train_hidden", n, n_hidden_);
    visible_fields_ = views::new_matrix(space, "hamon::train_visible_fields", n, n_visible_);
    hidden_fields_ = views::new_matrix(space, "hamon::train_hidden_fields", n, n_hidden_);
    energy_ = views::new_vector(space, "hamon::train_energy", n);
    sync_layers();
  }

  std::int32_t n_machines() const { return n_ladders_ * static_cast<std::int32_t>(ladder_.size()); }
  std::int32_t n_ladders() const { return n_ladders_; }
  /// The machines at beta = 1 (rows [first_target(), n_machines())).
  std::int32_t first_target() const { return n_machines() - n_ladders_; }
  /// The chain at beta = 1 (the last of the ladder).
  std::int32_t target_chain() const { return static_cast<std::int32_t>(ladder_.size()) - 1; }
  const typename views::matrix& visible() const { return visible_; }
  const typename views::matrix& hidden() const { return hidden_; }
  const FamilyState<ExecutionSpace>& state() const { return state_; }
  const Kokkos::View<double*, typename views::device>& energies() const { return energy_; }

  /// `sweeps` sweeps of every machine with the parameters `theta`, counters (s, round).
  void sweep(const FlatRbm<ExecutionSpace>& theta, std::int32_t sweeps, std::uint32_t round) {
    hidden_fields_current_ = path_ == SweepPath::dense;
    if (path_ == SweepPath::csr) {
      copy_parameters_to_graph(theta);
      for (std::int32_t s = 0; s < sweeps; ++s) {
        gibbs_sweep(space_, model_, state_, seed_, round, static_cast<std::uint32_t>(s));
      }
      sync_layers();
      return;
    }
    const auto w = theta.weights();
    for (std::int32_t s = 0; s < sweeps; ++s) {
      dense_gemm(space_, Transpose::no, Transpose::yes, hidden_, w, visible_fields_);
      decide(visible_fields_, visible_, theta.visible_bias(), 0, n_visible_, s, round);
      dense_gemm(space_, Transpose::no, Transpose::no, visible_, w, hidden_fields_);
      decide(hidden_fields_, hidden_, theta.hidden_bias(), n_visible_, n_hidden_, s, round);
    }
  }

  /// E of every machine under `theta` (into energies()). The dense sweep's last step left
  /// the hidden fields of the current visible units behind: then no GEMM is needed.
  void compute_energies(const FlatRbm<ExecutionSpace>& theta) {
    if (!hidden_fields_current_) {
      dense_gemm(space_, Transpose::no, Transpose::no, visible_, theta.weights(), hidden_fields_);
    }
    const auto v = visible_;
    const auto h = hidden_;
    const auto f = hidden_fields_;
    const auto e = energy_;
    const double* b = theta.visible_bias();
    const double* c = theta.hidden_bias();
    const std::int64_t nv = n_visible_;
    const std::int64_t nh = n_hidden_;
    launch(
        space_, "hamon::rbm_energies", n_machines(), n_machines() * (nv + nh),
        KOKKOS_LAMBDA(const std::int64_t m) {
          double sum = 0.0;
          for (std::int64_t i = 0; i < nv; ++i) sum += b[i] * v(m, i);
          for (std::int64_t j = 0; j < nh; ++j) sum += h(m, j) * (f(m, j) + c[j]);
          e(m) = -sum;
        });
  }

  /// One DEO pass in every ladder (energies under `theta` first): the sampler's pass with
  /// training's double energies and row moves (rbm_row_swaps.hpp). No-op when untempered.
  void swap_pass(const FlatRbm<ExecutionSpace>& theta, std::uint32_t round) {
    if (ladder_.size() < 2) return;
    compute_energies(theta);
    hidden_fields_current_ = false;  // the swaps below move states, not their fields
    deo_swap_pass(space_, state_, seed_, round, DoubleEnergies<ExecutionSpace>{energy_},
                  RbmRowMoves<ExecutionSpace>{state_.spins, visible_, hidden_, energy_});
  }

  std::vector<std::int64_t> attempted() const {
    return to_host_vector<std::int64_t>(space_, state_.attempted);
  }
  std::vector<std::int64_t> accepted() const {
    return to_host_vector<std::int64_t>(space_, state_.accepted);
  }
  /// accepted / attempted per rung pair (0 where none was attempted).
  std::vector<double> acceptance() const {
    return swap_statistics(ladder_, attempted(), accepted()).acceptance;
  }

  /// Spins machine-major (V + H per machine), as a state records them.
  std::vector<std::int8_t> spins_by_machine() const {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state_.spins);
    std::vector<std::int8_t> out;
    out.reserve(host.extent(0) * host.extent(1));
    for (std::size_t m = 0; m < host.extent(0); ++m) {
      for (std::size_t i = 0; i < host.extent(1); ++i) out.push_back(host(m, i));
    }
    return out;
  }

  /// Restores spins_by_machine() and the swap counters.
  void restore(const std::vector<std::int8_t>& spins, const std::vector<std::int64_t>& attempted,
               const std::vector<std::int64_t>& accepted) {
    auto host = Kokkos::create_mirror_view(state_.spins);
    std::size_t k = 0;
    for (std::size_t m = 0; m < host.extent(0); ++m) {
      for (std::size_t i = 0; i < host.extent(1); ++i) host(m, i) = spins[k++];
    }
    Kokkos::deep_copy(space_, state_.spins, host);
    copy_from_host(space_, state_.attempted, attempted);
    copy_from_host(space_, state_.accepted, accepted);
    sync_layers();
    hidden_fields_current_ = false;
  }

  // Public for nvcc: a class's extended device lambdas may not live in private members.
  void decide(const typename views::matrix& fields, const typename views::matrix& layer,
              const double* bias, std::int64_t first_node, std::int64_t n_units, std::int32_t s,
              std::uint32_t round) {
    DecideLayer<ExecutionSpace> f;
    f.spins = state_.spins;
    f.fields = fields;
    f.layer = layer;
    f.boundary = state_.tables.field_boundary;
    f.betas = state_.betas;
    f.chain_of_machine = state_.chain_of_machine;
    f.bias = bias;
    f.first_node = first_node;
    f.n_units = n_units;
    f.n_machines = n_machines();
    f.seed = seed_;
    f.sweep = static_cast<std::uint32_t>(s);
    f.round = round;
    const std::int64_t groups = (n_machines() + kMachinesPerDraw - 1) / kMachinesPerDraw;
    launch(space_, "hamon::rbm_decide_layer", n_units * groups, n_units * n_machines(), f);
  }

  /// The +-1 doubles of both layers from the spins.
  void sync_layers() {
    const auto spins = state_.spins;
    const auto v = visible_;
    const auto h = hidden_;
    const std::int64_t nv = n_visible_;
    const std::int64_t n = nv + n_hidden_;
    const std::int32_t machines = n_machines();
    launch(
        space_, "hamon::rbm_sync_layers", n * machines, n * machines,
        KOKKOS_LAMBDA(const std::int64_t idx) {
          const auto m = static_cast<std::int32_t>(idx % machines);
          const std::int64_t i = idx / machines;
          const double s = spins(m, i);
          if (i < nv) {
            v(m, i) = s;
          } else {
            h(m, i - nv) = s;
          }
        });
  }

  /// The csr path's couplings and fields from theta: make_rbm's graph is complete
  /// bipartite with sorted rows, so entry h of visible row v and entry v of hidden row
  /// V + h both hold W_vh.
  void copy_parameters_to_graph(const FlatRbm<ExecutionSpace>& theta) {
    const auto couplings = model_.couplings;
    const auto fields = model_.fields;
    const auto values = theta.values;
    const std::int64_t nv = n_visible_;
    const std::int64_t nh = n_hidden_;
    launch(
        space_, "hamon::rbm_copy_to_graph", nv * nh, nv * nh, KOKKOS_LAMBDA(const std::int64_t k) {
          const std::int64_t v = k / nh;
          const std::int64_t h = k % nh;
          couplings(v * nh + h) = values(k);
          couplings(nv * nh + h * nv + v) = values(k);
        });
    launch(
        space_, "hamon::rbm_copy_fields", nv + nh, nv + nh,
        KOKKOS_LAMBDA(const std::int64_t i) { fields(i) = values(nv * nh + i); });
  }

 private:
  ExecutionSpace space_;
  std::int64_t n_visible_;
  std::int64_t n_hidden_;
  std::int32_t n_ladders_;
  std::vector<double> ladder_;
  std::uint64_t seed_;
  SweepPath path_;
  DeviceModel<memory_space> model_;
  FamilyState<ExecutionSpace> state_;
  typename views::matrix visible_, hidden_, visible_fields_, hidden_fields_;
  Kokkos::View<double*, typename views::device> energy_;
  bool hidden_fields_current_ = false;  // hidden_fields_ = visible_ W for the current theta
};

}  // namespace hamon::detail
