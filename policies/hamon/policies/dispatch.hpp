// SPDX-License-Identifier: Apache-2.0
#pragma once
// The runtime dispatcher: the public, space-agnostic entry points. Each call computes its
// work score (n_chains x free nodes), resolves the device once, copies the model to the
// chosen space once, runs the whole round loop there, and returns host results together
// with the decision record.
//
// Placement -> execution space:
//   leave_alone        Kokkos::DefaultExecutionSpace (always one of the spaces below)
//   a backend          its Kokkos execution space (default instance), e.g. serial ->
//                      Kokkos::Serial, for every backend of cmake/HamonBackends.cmake's list
//   a concrete instance in the decision's spec: that instance, as it is.
// The round loop is explicitly instantiated once per compiled-in backend (policies/src/
// nrpt_backend.cpp.in); DefaultExecutionSpace is an alias of one of them, never a separate
// instantiation. The dispatcher owns no execution-space instance (the default instances
// belong to Kokkos), and it never initialises Kokkos: calling an entry point before
// Kokkos::initialize (or after Kokkos::finalize) throws std::logic_error.
//
// Data that already lives in a memory space (a caller embedding hamon in a Kokkos code
// passes its DeviceModel) is not routed: nrpt_in_place runs in an execution space that can
// access that memory and copies nothing.

#include <Kokkos_Core.hpp>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/train/rbm_trainer.hpp"
#include "hamon/policies/backends.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/placement.hpp"

namespace hamon {

/// A result and where (and why there) it was computed.
struct RoutedResult {
  NrptResult result;
  DeviceDecision decision;
  /// The Kokkos execution space that ran the call ("Serial", "OpenMP", "Cuda"): for
  /// leave_alone, what Kokkos::DefaultExecutionSpace is in this build.
  std::string execution_space;
};

/// The work score of an NRPT call: chains of the ladder (explicit betas or n_chains) x
/// free nodes of the model (clamped nodes excluded). Validates the options first
/// (std::invalid_argument naming the offending option).
std::int64_t work_score_of(const SpinModel& model, const NrptOptions& options);

/// Resolves `device` for this call (score from the model and options; `threshold`
/// overrides the configured device threshold).
DeviceDecision resolve_for(const SpinModel& model, const NrptOptions& options,
                           const DeviceSpec& device = DeviceSpec::auto_(),
                           std::optional<double> threshold = std::nullopt);

/// NRPT routed by `device` (default auto).
RoutedResult routed_nrpt(const SpinModel& model, const NrptOptions& options,
                         const DeviceSpec& device = DeviceSpec::auto_());

/// Block-Gibbs sampling at one beta, routed by `device` (score = 1 chain x free nodes).
RoutedResult sample(const SpinModel& model, double beta, NrptOptions options,
                    const DeviceSpec& device = DeviceSpec::auto_());

/// Runs where an earlier decision says (orchestrators resolve once and pass it down, so
/// the space never flips between phases). A concrete instance in decision.spec is used.
/// Throws DeviceUnavailable when the decision names a space this build lacks.
NrptResult nrpt_with(const DeviceDecision& decision, const SpinModel& model,
                     const NrptOptions& options);

/// The same for block-Gibbs sampling at one beta.
NrptResult sample_with(const DeviceDecision& decision, const SpinModel& model, double beta,
                       NrptOptions options);

/// A resumable sampler (hamon/core/sampler/sampler.hpp) in the space the decision names: a new run,
/// or (with `resume_from`) the continuation of a saved state, which any space may continue
/// with the same bits. `sink` (optional) receives the traces and must outlive the sampler.
/// Throws DeviceUnavailable as nrpt_with does, std::invalid_argument for bad options or a
/// state that does not fit. With `exchange`, this rank's part of a run over several ranks
/// (hamon/core/sampler/sampler.hpp): each rank resolves its own decision from its local work.
std::unique_ptr<SamplerBase> make_sampler(const DeviceDecision& decision, const SpinModel& model,
                                          const NrptOptions& options, TraceSink* sink = nullptr,
                                          const SamplerState* resume_from = nullptr,
                                          MachineExchange* exchange = nullptr);
/// The same for a continuous model (Sampler<Space, double>); `resume_from` may be null.
std::unique_ptr<SamplerBaseOf<double>> make_real_sampler(const DeviceDecision& decision,
                                                         const SpinModel& model,
                                                         const NrptOptions& options,
                                                         TraceSink* sink,
                                                         const SamplerStateOf<double>* resume_from,
                                                         MachineExchange* exchange = nullptr);
/// make_sampler or make_real_sampler by the storage of the model's variables (`Value{}`), for
/// code that is generic in it.
inline std::unique_ptr<SamplerBaseOf<std::int8_t>> make_sampler_storing(
    std::int8_t, const DeviceDecision& decision, const SpinModel& model, const NrptOptions& options,
    TraceSink* sink, const SamplerStateOf<std::int8_t>* resume_from, MachineExchange* exchange) {
  return make_sampler(decision, model, options, sink, resume_from, exchange);
}
inline std::unique_ptr<SamplerBaseOf<double>> make_sampler_storing(
    double, const DeviceDecision& decision, const SpinModel& model, const NrptOptions& options,
    TraceSink* sink, const SamplerStateOf<double>* resume_from, MachineExchange* exchange) {
  return make_real_sampler(decision, model, options, sink, resume_from, exchange);
}
template <class Value>
std::unique_ptr<SamplerBaseOf<Value>> make_sampler_of(
    const DeviceDecision& decision, const SpinModel& model, const NrptOptions& options,
    TraceSink* sink = nullptr, const SamplerStateOf<Value>* resume_from = nullptr,
    MachineExchange* exchange = nullptr) {
  return make_sampler_storing(Value{}, decision, model, options, sink, resume_from, exchange);
}

/// An RBM trainer (hamon/core/train/rbm_trainer.hpp) in the space the decision names: a new
/// run from `initial`, or (with `resume_from`) the continuation of a saved state, which any
/// space continues with the same bits. Throws as make_sampler does.
std::unique_ptr<RbmTrainerBase> make_rbm_trainer(const DeviceDecision& decision,
                                                 const TrainingData& train,
                                                 const RbmParameters& initial,
                                                 const TrainingOptions& options,
                                                 const RbmTrainingState* resume_from = nullptr);

/// The work score of training: machines of the negative phase (chains x rungs) plus the
/// minibatch, times the units (V + H).
std::int64_t training_work_score(const RbmParameters& parameters, const TrainingOptions& options);

/// The name of the execution space a decision runs in ("Serial", "OpenMP", "Cuda").
/// Throws DeviceUnavailable as nrpt_with does.
std::string execution_space_of(const DeviceDecision& decision);

/// NRPT on a model whose Views already live in `MemSpace` (see the top of this file).
/// Runs in an enabled execution space that can access MemSpace (checked at compile time):
/// the memory space's own execution space (Kokkos::CudaSpace -> Cuda), and for host
/// memory the host tier (Serial below the host threshold, OpenMP at or above it, when
/// both are compiled in). HAMON_DEVICE and the device threshold are not consulted: there
/// is nothing to route. Nothing is copied; the decision's reason is data_resident.
/// Only the primary Views (CRS, fields, clamps, blocks) are trusted: the derived fast-path
/// data (DeviceModel::lattice, integer_field_bound) may be stale when the caller changed
/// its Views, so the run takes the general path, which gives the same bits.
template <class MemSpace>
RoutedResult nrpt_in_place(const DeviceModel<MemSpace>& model, const NrptOptions& options,
                           std::optional<double> host_threshold = std::nullopt);

// ---------------------------------------------------------------------------------------
// Implementation details of the templates above.

namespace detail {

static_assert(is_instantiated_space<Kokkos::DefaultExecutionSpace>,
              "hamon dispatches only to the backends of cmake/HamonBackends.cmake's list: "
              "this Kokkos's DefaultExecutionSpace is none of them");

template <class Space, class MemSpace>
inline constexpr bool can_access = Kokkos::SpaceAccessibility<Space, MemSpace>::accessible;

constexpr std::size_t backend_index(Placement placement) {
  return static_cast<std::size_t>(placement) - 1;  // leave_alone is 0, then the list
}

/// Which instantiated spaces can access a memory space, and its own execution space.
struct InPlaceCandidates {
  std::array<bool, std::size(kKnownBackends)> accessible{};  // indexed like kKnownBackends
  Placement natural = Placement::leave_alone;  // leave_alone: not an instantiated space

  constexpr bool can_run(Placement placement) const {
    return placement != Placement::leave_alone && accessible[backend_index(placement)];
  }
  constexpr bool any() const {
    for (bool a : accessible) {
      if (a) return true;
    }
    return false;
  }
};

template <class MemSpace, class... Spaces>
constexpr InPlaceCandidates in_place_candidates(SpaceList<Spaces...> /*unused*/) {
  InPlaceCandidates c;
  ((c.accessible[backend_index(placement_of_space<Spaces>())] = can_access<Spaces, MemSpace>), ...);
  c.natural = placement_of_space<typename MemSpace::execution_space>();
  return c;
}

/// The decision for data resident in a memory space with these candidates (defined in
/// dispatch.cpp): reason data_resident, placement one of the candidates.
DeviceDecision decide_in_place(const InPlaceCandidates& candidates, std::int64_t score,
                               std::optional<double> host_threshold);

/// Throws std::logic_error unless Kokkos is initialised (and not finalised).
void require_kokkos_initialized(const char* entry_point);

/// The same model seen through Views of `Target` (view_aliases: unmanaged, same pointers)
/// for memory that `Target`'s execution space can access without being its own memory
/// space (e.g. CudaUVMSpace or CudaHostPinnedSpace data run by Cuda or a host space).
template <class Target, class MemSpace>
DeviceModel<Target> alias_model(const DeviceModel<MemSpace>& m) {
  DeviceModel<Target> alias = view_aliases<Target>(m);
  alias.lattice.enabled = false;  // stays disabled: the general path gives the same bits
  return alias;
}

template <class Space, class MemSpace>
RoutedResult run_in_place(const DeviceModel<MemSpace>& model, const NrptOptions& options,
                          DeviceDecision decision) {
  static_assert(can_access<Space, MemSpace>);
  RoutedResult out;
  const Space space;
  if constexpr (std::is_same_v<typename Space::memory_space, MemSpace>) {
    out.result = hamon::nrpt(space, model, options);
  } else {
    out.result = hamon::nrpt(space, alias_model<typename Space::memory_space>(model), options);
  }
  out.decision = std::move(decision);
  out.execution_space = Space::name();
  return out;
}

/// Runs in the instantiated space the decision names, among those that can access MemSpace.
template <class MemSpace, class Space, class... Rest>
RoutedResult run_in_place_on(const DeviceModel<MemSpace>& model, const NrptOptions& options,
                             DeviceDecision decision, SpaceList<Space, Rest...> /*unused*/) {
  if constexpr (can_access<Space, MemSpace>) {
    if (placement_of_space<Space>() == decision.placement) {
      return run_in_place<Space>(model, options, std::move(decision));
    }
  }
  if constexpr (sizeof...(Rest) > 0) {
    return run_in_place_on(model, options, std::move(decision), SpaceList<Rest...>());
  } else {
    throw std::logic_error("hamon::nrpt_in_place: decided " + to_string(decision.placement) +
                           ", which cannot access the model's memory space");
  }
}

}  // namespace detail

template <class MemSpace>
RoutedResult nrpt_in_place(const DeviceModel<MemSpace>& caller_model, const NrptOptions& options,
                           std::optional<double> host_threshold) {
  DeviceModel<MemSpace> model = caller_model;  // the same Views (no allocation)
  model.lattice.enabled = false;
  model.integer_field_bound = -1;
  constexpr detail::InPlaceCandidates candidates =
      detail::in_place_candidates<MemSpace>(InstantiatedSpaces());
  static_assert(candidates.any(),
                "hamon::nrpt_in_place: no instantiated execution space (see "
                "hamon/core/util/instantiated_spaces.hpp) can access this memory space");
  detail::require_kokkos_initialized("nrpt_in_place");
  // At a spin's byte per variable: the sampler checks again at its variables' size
  // (SamplerCore) before it allocates anything.
  validate_options(options, model.n_nodes);
  const auto n_chains = static_cast<std::int64_t>(ladder_of(options).size());
  DeviceDecision decision =
      detail::decide_in_place(candidates, work_score(n_chains, model.n_free), host_threshold);
  return detail::run_in_place_on(model, options, std::move(decision), InstantiatedSpaces());
}

}  // namespace hamon
