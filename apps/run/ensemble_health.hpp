// SPDX-License-Identifier: Apache-2.0
#pragma once
// An ensemble's health, gathered from its instances' summary.yaml `health:` sections: how
// many instances failed or warned, and which check flagged which instances. The ensemble's
// summary.yaml writes it beside the disorder averages (which then say they include failed
// instances) and the terminal report says it, so an ensemble whose every instance failed
// never reads as healthy.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hamon::cli {

struct EnsembleHealth {
  struct Check {
    std::string name;
    std::int32_t failed = 0;
    std::int32_t warned = 0;
    std::vector<std::int64_t> instances;  // those it failed or warned, ascending
  };
  std::int32_t instances = 0;  // read
  std::int32_t failed = 0;     // health.overall fail
  std::int32_t warned = 0;     // health.overall warn
  std::int32_t unchecked = 0;  // no health section
  std::vector<Check> checks;   // the checks that flagged an instance, in the order met

  /// Adds instance k's `health:` section (an undefined or null node: unchecked).
  void add(std::int64_t k, const YAML::Node& health);
  /// "fail" when an instance failed, else "warn" when one warned or went unchecked, else
  /// "pass".
  std::string overall() const;
  /// `health: {overall, failed, warned, unchecked, checks: {name: {fail, warn, instances}}}`.
  void emit(YAML::Emitter& out) const;
  /// "fail: 8 of 8 instances failed (round_trip_rate 8, efficiency 8); the disorder averages
  /// include them", or "pass (every instance)".
  std::string line() const;
};

}  // namespace hamon::cli
