// SPDX-License-Identifier: Apache-2.0
#include "hamon/policies/accelerator.hpp"

#include <Kokkos_Macros.hpp>  // KOKKOS_ENABLE_*
#include <mutex>
#include <utility>

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace hamon {

namespace {

std::mutex& override_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::optional<AcceleratorInfo>& accelerator_override() {
  static std::optional<AcceleratorInfo> value;
  return value;
}

std::optional<HostBackends>& host_backends_override() {
  static std::optional<HostBackends> value;
  return value;
}

// The device count of the accelerator backend compiled in (one per build, as Kokkos has at
// most one device backend): the one place that speaks an accelerator's runtime API.
AcceleratorInfo probe_real_accelerator() {
  AcceleratorInfo info;
  info.compiled_in = !compiled_in_backends(Tier::accelerator).empty();
#ifdef KOKKOS_ENABLE_CUDA
  // Called directly rather than through Kokkos::Cuda::detect_device_count, which aborts
  // when the runtime reports an error (no driver, no device): here that just means "none".
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaSuccess) {
    info.visible_devices = count;
  } else {
    info.visible_devices = 0;
    info.detail = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(status);
    (void)cudaGetLastError();  // clear it so a later Kokkos::initialize does not see it
  }
#endif
  return info;
}

}  // namespace

AcceleratorInfo probe_accelerator() {
  {
    std::lock_guard<std::mutex> lock(override_mutex());
    if (accelerator_override()) {
      return *accelerator_override();
    }
  }
  static const AcceleratorInfo real = probe_real_accelerator();
  return real;
}

bool accelerator_compiled_in() {
  std::lock_guard<std::mutex> lock(override_mutex());
  if (accelerator_override()) {
    return accelerator_override()->compiled_in;
  }
  return !compiled_in_backends(Tier::accelerator).empty();
}

ScopedAcceleratorOverride::ScopedAcceleratorOverride(AcceleratorInfo info) {
  std::lock_guard<std::mutex> lock(override_mutex());
  previous_ = std::exchange(accelerator_override(), std::move(info));
}

ScopedAcceleratorOverride::~ScopedAcceleratorOverride() {
  std::lock_guard<std::mutex> lock(override_mutex());
  accelerator_override() = std::move(previous_);
}

HostBackends host_backends() {
  std::lock_guard<std::mutex> lock(override_mutex());
  if (host_backends_override()) {
    return *host_backends_override();
  }
  return HostBackends{compiled_in_backends(Tier::host)};
}

ScopedHostBackendsOverride::ScopedHostBackendsOverride(HostBackends backends) {
  std::lock_guard<std::mutex> lock(override_mutex());
  previous_ = std::exchange(host_backends_override(), std::move(backends));
}

ScopedHostBackendsOverride::~ScopedHostBackendsOverride() {
  std::lock_guard<std::mutex> lock(override_mutex());
  host_backends_override() = std::move(previous_);
}

}  // namespace hamon
