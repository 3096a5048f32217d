// SPDX-License-Identifier: Apache-2.0
// enable_persistent_compile_cache: CUDA_CACHE_PATH set / empty / unset, explicit path, no
// accelerator, idempotence, "too late".
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/compile_cache.hpp"
#include "hamon/policies/env.hpp"
#include "policy_env_fixture.hpp"

namespace {

using hamon::AcceleratorInfo;
using hamon::CompileCacheStatus;
using hamon::configure_persistent_compile_cache;
using hamon::enable_persistent_compile_cache;
using hamon::ScopedAcceleratorOverride;
namespace env = hamon::env;
namespace fs = std::filesystem;

const AcceleratorInfo kVisible{true, 1, ""};
const AcceleratorInfo kNoDevice{true, 0, ""};
const AcceleratorInfo kCompiledOut{false, 0, ""};

using CompileCache = hamon::test::PolicyEnvTest;

TEST_F(CompileCache, ExistingCudaCachePathIsRespected) {
  const std::string user = (dir() / "user-cache").string();
  env::set_env("CUDA_CACHE_PATH", user);
  for (const AcceleratorInfo& accelerator : {kVisible, kNoDevice, kCompiledOut}) {
    const ScopedAcceleratorOverride scoped(accelerator);
    EXPECT_EQ(enable_persistent_compile_cache(), user);
    EXPECT_EQ(enable_persistent_compile_cache((dir() / "other").string()), user);
    EXPECT_EQ(env::get_env("CUDA_CACHE_PATH"), user);
  }
  EXPECT_FALSE(fs::exists(dir() / "other"));
  EXPECT_EQ(env::get_env("CUDA_CACHE_MAXSIZE"), "4294967296");
}

TEST_F(CompileCache, ExistingMaxSizeIsKept) {
  env::set_env("CUDA_CACHE_PATH", (dir() / "user-cache").string());
  env::set_env("CUDA_CACHE_MAXSIZE", "1000");
  const ScopedAcceleratorOverride scoped(kVisible);
  EXPECT_TRUE(enable_persistent_compile_cache());
  EXPECT_EQ(env::get_env("CUDA_CACHE_MAXSIZE"), "1000");
}

TEST_F(CompileCache, EmptyCudaCachePathOptsOut) {
  env::set_env("CUDA_CACHE_PATH", "");
  const ScopedAcceleratorOverride scoped(kVisible);
  EXPECT_EQ(enable_persistent_compile_cache(), std::nullopt);
  EXPECT_EQ(enable_persistent_compile_cache((dir() / "explicit").string()), std::nullopt);
  EXPECT_EQ(env::get_env("CUDA_CACHE_PATH"), "");
  EXPECT_FALSE(env::get_env("CUDA_CACHE_MAXSIZE"));
  EXPECT_FALSE(fs::exists(dir() / "explicit"));
  EXPECT_NE(configure_persistent_compile_cache().reason.find("opted out"), std::string::npos);
}

TEST_F(CompileCache, ExplicitPathOptsInOnAnyBackend) {
  for (const AcceleratorInfo& accelerator : {kCompiledOut, kNoDevice, kVisible}) {
    env::unset_env("CUDA_CACHE_PATH");
    env::unset_env("CUDA_CACHE_MAXSIZE");
    const ScopedAcceleratorOverride scoped(accelerator);
    const std::string path = (dir() / "explicit" / "nested").string();
    EXPECT_EQ(enable_persistent_compile_cache(path), path);
    EXPECT_TRUE(fs::is_directory(path));
    EXPECT_EQ(env::get_env("CUDA_CACHE_PATH"), path);
    EXPECT_EQ(env::get_env("CUDA_CACHE_MAXSIZE"), "4294967296");
  }
  env::unset_env("CUDA_CACHE_PATH");
  EXPECT_THROW(enable_persistent_compile_cache(std::string()), std::invalid_argument);
}

TEST_F(CompileCache, DefaultNeedsAnAccelerator) {
  for (const AcceleratorInfo& accelerator : {kCompiledOut, kNoDevice}) {
    env::set_env("CUDA_CACHE_MAXSIZE", "77");
    const ScopedAcceleratorOverride scoped(accelerator);
    EXPECT_EQ(enable_persistent_compile_cache(), std::nullopt);
    EXPECT_FALSE(env::get_env("CUDA_CACHE_PATH"));        // the tentative value was undone
    EXPECT_EQ(env::get_env("CUDA_CACHE_MAXSIZE"), "77");  // and the size restored
    env::unset_env("CUDA_CACHE_MAXSIZE");
    EXPECT_EQ(enable_persistent_compile_cache(), std::nullopt);
    EXPECT_FALSE(env::get_env("CUDA_CACHE_MAXSIZE"));
    EXPECT_FALSE(fs::exists(dir() / "cache" / "hamon"));
  }
}

TEST_F(CompileCache, DefaultDirectoryWithAnAccelerator) {
  const ScopedAcceleratorOverride scoped(kVisible);
  const std::string expected = (dir() / "cache" / "hamon").string();
  EXPECT_EQ(enable_persistent_compile_cache(), expected);
  EXPECT_TRUE(fs::is_directory(expected));
  EXPECT_EQ(env::get_env("CUDA_CACHE_PATH"), expected);
  EXPECT_EQ(env::get_env("CUDA_CACHE_MAXSIZE"), "4294967296");
}

TEST_F(CompileCache, DefaultFallsBackToHomeWhenXdgCacheHomeIsEmptyOrUnset) {
  const ScopedAcceleratorOverride scoped(kVisible);
  env::set_env("HOME", (dir() / "home").string());
  env::set_env("XDG_CACHE_HOME", "");
  const std::string expected = (dir() / "home" / ".cache" / "hamon").string();
  EXPECT_EQ(enable_persistent_compile_cache(), expected);

  env::unset_env("CUDA_CACHE_PATH");
  env::unset_env("XDG_CACHE_HOME");
  EXPECT_EQ(enable_persistent_compile_cache(), expected);

  env::unset_env("CUDA_CACHE_PATH");
  env::unset_env("HOME");
  EXPECT_EQ(enable_persistent_compile_cache(), std::nullopt);
  EXPECT_FALSE(env::get_env("CUDA_CACHE_PATH"));
}

TEST_F(CompileCache, IsIdempotent) {
  const ScopedAcceleratorOverride scoped(kVisible);
  const auto first = enable_persistent_compile_cache();
  ASSERT_TRUE(first);
  EXPECT_EQ(enable_persistent_compile_cache(), first);
  EXPECT_EQ(enable_persistent_compile_cache(), first);
  // A later explicit path does not move a cache the first call set up.
  EXPECT_EQ(enable_persistent_compile_cache((dir() / "later").string()), first);
  EXPECT_EQ(env::get_env("CUDA_CACHE_PATH"), first);

  env::unset_env("CUDA_CACHE_PATH");
  const ScopedAcceleratorOverride none(kCompiledOut);
  EXPECT_EQ(enable_persistent_compile_cache(), std::nullopt);
  EXPECT_EQ(enable_persistent_compile_cache(), std::nullopt);
}

TEST_F(CompileCache, ReportsWhenCalledAfterCudaInitialised) {
  ASSERT_TRUE(Kokkos::is_initialized());  // the test main initialises Kokkos
  {
    const ScopedAcceleratorOverride scoped(kVisible);
    const CompileCacheStatus status = configure_persistent_compile_cache();
    EXPECT_TRUE(status.too_late);
    EXPECT_TRUE(status.directory);
  }
  env::unset_env("CUDA_CACHE_PATH");
  {
    const ScopedAcceleratorOverride scoped(kCompiledOut);
    const CompileCacheStatus status =
        configure_persistent_compile_cache((dir() / "explicit").string());
    EXPECT_FALSE(status.too_late);  // no Cuda, nothing it could be late for
    EXPECT_TRUE(status.directory);
  }
}

}  // namespace
