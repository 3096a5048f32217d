// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a model family is, checked at compile time (C++17: the detection idiom), so that a
// family missing an operation or spelling it with the wrong signature is one readable error
// where its run-time table is built (family_table.hpp), not a wall of template errors in the
// round loop. A family is a type F, all of it static:
//
//   using variable = K;                        its variable kind (model/variable_kind.hpp);
//                                              the state stores K::storage_type
//   static constexpr FamilyAbilities abilities what the sampler may combine it with
//   template <class M> using tables = T<M>;    optional: the tables it owns in a state
//                                              (family_state.hpp), allocated in `start`
//                                              and filled in `refresh`
//   static bool takes(model)                   whether it samples this model
//   static std::string name(model)             what users call such a model, for messages
//   static std::int32_t values_per_variable(model)  how many values a variable takes (the
//                                              replica overlaps' q; 0: a continuum)
//   static std::string value_problem(model, v) why a stored value cannot be one of its
//                                              variables (empty: it can): restored states
//   static double table_bytes(model, n_chains)   the bytes its tables take (view_bytes)
//   static std::int64_t node_columns(model)    moment columns per node
//   static double order_parameter(model, per_node_sum, rounds)
//   static void start(space, model, state, seed)         allocate its tables, draw values
//   static void refresh(space, model, state)             its tables from the ladder
//   static void sweep(space, model, state, seed, round, sweep_index, kernel)
//   static void add_energies(space, model, state, kernel)
//   static void observe(space, model, state, moments, batch)   the cold chain's moments
//   static void cluster_move(space, model, state, scratch, seed, round)  only with
//                                              abilities.cluster_moves: the round's moves
//                                              between replica pairs after the sweeps
//   static double node_moments(space, model, node_sums, energy, out)   its node columns'
//                                              means (and variances) into `out` and what
//                                              its energy sums lack into `energy`; returns
//                                              the unit of an edge sum
//
// `space` is an execution space, `model` the DeviceModel of its memory, `state` the
// FamilyState of K::storage_type (family_state.hpp: the chains and the tables of the
// storage's families); the operations on a space are usually templates on it (a
// family for one space, like the tests' toys, may spell them for that space alone). Asking
// a family is the only way the sampler's parts learn what differs between families: none of
// them tests which family it runs.
//
// No parameter of an operation may share the operation's name (the sweep counter is
// `sweep_index`, not `sweep`): nvcc names each extended lambda by the address of the function
// around it, and a parameter that hides that name makes the lambda fail to compile for Cuda.

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hamon/core/families/family_abilities.hpp"
#include "hamon/core/families/family_state.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/cluster_scratch.hpp"
#include "hamon/core/state/moment_buffers.hpp"
#include "hamon/core/stats/moments.hpp"
#include "hamon/core/util/host_kernel.hpp"

namespace hamon::detail {

template <class...>
using void_t = void;

template <class Always, template <class...> class Op, class... Args>
struct detector : std::false_type {};
template <template <class...> class Op, class... Args>
struct detector<void_t<Op<Args...>>, Op, Args...> : std::true_type {};
/// Whether Op<Args...> is a valid type (std::experimental::is_detected, which C++17 lacks).
template <template <class...> class Op, class... Args>
inline constexpr bool is_detected_v = detector<void, Op, Args...>::value;

template <class F>
using family_storage_t = typename F::variable::storage_type;
template <class Space>
using model_of_t = DeviceModel<typename Space::memory_space>;
template <class F, class Space>
using family_state_t = FamilyState<Space, family_storage_t<F>>;

// One alias per operation: each is a valid type exactly when F spells it as above.
template <class F>
using variable_op = typename F::variable::storage_type;
template <class F>
using abilities_op = decltype(FamilyAbilities{F::abilities});
template <class F, class Space>
using takes_op = decltype(bool{F::takes(std::declval<const model_of_t<Space>&>())});
template <class F, class Space>
using name_op = decltype(std::string{F::name(std::declval<const model_of_t<Space>&>())});
template <class F, class Space>
using values_op = decltype(std::int32_t{
    F::values_per_variable(std::declval<const model_of_t<Space>&>())});
template <class F, class Space>
using value_problem_op = decltype(std::string{
    F::value_problem(std::declval<const model_of_t<Space>&>(),
                     std::declval<family_storage_t<F>>())});
template <class F, class Space>
using table_bytes_op = decltype(double{
    F::table_bytes(std::declval<const model_of_t<Space>&>(), std::int64_t{})});
template <class F, class Space>
using node_columns_op = decltype(std::int64_t{
    F::node_columns(std::declval<const model_of_t<Space>&>())});
template <class F, class Space>
using order_parameter_op = decltype(double{
    F::order_parameter(std::declval<const model_of_t<Space>&>(), double{}, std::int64_t{})});
template <class F, class Space>
using start_op =
    decltype(F::start(std::declval<const Space&>(), std::declval<const model_of_t<Space>&>(),
                      std::declval<family_state_t<F, Space>&>(), std::uint64_t{}));
template <class F, class Space>
using refresh_op =
    decltype(F::refresh(std::declval<const Space&>(), std::declval<const model_of_t<Space>&>(),
                        std::declval<family_state_t<F, Space>&>()));
template <class F, class Space>
using sweep_op =
    decltype(F::sweep(std::declval<const Space&>(), std::declval<const model_of_t<Space>&>(),
                      std::declval<const family_state_t<F, Space>&>(), std::uint64_t{},
                      std::uint32_t{}, std::uint32_t{}, HostKernel{}));
template <class F, class Space>
using add_energies_op =
    decltype(F::add_energies(std::declval<const Space&>(), std::declval<const model_of_t<Space>&>(),
                             std::declval<const family_state_t<F, Space>&>(), HostKernel{}));
template <class F, class Space>
using observe_op =
    decltype(F::observe(std::declval<const Space&>(), std::declval<const model_of_t<Space>&>(),
                        std::declval<const family_state_t<F, Space>&>(),
                        std::declval<const MomentBuffers<Space>&>(), std::int64_t{}));
template <class F, class Space>
using node_moments_op = decltype(double{
    F::node_moments(std::declval<const Space&>(), std::declval<const model_of_t<Space>&>(),
                    std::declval<const ColumnBatchSums&>(), std::declval<std::vector<double>&>(),
                    std::declval<Moments&>())});
template <class F, class Space>
using cluster_move_op = decltype(F::cluster_move(
    std::declval<const Space&>(), std::declval<const model_of_t<Space>&>(),
    std::declval<const family_state_t<F, Space>&>(), std::declval<const ClusterScratch<Space>&>(),
    std::uint64_t{}, std::uint32_t{}));
template <class F, class Space>
using tables_op = typename F::template tables<typename Space::memory_space>;
template <class F, class Space>
using planned_tables_op = decltype(tables_op<F, Space>{
    F::template planned_tables<typename Space::memory_space>(
        std::declval<const model_of_t<Space>&>(), std::int64_t{})});
/// A family's tables in a state of its storage: they must be among those the storage's
/// state carries (family_state.hpp).
template <class F, class Space>
constexpr bool state_carries_tables() {
  if constexpr (is_detected_v<tables_op, F, Space>) {
    return std::is_base_of_v<tables_op<F, Space>, typename family_state_t<F, Space>::tables_type>;
  } else {
    return true;
  }
}

/// True for a complete family; otherwise the first missing piece is a static_assert naming it.
template <class F, class Space>
constexpr bool check_family() {
  static_assert(is_detected_v<variable_op, F>,
                "a model family names its variable kind: `using variable = SpinVariable;` "
                "(model/variable_kind.hpp)");
  if constexpr (is_detected_v<variable_op, F>) {
    static_assert(is_detected_v<abilities_op, F>,
                  "a model family states `static constexpr FamilyAbilities abilities{...};`");
    static_assert(is_detected_v<takes_op, F, Space>,
                  "a model family provides `static bool takes(const DeviceModel<M>&)`");
    static_assert(is_detected_v<name_op, F, Space>,
                  "a model family provides `static std::string name(const DeviceModel<M>&)`");
    static_assert(is_detected_v<values_op, F, Space>,
                  "a model family provides `static std::int32_t values_per_variable(const "
                  "DeviceModel<M>&)`");
    static_assert(is_detected_v<value_problem_op, F, Space>,
                  "a model family provides `static std::string value_problem(const "
                  "DeviceModel<M>&, storage_type)`");
    static_assert(is_detected_v<table_bytes_op, F, Space>,
                  "a model family provides `static double table_bytes(const "
                  "DeviceModel<M>&, std::int64_t n_chains)`");
    static_assert(is_detected_v<node_columns_op, F, Space>,
                  "a model family provides `static std::int64_t node_columns(const "
                  "DeviceModel<M>&)`");
    static_assert(is_detected_v<order_parameter_op, F, Space>,
                  "a model family provides `static double order_parameter(const "
                  "DeviceModel<M>&, double per_node_sum, std::int64_t rounds)`");
    static_assert(is_detected_v<start_op, F, Space>,
                  "a model family provides `template <class Space> static void start(const "
                  "Space&, const DeviceModel<M>&, FamilyState<Space, storage_type>&, "
                  "std::uint64_t seed)`");
    static_assert(is_detected_v<refresh_op, F, Space>,
                  "a model family provides `template <class Space> static void refresh(const "
                  "Space&, const DeviceModel<M>&, FamilyState<Space, storage_type>&)`");
    static_assert(
        is_detected_v<sweep_op, F, Space>,
        "a model family provides `template <class Space> static void sweep(const "
        "Space&, const DeviceModel<M>&, const FamilyState<Space, storage_type>&, "
        "std::uint64_t seed, std::uint32_t round, std::uint32_t sweep_index, HostKernel)`");
    static_assert(is_detected_v<add_energies_op, F, Space>,
                  "a model family provides `template <class Space> static void "
                  "add_energies(const Space&, const DeviceModel<M>&, const FamilyState<Space, "
                  "storage_type>&, HostKernel)`");
    static_assert(is_detected_v<observe_op, F, Space>,
                  "a model family provides `template <class Space> static void observe(const "
                  "Space&, const DeviceModel<M>&, const FamilyState<Space, storage_type>&, const "
                  "MomentBuffers<Space>&, std::int64_t batch)`");
    if constexpr (is_detected_v<abilities_op, F>) {
      static_assert(!F::abilities.cluster_moves || is_detected_v<cluster_move_op, F, Space>,
                    "a model family with cluster_moves provides `template <class Space> static "
                    "void cluster_move(const Space&, const DeviceModel<M>&, const "
                    "FamilyState<Space, storage_type>&, const ClusterScratch<Space>&, "
                    "std::uint64_t seed, std::uint32_t round)`");
    }
    static_assert(is_detected_v<node_moments_op, F, Space>,
                  "a model family provides `template <class Space> static double "
                  "node_moments(const Space&, const DeviceModel<M>&, const ColumnBatchSums& "
                  "node_sums, std::vector<double>& energy, Moments& out)`");
    static_assert(!is_detected_v<tables_op, F, Space> || is_detected_v<planned_tables_op, F, Space>,
                  "a model family with `tables` plans them: `template <class M> static tables<M> "
                  "planned_tables(const DeviceModel<M>&, std::int64_t n_chains)`");
    static_assert(state_carries_tables<F, Space>(),
                  "a model family's tables are carried by the state of its storage: list them "
                  "in StorageTables (families/family_state.hpp)");
  }
  return is_detected_v<variable_op, F> && is_detected_v<abilities_op, F> &&
         is_detected_v<takes_op, F, Space> && is_detected_v<name_op, F, Space> &&
         is_detected_v<values_op, F, Space> && is_detected_v<value_problem_op, F, Space> &&
         is_detected_v<table_bytes_op, F, Space> && is_detected_v<node_columns_op, F, Space> &&
         is_detected_v<order_parameter_op, F, Space> && is_detected_v<start_op, F, Space> &&
         is_detected_v<refresh_op, F, Space> && is_detected_v<sweep_op, F, Space> &&
         is_detected_v<add_energies_op, F, Space> && is_detected_v<observe_op, F, Space> &&
         is_detected_v<node_moments_op, F, Space>;
}

}  // namespace hamon::detail
