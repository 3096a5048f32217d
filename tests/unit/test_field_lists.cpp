// SPDX-License-Identifier: Apache-2.0
// The field lists (hamon/core/util/field_list.hpp) of the structs that hold a run: a member
// left out of its struct's list is refused at compile time (field_list_is_complete, the
// static_assert beside each struct), and the walks over a struct's Views
// (hamon/core/util/view_fields.hpp) cover every member of the list: make_device_model's copy,
// view_aliases, and the plans that the sampler's parts allocate and its memory check counts.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "allocation_log.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/detail/best_states.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/detail/overlap_accumulator.hpp"
#include "hamon/core/sampler/detail/space_memory.hpp"
#include "hamon/core/sampler/detail/trace_buffer.hpp"
#include "hamon/core/state/moment_buffers.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/util/field_list.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace {

using hamon::field;
using hamon::field_list_is_complete;
using Space = Kokkos::DefaultHostExecutionSpace;
using Memory = Space::memory_space;

// --- The completeness check, on small structs ------------------------------------------

struct Listed {
  std::int64_t rounds = 0;
  std::vector<double> betas;
  Kokkos::View<double*, Kokkos::HostSpace> energies;

  template <class Self>
  static auto fields(Self& s) {
    return std::make_tuple(field("rounds", s.rounds), field("betas", s.betas),
                           field("energies", s.energies));
  }
};

// The same members, one (a View) left out of the list.
struct OneLeftOut {
  std::int64_t rounds = 0;
  std::vector<double> betas;
  Kokkos::View<double*, Kokkos::HostSpace> energies;

  template <class Self>
  static auto fields(Self& s) {
    return std::make_tuple(field("rounds", s.rounds), field("betas", s.betas));
  }
};

static_assert(field_list_is_complete<Listed>());
static_assert(!field_list_is_complete<OneLeftOut>(),
              "a struct whose list leaves out a member is refused");

// A struct that splices its base's list into its own (as MomentBatchesState its sums').
struct Spliced : Listed {
  using spliced_bases = std::tuple<Listed>;
  std::int32_t n_nodes = 0;

  template <class Self>
  static auto fields(Self& s) {
    return std::tuple_cat(Listed::fields(s), std::make_tuple(field("n_nodes", s.n_nodes)));
  }
};
struct SplicedLeftOut : Listed {
  using spliced_bases = std::tuple<Listed>;
  std::int32_t n_nodes = 0;
  std::int32_t n_machines = 0;

  template <class Self>
  static auto fields(Self& s) {
    return std::tuple_cat(Listed::fields(s), std::make_tuple(field("n_nodes", s.n_nodes)));
  }
};
static_assert(field_list_is_complete<Spliced>());
static_assert(!field_list_is_complete<SplicedLeftOut>());

// Every struct of the library with a list (each also asserted beside its declaration).
static_assert(field_list_is_complete<hamon::DeviceModel<Memory>>());
static_assert(field_list_is_complete<hamon::LatticeGeometry<Memory>>());
static_assert(field_list_is_complete<hamon::MachineRecords<hamon::HostList>>());
static_assert(field_list_is_complete<hamon::BestRecords<hamon::HostList>>());
static_assert(field_list_is_complete<hamon::SamplerState>());
static_assert(field_list_is_complete<hamon::MomentBatchesState>());
static_assert(field_list_is_complete<hamon::OverlapBatchesState>());
static_assert(field_list_is_complete<hamon::detail::MomentBuffers<Space>>());
static_assert(field_list_is_complete<hamon::detail::OverlapBuffers<Space>>());
static_assert(field_list_is_complete<hamon::detail::TraceChunks<Space>>());
static_assert(field_list_is_complete<hamon::detail::BestStatesIn<Space>>());

// --- Walks ------------------------------------------------------------------------------

template <class T>
using bare_t = std::remove_const_t<std::remove_reference_t<T>>;

/// visit(name, a, b) for the leaf fields of two structs of one list, walking into nested
/// lists ("lattice.field").
template <class A, class B, class Visit>
void for_each_leaf_pair(const A& a, const B& b, const Visit& visit, const std::string& at = "") {
  hamon::for_each_field_pair(hamon::fields_of(a), hamon::fields_of(b),
                             [&](const auto& x, const auto& y) {
                               using T = bare_t<decltype(x.value)>;
                               const std::string name = at + x.name;
                               if constexpr (hamon::has_field_list_v<T>) {
                                 for_each_leaf_pair(x.value, y.value, visit, name + ".");
                               } else {
                                 visit(name, x.value, y.value);
                               }
                             });
}

/// The labels of `s`'s Views with memory, by field ("lattice.field" -> its label).
template <class S>
void view_labels(const S& s, std::map<std::string, std::string>& out, const std::string& at = "") {
  hamon::for_each_field(s, [&](const auto& f) {
    using T = bare_t<decltype(f.value)>;
    if constexpr (Kokkos::is_view<T>::value) {
      if (f.value.data() != nullptr) out[at + f.name] = f.value.label();
    } else if constexpr (hamon::has_field_list_v<T>) {
      view_labels(f.value, out, at + f.name + ".");
    }
  });
}

std::vector<hamon::SpinModel> models() {
  using hamon::ValueDistribution;
  return {hamon::make_lattice({4, 6}, true),  // the lattice fast path
          hamon::make_lattice({3, 5}, false, ValueDistribution::gaussian(3),
                              ValueDistribution::gaussian(4, 0.2)),
          hamon::make_potts_lattice({4, 4}, true, 3),
          hamon::make_continuous_lattice(hamon::ContinuousKind::gaussian, {4, 4}, true,
                                         ValueDistribution::constant(0.1),
                                         std::vector<double>(16, 1.0)),
          hamon::SpinModel::from_edges(3, {})};  // no edges: empty Views it still has
}

TEST(FieldLists, make_device_model_copies_every_view_labelled_by_its_field) {
  for (const hamon::SpinModel& model : models()) {
    SCOPED_TRACE(std::to_string(model.n_nodes()) + " nodes");
    const hamon::detail::ModelSource source(model);
    hamon_test::AllocationLog log;
    const auto copy = hamon::make_device_model(Space(), model);
    // The copy has the Views the model has (and only those), the same values, and the rest.
    int leaves = 0;
    for_each_leaf_pair(copy, source.views,
                       [&](const std::string& name, const auto& c, const auto& s) {
                         ++leaves;
                         using T = bare_t<decltype(c)>;
                         if constexpr (Kokkos::is_view<T>::value) {
                           EXPECT_EQ(c.data() == nullptr, s.data() == nullptr) << name;
                           EXPECT_EQ(c.span(), s.span()) << name;
                           for (std::size_t k = 0; k < s.span(); ++k) {
                             EXPECT_EQ(c.data()[k], s.data()[k]) << name << " at " << k;
                           }
                         } else if constexpr (std::is_same_v<T, Kokkos::Array<std::int64_t, 3>>) {
                           for (int d = 0; d < 3; ++d) EXPECT_EQ(c[d], s[d]) << name;
                         } else {
                           EXPECT_EQ(c, s) << name;
                         }
                       });
    EXPECT_EQ(leaves, 22 + 7);  // the members besides the lattice, and the lattice's
    // Each allocated once, under "hamon::" + its name (the lattice's field: its label).
    std::map<std::string, std::string> labels;
    view_labels(copy, labels);
    for (const auto& [name, label] : labels) {
      EXPECT_EQ(log.sizes_of(label).size(), 1u) << name << " as " << label;
      const std::string expected = name == "lattice.field" ? std::string("hamon::lattice_field")
                                   : name == "lattice.coupling_up"
                                       ? std::string("hamon::coupling_up")
                                       : "hamon::" + name;
      EXPECT_EQ(label, expected);
    }
    EXPECT_EQ(log.allocations(), static_cast<std::int64_t>(labels.size())) << log.listing();
  }
}

TEST(FieldLists, view_aliases_carry_every_field_over_the_same_memory) {
  for (const hamon::SpinModel& model : models()) {
    SCOPED_TRACE(std::to_string(model.n_nodes()) + " nodes");
    const auto owner = hamon::make_device_model(Space(), model);
    const long uses = owner.row_offsets.use_count();
    const auto alias = hamon::view_aliases<Kokkos::HostSpace>(owner);
    int leaves = 0;
    for_each_leaf_pair(alias, owner, [&](const std::string& name, const auto& a, const auto& o) {
      ++leaves;
      using T = bare_t<decltype(a)>;
      if constexpr (Kokkos::is_view<T>::value) {
        EXPECT_EQ(a.data(), o.data()) << name;
        EXPECT_EQ(a.span(), o.span()) << name;
        for (std::size_t r = 0; r < T::rank; ++r) EXPECT_EQ(a.extent(r), o.extent(r)) << name;
      } else if constexpr (std::is_same_v<T, Kokkos::Array<std::int64_t, 3>>) {
        for (int d = 0; d < 3; ++d) EXPECT_EQ(a[d], o[d]) << name;
      } else {
        EXPECT_EQ(a, o) << name;
      }
    });
    EXPECT_EQ(leaves, 22 + 7);
    EXPECT_EQ(owner.row_offsets.use_count(), uses);  // the aliases own nothing
    // The memory check counts the owner's Views, not the aliases' memory twice.
    EXPECT_GT(hamon::view_fields_bytes(owner), 0.0);
  }
}

/// Allocating a plan allocates exactly what the plan counts: every View (planned), with its
/// extents, under its label, and nothing else.
template <class S>
void expect_plan_allocated(S plan, const std::string& prefix, const char* what) {
  SCOPED_TRACE(what);
  const double counted = hamon::view_fields_bytes(plan);
  S allocated = plan;
  {
    hamon_test::AllocationLog log;
    hamon::allocate_planned(Space(), allocated, prefix);
    std::map<std::string, std::string> labels;
    view_labels(allocated, labels);
    EXPECT_EQ(log.allocations(), static_cast<std::int64_t>(labels.size())) << log.listing();
    for (const auto& [name, label] : labels) {
      EXPECT_EQ(log.sizes_of(label).size(), 1u) << name << " as " << label << "\n" << log.listing();
    }
  }
  EXPECT_EQ(hamon::view_fields_bytes(allocated), counted);
  for_each_leaf_pair(allocated, plan, [&](const std::string& name, const auto& a, const auto& p) {
    using T = bare_t<decltype(a)>;
    if constexpr (Kokkos::is_view<T>::value) {
      // With every observer on, each View of these parts is planned: a new one without
      // its line in the plan is not.
      ASSERT_NE(p.data(), nullptr) << name << " was not planned";
      EXPECT_NE(a.data(), p.data()) << name << " was not allocated";
      for (std::size_t r = 0; r < T::rank; ++r) EXPECT_EQ(a.extent(r), p.extent(r)) << name;
    }
  });
}

TEST(FieldLists, the_parts_allocate_what_their_plans_count) {
  const auto model = hamon::make_device_model(Space(), hamon::make_potts_lattice({4, 6}, true, 3));
  hamon::ObserverOptions observers;
  observers.moments = true;
  observers.edge_moments = true;
  observers.moment_batches = 4;
  observers.samples_every = 2;
  observers.energies = true;
  observers.index_process = true;
  expect_plan_allocated(hamon::detail::planned_moment_buffers<Space>(model, observers, 3),
                        "hamon::", "moments");
  expect_plan_allocated(hamon::detail::planned_overlap_buffers<Space>(model, observers, 5, 2, true),
                        "hamon::overlap_", "overlaps");
  expect_plan_allocated(
      hamon::detail::planned_trace_chunks<Space, std::int8_t>(model, observers, 5, 30),
      "hamon::", "traces");
  expect_plan_allocated(hamon::detail::BestStatesIn<Space>::planned(10, 10, model.n_nodes),
                        "hamon::best_", "best states");
  expect_plan_allocated(hamon::detail::planned_machine_records<Memory>(5, 2),
                        "hamon::", "machine records");
  // Off: nothing planned, nothing counted.
  observers = hamon::ObserverOptions();
  EXPECT_EQ(
      hamon::view_fields_bytes(hamon::detail::planned_moment_buffers<Space>(model, observers, 3)),
      0.0);
  EXPECT_EQ(hamon::view_fields_bytes(
                hamon::detail::planned_trace_chunks<Space, std::int8_t>(model, observers, 5, 30)),
            0.0);
}

// The saved sums and the buffers' sums are one list over two storages: the snapshot walks
// them in step, names and all.
TEST(FieldLists, saved_and_buffered_sums_are_one_list) {
  hamon::detail::MomentBuffers<Space> buffers;
  hamon::MomentBatchesState saved;
  std::vector<std::string> names;
  hamon::for_each_field_pair(hamon::fields_of<hamon::detail::MomentBuffers<Space>::Sums>(buffers),
                             hamon::fields_of<hamon::MomentBatchesState::Sums>(saved),
                             [&](const auto& b, const auto& s) {
                               EXPECT_STREQ(b.name, s.name);
                               EXPECT_EQ(b.shared_over_ranks, s.shared_over_ranks);
                               EXPECT_EQ(b.codec, s.codec);
                               names.emplace_back(s.name);
                             });
  EXPECT_EQ(names, (std::vector<std::string>{"node_sums", "edge_sums", "energy_sums",
                                             "abs_magnetization_sums", "counts"}));
}

}  // namespace
