// SPDX-License-Identifier: Apache-2.0
#pragma once
// The model as Views in the memory space of the execution space that samples it. Its
// members are named once more, in its field list, and every walk over them follows that
// list (util/view_fields.hpp): make_device_model's copy into a space, view_aliases, the
// memory check's count (sampler/detail/space_memory.hpp).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "hamon/core/model/device_model_tables.hpp"
#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/model/lattice_geometry.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/util/field_list.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon {

template <class MemorySpace>
struct DeviceModel {
  using memory_space = MemorySpace;
  template <class T>
  using view = Kokkos::View<T*, MemorySpace>;

  view<std::int64_t> row_offsets;  // symmetric CRS
  view<std::int32_t> columns;
  view<double> couplings;
  view<double> fields;
  view<std::int8_t> clamped;       // 0 free, +-1 clamped value
  view<std::int32_t> block_nodes;  // free nodes grouped by colour
  view<std::int32_t> edge_i;       // unique edges (i < j), for edge moments
  view<std::int32_t> edge_j;
  std::vector<std::int64_t> block_offsets;  // on the host: they size the sweep launches
  std::int64_t n_nodes = 0;
  std::int64_t n_free = 0;
  /// Energies are accumulated in fixed point with this many fractional bits, so their
  /// sums are exact integers whatever the reduction order (see energy.hpp).
  int energy_fraction_bits = 0;
  /// When every coupling and field is an integer and every |local field| is at most this
  /// bound (<= 64), local fields take few values and the sweep decides with integer
  /// thresholds tabulated per chain (families/spin/heat_bath.hpp) instead of calling exp; -1
  /// otherwise.
  std::int32_t integer_field_bound = -1;
  /// model_fingerprint (fingerprint.hpp) of the SpinModel this was made from: the model a
  /// Sampler's identity() names, so a checkpoint of another model is refused; 0 for a
  /// DeviceModel assembled by hand (then the identity cannot tell models apart).
  std::uint64_t fingerprint = 0;
  /// Potts models (SpinModel::is_potts): q; 0 for Ising spins. Then `fields` and
  /// `couplings` hold zeros and the Potts J, and these hold the rest:
  std::int32_t n_states = 0;
  view<double> state_fields;       // h_i(s) at i * q + s
  view<double> csr_matrices;       // per CRS entry, q * q (empty: every coupling J delta)
  view<std::int16_t> clamp_state;  // -1 free, else the clamped state
  /// Continuous models (spin_model.hpp): the kind (a ContinuousKind's value, 0 for
  /// discrete models), d_i or lambda_i per node, and whether the machines sample the
  /// annealing path between the node terms and the model (NrptOptions::reference; set
  /// by the sampler from its options, not by make_device_model).
  std::int32_t continuous_kind = 0;
  view<double> node_weights;
  bool annealed = false;
  /// The lattice fast path's geometry; `enabled` only when it applies (see
  /// lattice_geometry.hpp). Switching it off selects the general path, same bits.
  LatticeGeometry<MemorySpace> lattice;
  /// On the host: the extents of the periodic lattice an Ising SpinModel was built as
  /// (any couplings and fields, fast path or not), for the overlaps' Fourier phases;
  /// empty otherwise.
  std::vector<int> periodic_extents;

  /// Every member, labelled "hamon::" + its name where it is allocated (`field_list`, not
  /// `fields`: that is a member). A new member goes here too, or the static_assert below
  /// refuses the struct.
  template <class Self>
  static auto field_list(Self& m) {
    return std::make_tuple(
        field("row_offsets", m.row_offsets), field("columns", m.columns),
        field("couplings", m.couplings), field("fields", m.fields), field("clamped", m.clamped),
        field("block_nodes", m.block_nodes), field("edge_i", m.edge_i), field("edge_j", m.edge_j),
        field("block_offsets", m.block_offsets), field("n_nodes", m.n_nodes),
        field("n_free", m.n_free), field("energy_fraction_bits", m.energy_fraction_bits),
        field("integer_field_bound", m.integer_field_bound), field("fingerprint", m.fingerprint),
        field("n_states", m.n_states), field("state_fields", m.state_fields),
        field("csr_matrices", m.csr_matrices), field("clamp_state", m.clamp_state),
        field("continuous_kind", m.continuous_kind), field("node_weights", m.node_weights),
        field("annealed", m.annealed), field("lattice", m.lattice),
        field("periodic_extents", m.periodic_extents));
  }
};
static_assert(field_list_is_complete<DeviceModel<Kokkos::HostSpace>>());
static_assert(field_list_is_complete<LatticeGeometry<Kokkos::HostSpace>>());

/// The lattice directions with a Fourier overlap (sampler/detail/overlap_accumulator.hpp):
/// those of a periodic lattice whose extents are all equal (k_min the same along each), 0
/// otherwise.
template <class MemorySpace>
std::int32_t fourier_directions(const DeviceModel<MemorySpace>& m) {
  const std::vector<int>& extents = m.periodic_extents;
  for (int extent : extents) {
    if (extent != extents.front()) return 0;
  }
  return static_cast<std::int32_t>(extents.size());
}

/// The same model over the same memory, as Views of `Target` (a memory space that can
/// address `m`'s) that own nothing: copying them counts no references, so kernels launched
/// with it (once per colour block and round) skip the atomic reference counting of every
/// View. The caller keeps `m` (the owner) alive for as long as the aliases are used. Every
/// member of the field list is carried over.
template <class Target, class MemSpace>
DeviceModel<Target> view_aliases(const DeviceModel<MemSpace>& m) {
  DeviceModel<Target> alias;
  alias_fields(alias, m);
  return alias;
}

namespace detail {

/// A SpinModel as a DeviceModel in host memory whose Views own nothing: over the model's
/// own vectors and those derived here (the edges' ends, the lattice tables), read only.
/// What make_device_model copies into a space, member by member along the field list. The
/// Views the model does not use stay empty (no data), those it uses with no entries point
/// at a placeholder, so that the copy allocates exactly the Views it always has.
struct ModelSource {
  explicit ModelSource(const SpinModel& model);
  ModelSource(const ModelSource&) = delete;  // `views` points into the vectors here
  ModelSource& operator=(const ModelSource&) = delete;

  std::vector<std::int32_t> edge_i, edge_j;
  LatticeTables lattice;
  DeviceModel<Kokkos::HostSpace> views;
};

}  // namespace detail

/// Copies the model once into the memory space of `space`.
template <class ExecutionSpace>
DeviceModel<typename ExecutionSpace::memory_space> make_device_model(const ExecutionSpace& space,
                                                                     const SpinModel& model) {
  const detail::ModelSource source(model);
  DeviceModel<typename ExecutionSpace::memory_space> dm;
  copy_fields(space, dm, source.views);
  space.fence();  // the copies read `source`
  return dm;
}

}  // namespace hamon
