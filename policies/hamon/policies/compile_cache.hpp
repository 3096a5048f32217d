// SPDX-License-Identifier: Apache-2.0
#pragma once
// The persistent cache for CUDA's JIT of PTX: a Cuda build carries sm_80 code plus PTX, so
// a newer GPU (Hopper) JIT-compiles every kernel on first use in each process unless the
// driver's compute cache keeps the result. The driver reads CUDA_CACHE_PATH and
// CUDA_CACHE_MAXSIZE when it initialises, so call this first thing in main, before
// Kokkos::initialize (or anything else that touches CUDA).
//
// Semantics (the seed's, mapped to CUDA's variables):
//   - CUDA_CACHE_PATH already set: respected; an empty value means "opt out" (nullopt).
//   - an explicit `path`: a deliberate opt-in on any backend.
//   - otherwise: enabled only when an accelerator is present (probe_accelerator), at
//     ${XDG_CACHE_HOME:-$HOME/.cache}/hamon.
// Whenever it is active, CUDA_CACHE_MAXSIZE is raised to 4 GiB (CUDA's maximum) unless
// already set. The directory is created. Idempotent: a second call finds CUDA_CACHE_PATH
// set by the first and returns the same directory (a later explicit path does not move it).

#include <optional>
#include <string>

namespace hamon {

inline constexpr const char* kCudaCachePathEnv = "CUDA_CACHE_PATH";
inline constexpr const char* kCudaCacheMaxSizeEnv = "CUDA_CACHE_MAXSIZE";
inline constexpr const char* kCudaCacheMaxSize = "4294967296";

struct CompileCacheStatus {
  std::optional<std::string> directory;  // the active cache directory, or nullopt (off)
  bool too_late = false;  // Cuda compiled in and Kokkos already initialised: no effect now
  std::string reason;     // why it is on or off, for logs
};

/// Applies the semantics above and reports; prints nothing.
CompileCacheStatus configure_persistent_compile_cache(std::optional<std::string> path = {});

/// The same, returning the active directory or nullopt; warns once on std::cerr when it
/// was called too late to affect this process.
std::optional<std::string> enable_persistent_compile_cache(std::optional<std::string> path = {});

}  // namespace hamon
