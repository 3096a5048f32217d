// SPDX-License-Identifier: Apache-2.0
#pragma once
// The work score and the thresholds it is compared with, and the calibration file that
// `hamon calibrate` writes (hamon/policies/calibrate.hpp) so a machine is calibrated once.
//
// Precedence of every threshold: argument > environment variable > calibration file >
// built-in default.
//
// Calibration file: plain `key: value` lines (a YAML subset, parsed here without yaml-cpp
// so the core library stays light); blank lines and lines starting with '#' are ignored,
// as is a trailing " # comment"; unknown keys are ignored (room for metadata such as the
// machine name). Known keys:
//   device_threshold: 4096
//   host_threshold: 2048

#include <cstdint>
#include <optional>
#include <string>

namespace hamon {

/// n_chains * n_free_nodes: the width of the parallel front a call works on. Rounds are
/// excluded on purpose (the round loop is one device-side loop; its per-round dispatch
/// does not grow with the round count). Throws std::invalid_argument for a negative input
/// and std::overflow_error when the product does not fit in 64 bits.
std::int64_t work_score(std::int64_t n_chains, std::int64_t n_free_nodes);

enum class ThresholdSource { argument, environment, calibration_file, default_value };

/// "argument", "environment", "calibration file", "default".
std::string to_string(ThresholdSource source);

struct Threshold {
  double value = 0.0;
  ThresholdSource source = ThresholdSource::default_value;
  std::string origin;  // "argument", the variable name, the file path, or "default"
};

/// The seed's steady-state crossover (RTX 5080); `hamon calibrate` measures ours.
inline constexpr double kDefaultDeviceThreshold = 4096.0;

/// Serial below, OpenMP at or above: the crossover measured on the 2-core reference machine
/// (perf/results/device_crossover/2026-11-30-host.md), and where host kernels start to
/// fork at all: a colour sweep below core's kInlineHostWork (8192 register lanes, half the
/// nodes times the chains rounded up to 16) runs on the calling thread in either space, so
/// below this OpenMP's threads have nothing to do but spin. `hamon calibrate` measures the
/// value per machine.
inline constexpr double kDefaultHostThreshold = 16384.0;

inline constexpr const char* kDeviceThresholdEnv = "HAMON_DEVICE_THRESHOLD";
inline constexpr const char* kHostThresholdEnv = "HAMON_HOST_THRESHOLD";
inline constexpr const char* kCalibrationEnv = "HAMON_CALIBRATION";

/// Throws std::invalid_argument (naming the variable and its value) when
/// HAMON_DEVICE_THRESHOLD or HAMON_HOST_THRESHOLD is set to something that is not a
/// threshold, whether or not a call would read it.
void check_threshold_environment();

/// Score at or above which `auto` picks the accelerator: `arg` > HAMON_DEVICE_THRESHOLD >
/// the calibration file's device_threshold > 4096. Throws std::invalid_argument for a
/// negative or NaN value (naming the argument, the variable and its value, or path:line).
Threshold device_threshold(std::optional<double> arg = {});

/// Score at or above which the host tier picks OpenMP over Serial: `arg` >
/// HAMON_HOST_THRESHOLD > the calibration file's host_threshold > kDefaultHostThreshold.
/// Errors as for device_threshold.
Threshold host_threshold(std::optional<double> arg = {});

struct CalibrationValues {
  std::optional<double> device_threshold;
  std::optional<double> host_threshold;
};

/// HAMON_CALIBRATION if set (an empty value disables the file: nullopt), else
/// ${XDG_CONFIG_HOME:-$HOME/.config}/hamon/calibration.yaml; nullopt when neither
/// XDG_CONFIG_HOME nor HOME is set.
std::optional<std::string> calibration_file_path();

/// Reads a calibration file. A missing file gives empty values; an unreadable or malformed
/// one (no ':', a bad or negative number, a key given twice) throws std::runtime_error
/// naming path:line.
CalibrationValues read_calibration(const std::string& path);

/// Writes `values` (absent ones are left out) atomically: a temporary file next to `path`
/// is written and renamed over it, so a reader never sees half a file. Creates the parent
/// directory. Throws std::runtime_error on failure.
void write_calibration(const std::string& path, const CalibrationValues& values);

}  // namespace hamon
