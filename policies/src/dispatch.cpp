// SPDX-License-Identifier: Apache-2.0
// The runtime dispatcher (see hamon/policies/dispatch.hpp): a decision -> a concrete
// Kokkos execution space -> the round loop explicitly instantiated for that space in
// nrpt_<space>.cpp. Nothing is instantiated here: nrpt.hpp only declares the templates,
// so every call below links against the per-space instantiations.
#include "hamon/policies/dispatch.hpp"

#include <algorithm>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "hamon/core/families/family_facts.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "hamon/policies/thresholds.hpp"

namespace hamon {

namespace {

// Calls run(space) with the execution space the decision names and returns its result.
template <class Run>
auto with_space(const DeviceDecision& decision, Run&& run)
    -> decltype(run(Kokkos::DefaultExecutionSpace())) {
  using Result = decltype(run(Kokkos::DefaultExecutionSpace()));
  if (decision.spec.is_instance()) {
    return std::visit(
        [&](const auto& space) -> Result {
          using Space = std::decay_t<decltype(space)>;
          if constexpr (std::is_same_v<Space, std::monostate>) {
            throw std::logic_error("DeviceSpec of kind instance holds no instance");
          } else {
            return run(space);
          }
        },
        decision.spec.instance());
  }
  if (decision.placement == Placement::leave_alone) {
    // An alias of an instantiated space (checked in dispatch.hpp): the same instantiation
    // as that space, not a separate one.
    return run(Kokkos::DefaultExecutionSpace());
  }
  if (auto result = visit_compiled_in(decision.placement, run)) {
    return std::move(*result);
  }
  const Backend* backend = find_backend(decision.placement);
  if (backend == nullptr) {
    throw std::logic_error("unknown placement in a device decision");
  }
  throw DeviceUnavailable("the decision places the call on " + std::string(backend->name) +
                          " but the Kokkos " + backend->kokkos_name + " backend (" +
                          backend->kokkos_option + ") is not compiled into this build");
}

template <class Space>
std::string space_name(const Space& /*unused*/) {
  return Space::name();
}

}  // namespace

namespace detail {

void require_kokkos_initialized(const char* entry_point) {
  if (!Kokkos::is_initialized()) {
    throw std::logic_error(std::string("hamon::") + entry_point +
                           ": Kokkos is not initialised (or already finalised); call "
                           "Kokkos::initialize or hold a Kokkos::ScopeGuard first — hamon "
                           "never initialises Kokkos itself");
  }
}

DeviceDecision decide_in_place(const InPlaceCandidates& candidates, std::int64_t score,
                               std::optional<double> host_threshold_arg) {
  DeviceDecision decision;
  decision.spec = DeviceSpec::auto_();
  decision.reason = DecisionReason::data_resident;
  decision.score = score;
  const Backend* natural = find_backend(candidates.natural);
  if (natural != nullptr && natural->tier == Tier::host && candidates.can_run(natural->placement)) {
    // Host memory: every host backend that can access it runs where the data is, so the
    // host tier picks (the lightest below the host threshold, the heaviest at or above).
    std::vector<Placement> hosts;
    for (const Placement placement : compiled_in_backends(Tier::host)) {
      if (candidates.can_run(placement)) hosts.push_back(placement);
    }
    HostTierDecision tier;
    if (hosts.size() > 1) {
      tier.threshold = host_threshold(host_threshold_arg);
      const bool small = static_cast<double>(score) < tier.threshold->value;
      tier.rule = small ? HostRule::score_below_threshold : HostRule::score_at_or_above_threshold;
      decision.placement = small ? hosts.front() : hosts.back();
    } else {
      tier.rule = HostRule::only_backend;
      decision.placement = candidates.natural;
    }
    decision.host_tier = tier;
  } else if (natural != nullptr && candidates.can_run(natural->placement)) {
    decision.placement = natural->placement;
  } else {
    // Not the memory's own space: the last of the list that can access it (an
    // accelerator before the host backends, the heaviest host backend first).
    const auto found =
        std::find_if(std::rbegin(kKnownBackends), std::rend(kKnownBackends),
                     [&](const Backend& backend) { return candidates.can_run(backend.placement); });
    if (found == std::rend(kKnownBackends)) {
      throw std::logic_error("hamon::nrpt_in_place: no execution space can access the data");
    }
    decision.placement = found->placement;
  }
  return decision;
}

}  // namespace detail

std::int64_t work_score_of(const SpinModel& model, const NrptOptions& options) {
  validate_options(options, model.n_nodes(), family_facts(model).value_bytes);
  const auto n_machines = static_cast<std::int64_t>(ladder_of(options).size()) * options.n_replicas;
  return work_score(n_machines, model.n_free());
}

DeviceDecision resolve_for(const SpinModel& model, const NrptOptions& options,
                           const DeviceSpec& device, std::optional<double> threshold) {
  return resolve_device(device, work_score_of(model, options), threshold);
}

namespace {

// An allocation that fails in the execution space (Kokkos throws a std::bad_alloc, e.g.
// device out-of-memory) becomes an error that says where and what to do, not a crash.
template <class Run>
NrptResult out_of_memory_is_an_error(const DeviceDecision& decision, Run&& run) {
  try {
    return run();
  } catch (const std::bad_alloc& error) {
    throw std::runtime_error("the run does not fit in the memory of " +
                             execution_space_of(decision) + " (" + error.what() +
                             "): use fewer chains, a smaller model or record less");
  }
}

}  // namespace

NrptResult nrpt_with(const DeviceDecision& decision, const SpinModel& model,
                     const NrptOptions& options) {
  detail::require_kokkos_initialized("nrpt");
  return out_of_memory_is_an_error(decision, [&] {
    return with_space(decision,
                      [&](const auto& space) { return hamon::nrpt(space, model, options); });
  });
}

NrptResult sample_with(const DeviceDecision& decision, const SpinModel& model, double beta,
                       NrptOptions options) {
  detail::require_kokkos_initialized("sample");
  return out_of_memory_is_an_error(decision, [&] {
    return with_space(decision, [&](const auto& space) {
      return hamon::sample(space, model, beta, std::move(options));
    });
  });
}

namespace {

template <class Value>
std::unique_ptr<SamplerBaseOf<Value>> sampler_of(const DeviceDecision& decision,
                                                 const SpinModel& model, const NrptOptions& options,
                                                 TraceSink* sink,
                                                 const SamplerStateOf<Value>* resume_from,
                                                 MachineExchange* exchange) {
  detail::require_kokkos_initialized("make_sampler");
  return with_space(decision, [&](const auto& space) -> std::unique_ptr<SamplerBaseOf<Value>> {
    using Space = std::decay_t<decltype(space)>;
    if (resume_from != nullptr) {
      return std::make_unique<Sampler<Space, Value>>(space, model, options, *resume_from, sink,
                                                     exchange);
    }
    return std::make_unique<Sampler<Space, Value>>(space, model, options, sink, exchange);
  });
}

}  // namespace

std::unique_ptr<SamplerBase> make_sampler(const DeviceDecision& decision, const SpinModel& model,
                                          const NrptOptions& options, TraceSink* sink,
                                          const SamplerState* resume_from,
                                          MachineExchange* exchange) {
  return sampler_of(decision, model, options, sink, resume_from, exchange);
}

std::unique_ptr<SamplerBaseOf<double>> make_real_sampler(
    const DeviceDecision& decision, const SpinModel& model, const NrptOptions& options,
    TraceSink* sink, const SamplerStateOf<double>* resume_from, MachineExchange* exchange) {
  return sampler_of(decision, model, options, sink, resume_from, exchange);
}

std::unique_ptr<RbmTrainerBase> make_rbm_trainer(const DeviceDecision& decision,
                                                 const TrainingData& train,
                                                 const RbmParameters& initial,
                                                 const TrainingOptions& options,
                                                 const RbmTrainingState* resume_from) {
  detail::require_kokkos_initialized("make_rbm_trainer");
  return with_space(decision, [&](const auto& space) -> std::unique_ptr<RbmTrainerBase> {
    using Space = std::decay_t<decltype(space)>;
    if (resume_from != nullptr) {
      return std::make_unique<RbmTrainer<Space>>(space, train, options, *resume_from);
    }
    return std::make_unique<RbmTrainer<Space>>(space, train, initial, options);
  });
}

std::int64_t training_work_score(const RbmParameters& parameters, const TrainingOptions& options) {
  validate_options(options);
  const auto machines =
      static_cast<std::int64_t>(ladder_of(options).size()) * options.negative_chains +
      options.batch;
  return machines * (parameters.n_visible + parameters.n_hidden);
}

std::string execution_space_of(const DeviceDecision& decision) {
  return with_space(decision, [](const auto& space) { return space_name(space); });
}

RoutedResult routed_nrpt(const SpinModel& model, const NrptOptions& options,
                         const DeviceSpec& device) {
  detail::require_kokkos_initialized("nrpt");
  RoutedResult out;
  out.decision = resolve_for(model, options, device);
  out.execution_space = execution_space_of(out.decision);
  out.result = nrpt_with(out.decision, model, options);
  return out;
}

RoutedResult sample(const SpinModel& model, double beta, NrptOptions options,
                    const DeviceSpec& device) {
  detail::require_kokkos_initialized("sample");
  // The options core's sample() runs with, so the score counts its single chain.
  options.betas = {beta};
  options.adapt_schedule = false;
  RoutedResult out;
  out.decision = resolve_for(model, options, device);
  out.execution_space = execution_space_of(out.decision);
  out.result = sample_with(out.decision, model, beta, std::move(options));
  return out;
}

}  // namespace hamon
