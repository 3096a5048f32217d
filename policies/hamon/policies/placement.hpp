// SPDX-License-Identifier: Apache-2.0
#pragma once
// The outcome of resolve_device: where a call runs, and why (the record every entry point
// returns and the CLI writes into its run summary).

#include <cstdint>
#include <optional>
#include <string>

#include "hamon/core/util/enum_names.hpp"
#include "hamon/policies/backends.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/thresholds.hpp"

namespace hamon {

enum class DecisionReason {
  forced_by_env,                // spec auto, HAMON_DEVICE set to something other than auto
  no_accelerator,               // auto, no accelerator visible: the host tier (with a score)
                                // or placement left alone (without)
  score_at_or_above_threshold,  // auto, score >= device threshold: the accelerator
  score_below_threshold,        // auto, score < device threshold: the host tier
  no_score,                     // auto, accelerator visible but no score given: the host tier
  explicit_request,             // cpu / gpu / serial / openmp asked for by the caller
  concrete_instance,            // the caller passed an execution-space instance
  opted_out,                    // spec none: hamon never touches placement
  no_host_backend,              // auto wanted the host tier but no host backend is built
  data_resident,                // the caller's Views already live in a memory space: run where
                                // the data is, copy nothing (nrpt_in_place)
};

inline constexpr EnumNames<DecisionReason, 10> kDecisionReasonNames{{
    {DecisionReason::forced_by_env, "forced by env (HAMON_DEVICE)"},
    {DecisionReason::no_accelerator, "no accelerator visible"},
    {DecisionReason::score_at_or_above_threshold, "score >= threshold"},
    {DecisionReason::score_below_threshold, "score below threshold"},
    {DecisionReason::no_score, "no score given"},
    {DecisionReason::explicit_request, "explicit request"},
    {DecisionReason::concrete_instance, "concrete instance"},
    {DecisionReason::opted_out, "opted out (none)"},
    {DecisionReason::no_host_backend, "no host backend compiled in"},
    {DecisionReason::data_resident, "data resident (runs where the caller's Views live)"},
}};
/// A short phrase, e.g. "score >= threshold", "forced by env (HAMON_DEVICE)".
inline std::string to_string(DecisionReason reason) {
  return name_of(kDecisionReasonNames, reason);
}

/// How the host tier chose among the host backends compiled in (listed lightest first in
/// cmake/HamonBackends.cmake: Serial, then OpenMP).
enum class HostRule {
  only_backend,                 // one host backend compiled in: that one
  no_score_default,             // several, no score: the heaviest (the default host space)
  score_below_threshold,        // several, score < host threshold: the lightest (Serial)
  score_at_or_above_threshold,  // several, score >= host threshold: the heaviest (OpenMP)
  cores_busy,                   // OpenMP chosen, but other processes keep all cores but one busy
                                // (fit_to_idle_cores, host_load.hpp): the lightest
};

inline constexpr EnumNames<HostRule, 5> kHostRuleNames{{
    {HostRule::only_backend, "only host backend"},
    {HostRule::no_score_default, "no score: default host space"},
    {HostRule::score_below_threshold, "score below host threshold"},
    {HostRule::score_at_or_above_threshold, "score >= host threshold"},
    {HostRule::cores_busy, "cores busy"},
}};
/// "only host backend", "no score: default host space", "score below host threshold",
/// "score >= host threshold".
inline std::string to_string(HostRule rule) {
  return name_of(kHostRuleNames, rule);
}

/// Present in a decision whenever the host tier chose the placement.
struct HostTierDecision {
  HostRule rule = HostRule::only_backend;
  std::optional<Threshold> threshold;  // set when the rule compared the score with it
  // Host threads the process starts Kokkos with, set only when fit_to_idle_cores chose
  // fewer than the cores it may use (a busy machine); unset: Kokkos's own count.
  std::optional<int> threads;
};

struct DeviceDecision {
  DeviceSpec spec;                        // what the caller passed
  std::optional<std::string> env_device;  // HAMON_DEVICE's value when it forced the decision
  Placement placement = Placement::leave_alone;
  DecisionReason reason = DecisionReason::opted_out;
  std::optional<std::int64_t> score;
  // The device threshold, set only when the rules compared the score with it (auto with an
  // accelerator visible and a score given), so a bad HAMON_DEVICE_THRESHOLD or calibration
  // file cannot break a call that never consults them.
  std::optional<Threshold> threshold;
  std::optional<HostTierDecision> host_tier;  // set when the host tier picked the space

  /// One line, e.g. "spec=auto placement=openmp reason=score below threshold score=512
  /// threshold=4096 (default) host=score below host threshold ... ".
  std::string describe() const;  // defined in resolve_device.cpp
};

}  // namespace hamon
