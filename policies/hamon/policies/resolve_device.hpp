// SPDX-License-Identifier: Apache-2.0
#pragma once
// resolve_device: a DeviceSpec (+ work score, threshold) -> a Placement and the reason.
// The rules (docs/routing.md, in order):
//
//   none                 -> leave placement alone (Kokkos::DefaultExecutionSpace).
//   concrete instance    -> that instance's space.
//   auto                 -> if HAMON_DEVICE is set, non-empty and not "auto": none/off leave
//                           placement alone, anything else is resolved as if passed
//                           explicitly (reason: forced by env). Otherwise: no accelerator
//                           visible -> the host tier when a score is given (Serial for
//                           small work, where OpenMP's threads would only spin), else
//                           placement left alone; accelerator visible -> the accelerator
//                           when a score is given and score >= device_threshold(threshold),
//                           else the host tier (small score, or no score).
//   cpu                  -> the host tier.
//   gpu (alias cuda)     -> Cuda, or DeviceUnavailable saying whether Cuda is not compiled
//                           in or no device is visible (CUDA_VISIBLE_DEVICES can hide it).
//   serial / openmp      -> that space if compiled in, else DeviceUnavailable naming it.
//
// The host tier: with Serial and OpenMP both compiled in, Serial when score <
// host_threshold, OpenMP when score >= host_threshold, and with no score the default host
// execution space (OpenMP, as Kokkos::DefaultHostExecutionSpace) — without a size we do
// not guess small. With one host backend compiled in, that one. Results never depend on
// the space chosen, only speed does.
//
// An invalid HAMON_DEVICE, HAMON_DEVICE_THRESHOLD, HAMON_HOST_THRESHOLD or
// HAMON_MEMORY_LIMIT (core/memory_limit.hpp) throws
// std::invalid_argument naming the variable on every call, whatever the spec and whether
// or not the rules use it (so a laptop refuses what a cluster would). HAMON_DEVICE is
// used only when spec is auto; thresholds (and the calibration file) are read only when
// the rules compare a score with them (the device threshold only with an accelerator
// visible).

#include <cstdint>
#include <optional>

#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/placement.hpp"

namespace hamon {

inline constexpr const char* kDeviceEnv = "HAMON_DEVICE";

/// Throws std::invalid_argument when a HAMON_* variable of the routing rules is set to an
/// invalid value (see above). resolve_device calls it first.
void check_environment();

/// Whether HAMON_DEVICE decides where `spec` goes (`spec` is auto and the variable names
/// another device), so that a device it asks for and cannot have is blamed on it, not on
/// the spec.
bool device_forced_by_env(const DeviceSpec& spec);

/// Resolves `spec`. `score` (>= 0, see work_score) and the thresholds are optional;
/// `threshold` / `host_threshold` override the device / host threshold (see thresholds.hpp
/// for the precedence). Throws DeviceUnavailable and std::invalid_argument as above, and
/// std::invalid_argument for a negative score.
DeviceDecision resolve_device(const DeviceSpec& spec = DeviceSpec::auto_(),
                              std::optional<std::int64_t> score = {},
                              std::optional<double> threshold = {},
                              std::optional<double> host_threshold = {});

}  // namespace hamon
