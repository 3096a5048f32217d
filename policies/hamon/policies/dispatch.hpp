#pragma once
// The runtime dispatcher: the public, space-agnostic entry points. Each call computes its
// work score (n_chains x free nodes), resolves the device once, copies the model to the
// chosen space once, runs the whole round loop there, and returns host results together
// with the decision record.

#include <cstdint>

#include "hamon/core/nrpt.hpp"
#include "hamon/core/spin_model.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/placement.hpp"

namespace hamon {

/// A result and where (and why there) it was computed.
struct RoutedResult {
  NrptResult result;
  DeviceDecision decision;
};

/// The work score of an NRPT call: chains of the ladder x free nodes of the model.
std::int64_t work_score_of(const SpinModel& model, const NrptOptions& options);

/// Resolves `device` for this call (score from the model and options; `threshold`
/// overrides the configured device threshold).
DeviceDecision resolve_for(const SpinModel& model, const NrptOptions& options,
                           const DeviceSpec& device = DeviceSpec::auto_(),
                           std::optional<double> threshold = std::nullopt);

/// NRPT routed by `device` (default auto).
RoutedResult nrpt(const SpinModel& model, const NrptOptions& options,
                  const DeviceSpec& device = DeviceSpec::auto_());

/// Block-Gibbs sampling at one beta, routed by `device`.
RoutedResult sample(const SpinModel& model, double beta, NrptOptions options,
                    const DeviceSpec& device = DeviceSpec::auto_());

/// Runs where an earlier decision says (orchestrators resolve once and pass it down, so
/// the space never flips between phases). A concrete instance in decision.spec is used.
NrptResult nrpt_with(const DeviceDecision& decision, const SpinModel& model,
                     const NrptOptions& options);

}  // namespace hamon
