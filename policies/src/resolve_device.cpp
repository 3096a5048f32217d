// SPDX-License-Identifier: Apache-2.0
#include "hamon/policies/resolve_device.hpp"

#include <cctype>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "hamon/core/util/memory_limit.hpp"
#include "hamon/core/util/text.hpp"
#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/env.hpp"
#include "hamon/policies/thresholds.hpp"

namespace hamon {

namespace {

// "device 'gpu' requested" or "device 'gpu' requested by HAMON_DEVICE=gpu".
std::string requested(const char* word, const DeviceDecision& decision) {
  std::string text = std::string("device '") + word + "' requested";
  if (decision.env_device) {
    text += std::string(" by ") + kDeviceEnv + "=" + *decision.env_device;
  }
  return text;
}

Placement placement_of(const DeviceSpec::Instance& instance) {
  return std::visit(
      [](const auto& space) {
        using Space = std::decay_t<decltype(space)>;
        if constexpr (std::is_same_v<Space, std::monostate>) {
          throw std::logic_error("DeviceSpec of kind instance holds no instance");
          return Placement::leave_alone;
        } else {
          return placement_of_space<Space>();
        }
      },
      instance);
}

// The accelerator of the list (the first, compiled in or not: a CPU-only build's tests
// route to it through ScopedAcceleratorOverride).
const Backend& accelerator_backend() {
  for (const Backend& backend : kKnownBackends) {
    if (backend.tier == Tier::accelerator) {
      return backend;
    }
  }
  throw std::logic_error("cmake/HamonBackends.cmake lists no accelerator backend");
}

// "Serial, OpenMP": the Kokkos names of the list's host backends.
std::string host_backend_names() {
  std::string names;
  for (const Backend& backend : kKnownBackends) {
    if (backend.tier == Tier::host) {
      names += (names.empty() ? "" : ", ") + std::string(backend.kokkos_name);
    }
  }
  return names;
}

// The host tier; returns false (decision untouched) when no host backend is compiled in.
// Several host backends: the lightest below the host threshold, the heaviest at or above
// it and without a score (Kokkos::DefaultHostExecutionSpace prefers OpenMP over Serial).
bool place_on_host(DeviceDecision& decision, std::optional<double> host_threshold_arg) {
  const std::vector<Placement> backends = host_backends().placements;
  if (backends.empty()) {
    return false;
  }
  HostTierDecision tier;
  if (backends.size() == 1) {
    tier.rule = HostRule::only_backend;
    decision.placement = backends.front();
  } else if (decision.score) {
    tier.threshold = host_threshold(host_threshold_arg);
    const bool small = static_cast<double>(*decision.score) < tier.threshold->value;
    tier.rule = small ? HostRule::score_below_threshold : HostRule::score_at_or_above_threshold;
    decision.placement = small ? backends.front() : backends.back();
  } else {
    tier.rule = HostRule::no_score_default;
    decision.placement = backends.back();
  }
  decision.host_tier = tier;
  return true;
}

void place_on_accelerator(DeviceDecision& decision) {
  const AcceleratorInfo accelerator = probe_accelerator();
  const Backend& backend = accelerator_backend();
  if (!accelerator.compiled_in) {
    throw DeviceUnavailable(requested("gpu", decision) + " but the " + backend.kokkos_name +
                            " backend is not compiled in: this hamon " +
                            "was built against a Kokkos without " + backend.kokkos_option +
                            "; rebuild against a " + backend.kokkos_name +
                            "-enabled Kokkos, or use 'cpu' or 'auto'");
  }
  if (!accelerator.visible()) {
    const auto mask = env::get_env("CUDA_VISIBLE_DEVICES");
    std::string message = requested("gpu", decision) +
                          " but no CUDA device is visible at run time (CUDA_VISIBLE_DEVICES " +
                          (mask ? "is '" + *mask + "'" : std::string("is unset")) +
                          "; it can hide devices)";
    if (!accelerator.detail.empty()) {
      message += "; " + accelerator.detail;
    }
    throw DeviceUnavailable(message);
  }
  decision.placement = backend.placement;
}

// cpu / gpu / one host backend, asked for by the caller or by HAMON_DEVICE.
void place_explicitly(DeviceDecision& decision, const DeviceSpec& spec,
                      std::optional<double> host_threshold_arg) {
  switch (spec.kind()) {
    case DeviceSpec::Kind::cpu:
      if (!place_on_host(decision, host_threshold_arg)) {
        throw DeviceUnavailable(requested("cpu", decision) + " but none of the host backends (" +
                                host_backend_names() + ") is compiled in");
      }
      return;
    case DeviceSpec::Kind::gpu:
      place_on_accelerator(decision);
      return;
    case DeviceSpec::Kind::backend: {
      const Backend& backend = *find_backend(spec.backend());
      if (!host_backends().has(backend.placement)) {
        throw DeviceUnavailable(requested(backend.name, decision) + " but the Kokkos " +
                                backend.kokkos_name + " backend is not compiled in (" +
                                backend.kokkos_option + "=OFF)");
      }
      decision.placement = backend.placement;
      return;
    }
    default:
      throw std::logic_error("place_explicitly called with " + to_string(spec.kind()));
  }
}

// HAMON_DEVICE parsed, nullopt when unset or empty; throws when it is not a device spec.
std::optional<DeviceSpec> device_from_env() {
  const auto raw = env::get_env(kDeviceEnv);
  if (!raw || trim(*raw).empty()) return std::nullopt;  // an empty value counts as unset
  try {
    return parse_device_spec(trim(*raw));
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(std::string("invalid ") + kDeviceEnv + "='" + *raw +
                                "': " + error.what());
  }
}

void resolve_auto(DeviceDecision& decision, std::optional<double> threshold_arg,
                  std::optional<double> host_threshold_arg) {
  if (const auto forced = device_from_env(); forced && forced->kind() != DeviceSpec::Kind::auto_) {
    decision.env_device = trim(*env::get_env(kDeviceEnv));
    decision.reason = DecisionReason::forced_by_env;
    if (forced->kind() == DeviceSpec::Kind::none) {
      decision.placement = Placement::leave_alone;
    } else {
      place_explicitly(decision, *forced, host_threshold_arg);
    }
    return;
  }
  if (!probe_accelerator().visible()) {
    decision.reason = DecisionReason::no_accelerator;
    // With a size, the host tier: Kokkos's default host space (OpenMP) only forks when the
    // work pays for it, so a small call runs on Serial instead of waking threads that spin
    // for nothing. Without a size placement stays Kokkos's own. Either way the bits are
    // those of any other space; only speed differs.
    if (!decision.score || !place_on_host(decision, host_threshold_arg)) {
      decision.placement = Placement::leave_alone;
    }
    return;
  }
  if (decision.score) {
    decision.threshold = device_threshold(threshold_arg);
    if (static_cast<double>(*decision.score) >= decision.threshold->value) {
      decision.placement = accelerator_backend().placement;
      decision.reason = DecisionReason::score_at_or_above_threshold;
      return;
    }
    decision.reason = DecisionReason::score_below_threshold;
  } else {
    decision.reason = DecisionReason::no_score;
  }
  if (!place_on_host(decision, host_threshold_arg)) {
    decision.placement = Placement::leave_alone;
    decision.reason = DecisionReason::no_host_backend;
  }
}

std::string format_threshold(const Threshold& threshold) {
  std::ostringstream out;
  out << threshold.value << " (" << to_string(threshold.source);
  if (threshold.source == ThresholdSource::environment ||
      threshold.source == ThresholdSource::calibration_file) {
    out << " " << threshold.origin;
  }
  out << ")";
  return out.str();
}

}  // namespace

bool device_forced_by_env(const DeviceSpec& spec) {
  if (spec.kind() != DeviceSpec::Kind::auto_) return false;
  const auto forced = device_from_env();
  return forced && forced->kind() != DeviceSpec::Kind::auto_;
}

void check_environment() {
  device_from_env();
  check_threshold_environment();
  (void)memory_limit_bytes();
}

DeviceDecision resolve_device(const DeviceSpec& spec, std::optional<std::int64_t> score,
                              std::optional<double> threshold,
                              std::optional<double> host_threshold_arg) {
  check_environment();
  if (score && *score < 0) {
    throw std::invalid_argument("resolve_device needs a work score >= 0, got " +
                                std::to_string(*score));
  }
  DeviceDecision decision;
  decision.spec = spec;
  decision.score = score;
  switch (spec.kind()) {
    case DeviceSpec::Kind::none:
      decision.placement = Placement::leave_alone;
      decision.reason = DecisionReason::opted_out;
      break;
    case DeviceSpec::Kind::instance:
      decision.placement = placement_of(spec.instance());
      decision.reason = DecisionReason::concrete_instance;
      break;
    case DeviceSpec::Kind::auto_:
      resolve_auto(decision, threshold, host_threshold_arg);
      break;
    case DeviceSpec::Kind::cpu:
    case DeviceSpec::Kind::gpu:
    case DeviceSpec::Kind::backend:
      decision.reason = DecisionReason::explicit_request;
      place_explicitly(decision, spec, host_threshold_arg);
      break;
  }
  return decision;
}

std::string DeviceDecision::describe() const {
  std::ostringstream out;
  out << "spec=" << to_string(spec);
  if (env_device) {
    out << " " << kDeviceEnv << "=" << *env_device;
  }
  out << " placement=" << to_string(placement) << " reason=" << to_string(reason);
  out << " score=" << (score ? std::to_string(*score) : std::string("none"));
  if (threshold) {
    out << " threshold=" << format_threshold(*threshold);
  }
  if (host_tier) {
    out << " host_tier=" << to_string(host_tier->rule);
    if (host_tier->threshold) {
      out << " host_threshold=" << format_threshold(*host_tier->threshold);
    }
    if (host_tier->threads) {
      out << " host_threads=" << *host_tier->threads;
    }
  }
  return out.str();
}

}  // namespace hamon
