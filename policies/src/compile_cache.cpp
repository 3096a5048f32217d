// SPDX-License-Identifier: Apache-2.0
#include "hamon/policies/compile_cache.hpp"

#include <Kokkos_Core.hpp>  // Kokkos::is_initialized
#include <atomic>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/env.hpp"

namespace hamon {

namespace {

std::optional<std::string> default_cache_directory() {
  // XDG: an empty XDG_CACHE_HOME counts as unset.
  if (const auto xdg = env::get_env("XDG_CACHE_HOME"); xdg && !xdg->empty()) {
    return (std::filesystem::path(*xdg) / "hamon").string();
  }
  if (const auto home = env::get_env("HOME"); home && !home->empty()) {
    return (std::filesystem::path(*home) / ".cache" / "hamon").string();
  }
  return std::nullopt;
}

void create_directory(const std::string& directory) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) {
    throw std::runtime_error("cannot create the compile cache directory " + directory + ": " +
                             ec.message());
  }
}

void raise_max_size() {
  if (!env::get_env(kCudaCacheMaxSizeEnv)) {
    env::set_env(kCudaCacheMaxSizeEnv, kCudaCacheMaxSize);
  }
}

}  // namespace

CompileCacheStatus configure_persistent_compile_cache(std::optional<std::string> path) {
  CompileCacheStatus status;
  status.too_late = accelerator_compiled_in() && Kokkos::is_initialized();

  if (const auto existing = env::get_env(kCudaCachePathEnv)) {
    if (existing->empty()) {
      status.reason = std::string(kCudaCachePathEnv) + " is set and empty: opted out";
      return status;
    }
    raise_max_size();
    status.directory = *existing;
    status.reason = std::string(kCudaCachePathEnv) + " is set: respected";
    return status;
  }

  if (path) {
    if (path->empty()) {
      throw std::invalid_argument("empty compile cache path");
    }
    create_directory(*path);
    env::set_env(kCudaCachePathEnv, *path);
    raise_max_size();
    status.directory = *path;
    status.reason = "explicit path";
    return status;
  }

  const auto directory = default_cache_directory();
  if (!directory) {
    status.reason = "neither XDG_CACHE_HOME nor HOME is set: no default directory";
    return status;
  }
  // Set the variables before probing: the probe's cudaGetDeviceCount initialises the
  // driver, which is when it reads them. Undo them if no accelerator turns up.
  const auto previous_max_size = env::get_env(kCudaCacheMaxSizeEnv);
  env::set_env(kCudaCachePathEnv, *directory);
  raise_max_size();
  const auto undo = [&previous_max_size] {
    env::unset_env(kCudaCachePathEnv);
    env::restore_env(kCudaCacheMaxSizeEnv, previous_max_size);
  };
  if (!probe_accelerator().visible()) {
    undo();
    status.reason = "no accelerator visible: not enabled (pass a path to opt in)";
    return status;
  }
  std::error_code ec;
  std::filesystem::create_directories(*directory, ec);
  if (ec) {  // a convenience default must not fail the run: stay off and say why
    undo();
    status.reason = "cannot create " + *directory + ": " + ec.message();
    return status;
  }
  status.directory = *directory;
  status.reason = "accelerator visible: default directory";
  return status;
}

std::optional<std::string> enable_persistent_compile_cache(std::optional<std::string> path) {
  const CompileCacheStatus status = configure_persistent_compile_cache(std::move(path));
  static std::atomic<bool> warned{false};
  if (status.too_late && status.directory && !warned.exchange(true)) {
    std::cerr << "hamon: enable_persistent_compile_cache was called after Kokkos initialised "
                 "CUDA, so "
              << kCudaCachePathEnv
              << " has no effect in this process; call it before Kokkos::initialize\n";
  }
  return status.directory;
}

}  // namespace hamon
