# SPDX-License-Identifier: Apache-2.0
# policies' sources, relative to policies/: the one list that policies/CMakeLists.txt builds
# hamon::hamon from and that the fuzz harnesses (tests/fuzz) take the readers they compile
# from. MPI's exchange and the per-backend instantiations are added by the CMakeLists.
set(HAMON_POLICIES_SOURCES
  src/backends.cpp
  src/device_spec.cpp
  src/accelerator.cpp
  src/thresholds.cpp
  src/calibrate.cpp
  src/resolve_device.cpp
  src/host_load.cpp
  src/compile_cache.cpp
  src/dispatch.cpp
  src/tuning_cache.cpp
  src/autotune_key.cpp
  src/autotune.cpp)
