// SPDX-License-Identifier: Apache-2.0
#include "hamon/policies/thresholds.hpp"

#include <unistd.h>  // getpid

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "hamon/core/util/enum_names.hpp"
#include "hamon/core/util/text.hpp"
#include "hamon/policies/env.hpp"

namespace hamon {

namespace {

// A whole-string, locale-independent number ("4096", "4e3", "2048.5", "inf"); nullopt
// for anything else.
std::optional<double> parse_number(const std::string& raw) {
  std::string text = trim(raw);
  if (!text.empty() && text.front() == '+') {
    text.erase(0, 1);
  }
  if (text.empty()) {
    return std::nullopt;
  }
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) {
    return std::nullopt;
  }
  return value;
}

bool valid_threshold(double value) {
  return !std::isnan(value) && value >= 0.0;
}

// A pointer to one of CalibrationValues' thresholds.
using CalibrationMember = std::optional<double> CalibrationValues::*;

CalibrationMember member_for(const std::string& key) {
  if (key == "device_threshold") {
    return &CalibrationValues::device_threshold;
  }
  if (key == "host_threshold") {
    return &CalibrationValues::host_threshold;
  }
  return nullptr;
}

// The threshold `env_name` sets, nullopt when unset; throws when it is not a valid one.
std::optional<double> threshold_from_env(const char* what, const char* env_name) {
  const auto raw = env::get_env(env_name);
  if (!raw) return std::nullopt;
  const auto value = parse_number(*raw);
  if (!value || !valid_threshold(*value)) {
    throw std::invalid_argument(std::string(env_name) + "='" + *raw + "' is not a valid " + what +
                                " (expected a number >= 0, e.g. 4096)");
  }
  return value;
}

Threshold resolve_threshold(std::optional<double> arg, const char* what, const char* env_name,
                            CalibrationMember file_member, double default_value) {
  if (arg) {
    if (!valid_threshold(*arg)) {
      throw std::invalid_argument(std::string(what) + " argument must be >= 0, got " +
                                  format_number(*arg));
    }
    return {*arg, ThresholdSource::argument, "argument"};
  }
  if (const auto value = threshold_from_env(what, env_name)) {
    return {*value, ThresholdSource::environment, env_name};
  }
  if (const auto path = calibration_file_path()) {
    const CalibrationValues values = read_calibration(*path);
    if (const auto& value = values.*file_member) {
      return {*value, ThresholdSource::calibration_file, *path};
    }
  }
  return {default_value, ThresholdSource::default_value, "default"};
}

}  // namespace

std::int64_t work_score(std::int64_t n_chains, std::int64_t n_free_nodes) {
  if (n_chains < 0 || n_free_nodes < 0) {
    throw std::invalid_argument("work_score needs n_chains >= 0 and n_free_nodes >= 0, got " +
                                std::to_string(n_chains) + " and " + std::to_string(n_free_nodes));
  }
  if (n_free_nodes != 0 && n_chains > std::numeric_limits<std::int64_t>::max() / n_free_nodes) {
    throw std::overflow_error("work_score " + std::to_string(n_chains) + " x " +
                              std::to_string(n_free_nodes) + " does not fit in 64 bits");
  }
  return n_chains * n_free_nodes;
}

constexpr EnumNames<ThresholdSource, 4> kThresholdSourceNames{{
    {ThresholdSource::argument, "argument"},
    {ThresholdSource::environment, "environment"},
    {ThresholdSource::calibration_file, "calibration file"},
    {ThresholdSource::default_value, "default"},
}};

std::string to_string(ThresholdSource source) {
  return name_of(kThresholdSourceNames, source);
}

void check_threshold_environment() {
  threshold_from_env("device threshold", kDeviceThresholdEnv);
  threshold_from_env("host threshold", kHostThresholdEnv);
}

Threshold device_threshold(std::optional<double> arg) {
  return resolve_threshold(arg, "device threshold", kDeviceThresholdEnv,
                           &CalibrationValues::device_threshold, kDefaultDeviceThreshold);
}

Threshold host_threshold(std::optional<double> arg) {
  return resolve_threshold(arg, "host threshold", kHostThresholdEnv,
                           &CalibrationValues::host_threshold, kDefaultHostThreshold);
}

std::optional<std::string> calibration_file_path() {
  if (const auto path = env::get_env(kCalibrationEnv)) {
    if (path->empty()) {
      return std::nullopt;
    }
    return *path;
  }
  // XDG: an empty XDG_CONFIG_HOME counts as unset.
  std::filesystem::path base;
  if (const auto xdg = env::get_env("XDG_CONFIG_HOME"); xdg && !xdg->empty()) {
    base = *xdg;
  } else if (const auto home = env::get_env("HOME"); home && !home->empty()) {
    base = std::filesystem::path(*home) / ".config";
  } else {
    return std::nullopt;
  }
  return (base / "hamon" / "calibration.yaml").string();
}

CalibrationValues read_calibration(const std::string& path) {
  CalibrationValues values;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return values;
  }
  std::ifstream in(path);
  if (!in || std::filesystem::is_directory(path, ec)) {
    throw std::runtime_error("cannot read calibration file " + path);
  }
  auto fail = [&path](int line, const std::string& why) {
    throw std::runtime_error("malformed calibration file " + path + ":" + std::to_string(line) +
                             ": " + why);
  };
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string content = trim(line);
    if (content.empty() || content.front() == '#') {
      continue;
    }
    const auto colon = content.find(':');
    if (colon == std::string::npos) {
      fail(line_number, "expected 'key: value', got '" + content + "'");
    }
    const std::string key = trim(content.substr(0, colon));
    std::string value = content.substr(colon + 1);
    // A trailing YAML comment needs whitespace before '#'.
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (value[i] == '#' && (i == 0 || value[i - 1] == ' ' || value[i - 1] == '\t')) {
        value.erase(i);
        break;
      }
    }
    value = trim(value);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    if (key.empty()) {
      fail(line_number, "missing key before ':'");
    }
    const auto member = member_for(key);
    if (member == nullptr) {
      continue;  // unknown keys: metadata, or a newer hamon's fields
    }
    if ((values.*member).has_value()) {
      fail(line_number, "'" + key + "' given twice");
    }
    const auto number = parse_number(value);
    if (!number || !valid_threshold(*number)) {
      fail(line_number, "'" + key + "' must be a number >= 0, got '" + value + "'");
    }
    values.*member = *number;
  }
  return values;
}

void write_calibration(const std::string& path, const CalibrationValues& values) {
  namespace fs = std::filesystem;
  for (const auto& value : {values.device_threshold, values.host_threshold}) {
    if (value && !valid_threshold(*value)) {
      throw std::invalid_argument("calibration thresholds must be >= 0, got " +
                                  format_number(*value));
    }
  }
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec) {
      throw std::runtime_error("cannot create " + target.parent_path().string() + ": " +
                               ec.message());
    }
  }
  std::ostringstream text;
  text << "# hamon calibration (hamon calibrate); read by hamon::device_threshold and\n"
          "# hamon::host_threshold. Environment variables and arguments override it.\n";
  if (values.device_threshold) {
    text << "device_threshold: " << format_number(*values.device_threshold) << "\n";
  }
  if (values.host_threshold) {
    text << "host_threshold: " << format_number(*values.host_threshold) << "\n";
  }
  const fs::path temporary =
      target.string() + ".tmp." + std::to_string(static_cast<long long>(::getpid()));
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << text.str();
    out.close();
    if (!out) {
      fs::remove(temporary, ec);
      throw std::runtime_error("cannot write calibration file " + temporary.string());
    }
  }
  fs::rename(temporary, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw std::runtime_error("cannot move " + temporary.string() + " to " + path + ": " +
                             ec.message());
  }
}

}  // namespace hamon
