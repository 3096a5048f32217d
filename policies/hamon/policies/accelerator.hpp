// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which execution spaces hamon can route to: the accelerator (the accelerator backend of
// cmake/HamonBackends.cmake's list, compiled in and a device visible at run time) and the
// host backends compiled in.
//
// The real answers come from the Kokkos configuration and, for the device count, one
// cudaGetDeviceCount call made the first time it is asked (then cached). Both can be
// replaced for the lifetime of a scoped override, so a CPU-only build can test every
// branch of resolve_device, including the accelerator ones.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "hamon/policies/backends.hpp"

namespace hamon {

struct AcceleratorInfo {
  bool compiled_in = false;  // an accelerator backend is (KOKKOS_ENABLE_CUDA)
  int visible_devices = 0;   // cudaGetDeviceCount at run time; 0 when not compiled in
  std::string detail;        // why none is visible, when the CUDA runtime said so

  bool visible() const { return compiled_in && visible_devices > 0; }
};

/// The accelerator as this process sees it: the active override if any, else the real
/// probe. The real probe runs once per process (it initialises the CUDA driver, so call
/// enable_persistent_compile_cache before anything that probes).
AcceleratorInfo probe_accelerator();

/// Whether an accelerator backend is compiled in (the active override's answer if any). Never
/// touches the CUDA runtime.
bool accelerator_compiled_in();

/// Replaces probe_accelerator()'s answer until destroyed (restoring the previous override,
/// so overrides nest). For tests; not thread-safe against concurrent resolve_device calls.
class ScopedAcceleratorOverride {
 public:
  explicit ScopedAcceleratorOverride(AcceleratorInfo info);
  ~ScopedAcceleratorOverride();
  ScopedAcceleratorOverride(const ScopedAcceleratorOverride&) = delete;
  ScopedAcceleratorOverride& operator=(const ScopedAcceleratorOverride&) = delete;

 private:
  std::optional<AcceleratorInfo> previous_;
};

/// The host backends hamon dispatches to, in the list's order (lightest first).
struct HostBackends {
  std::vector<Placement> placements;

  bool has(Placement placement) const {
    return std::find(placements.begin(), placements.end(), placement) != placements.end();
  }
};

/// The host backends compiled in (the active override's answer if any).
HostBackends host_backends();

/// Replaces host_backends()'s answer until destroyed; for tests of the host tier.
class ScopedHostBackendsOverride {
 public:
  explicit ScopedHostBackendsOverride(HostBackends backends);
  ~ScopedHostBackendsOverride();
  ScopedHostBackendsOverride(const ScopedHostBackendsOverride&) = delete;
  ScopedHostBackendsOverride& operator=(const ScopedHostBackendsOverride&) = delete;

 private:
  std::optional<HostBackends> previous_;
};

}  // namespace hamon
