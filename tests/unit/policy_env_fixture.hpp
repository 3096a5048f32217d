// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test fixture for policies/: saves and clears every environment variable the routing
// policy reads, points HAMON_CALIBRATION, XDG_CONFIG_HOME and XDG_CACHE_HOME into a fresh
// temporary directory (so no test reads the user's real configuration or cache), and
// restores everything afterwards.

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "hamon/policies/env.hpp"

namespace hamon::test {

class PolicyEnvTest : public ::testing::Test {
 protected:
  static constexpr std::array<const char*, 11> kVariables = {
      "HAMON_DEVICE",         "HAMON_DEVICE_THRESHOLD",
      "HAMON_HOST_THRESHOLD", "HAMON_CALIBRATION",
      "XDG_CONFIG_HOME",      "XDG_CACHE_HOME",
      "CUDA_CACHE_PATH",      "CUDA_CACHE_MAXSIZE",
      "CUDA_VISIBLE_DEVICES", "HOME",
      "HAMON_CACHE_DIR"};

  void SetUp() override {
    for (std::size_t i = 0; i < kVariables.size(); ++i) {
      saved_[i] = env::get_env(kVariables[i]);
      if (std::string(kVariables[i]) != "HOME") env::unset_env(kVariables[i]);
    }
    static int counter = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("hamon-policy-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    env::set_env("HAMON_CALIBRATION", calibration_path());
    env::set_env("XDG_CONFIG_HOME", (dir_ / "config").string());
    env::set_env("XDG_CACHE_HOME", (dir_ / "cache").string());
  }

  void TearDown() override {
    for (std::size_t i = 0; i < kVariables.size(); ++i) env::restore_env(kVariables[i], saved_[i]);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  const std::filesystem::path& dir() const { return dir_; }
  std::string calibration_path() const { return (dir_ / "calibration.yaml").string(); }

  static void write_text(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::trunc);
    out << text;
  }

 private:
  std::array<std::optional<std::string>, kVariables.size()> saved_;
  std::filesystem::path dir_;
};

/// True when `text` contains every one of `words`.
template <typename... Words>
::testing::AssertionResult contains_all(const std::string& text, const Words&... words) {
  for (const std::string& word : {std::string(words)...}) {
    if (text.find(word) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << text << "' lacks '" << word << "'";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace hamon::test
