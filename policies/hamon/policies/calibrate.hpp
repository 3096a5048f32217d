// SPDX-License-Identifier: Apache-2.0
#pragma once
// Calibration of the routing thresholds (docs/routing.md, "Calibration"): NRPT timed on
// periodic 2D ferromagnets L x L (beta linear from 0 to 0.44, n_expl = 2, no observers) in
// every enabled space, through the dispatcher with an explicit spec, and the power-of-two
// thresholds that follow:
//   host threshold    the smallest power of two at or above which OpenMP beats Serial at
//                     every measured point (needs both)
//   device threshold  the same for Cuda against the better host space at each point
//                     (needs a visible device)
// Steady state: one warm-up call per space, then `repeats` timed calls per space,
// interleaved so a slow spell hits every space alike; the median is kept. A point whose
// repeats spread by more than kCalibrationNoisy of their median (something else ran) is
// measured again, up to `retries` times, and the quietest attempt is kept.
// Score = chains x L^2 (rounds excluded, as in the routing rule). Timing is wall time
// (std::chrono::steady_clock); nothing here is asserted by tests.
//
// `hamon calibrate` runs this and writes the result with write_calibration;
// perf/device_crossover adds cold-start and `auto` measurements on top.

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/thresholds.hpp"

namespace hamon {

struct CalibrationSweep {
  std::vector<int> sides = {8, 16, 32, 64, 128};
  std::vector<int> chains = {4, 8, 16, 32};
  std::int64_t rounds = 100;
  std::int32_t n_expl = 2;
  int repeats = 5;  // timed calls per space and point (median)
  int retries = 2;  // extra attempts for a noisy point

  /// L in {8, 16} x chains in {4, 8}, 20 rounds, one repeat, no retries: a smoke test of a
  /// few seconds, whose numbers are not a calibration.
  static CalibrationSweep quick();
};

/// Repeats that spread by more than this fraction of their median mark a point as noisy.
inline constexpr double kCalibrationNoisy = 0.25;

/// A space the sweep times: "serial", "openmp", "cuda" (fixed spaces), or any other name
/// with its spec (perf/device_crossover adds "auto").
struct CalibrationSpace {
  std::string name;
  DeviceSpec spec;
};

/// The fixed spaces of this build: Serial and OpenMP when compiled in, Cuda when compiled
/// in and a device is visible.
std::vector<CalibrationSpace> calibration_spaces();

struct CalibrationPoint {
  int side = 0;
  int chains = 0;
  std::int64_t score = 0;
  std::map<std::string, double> seconds;   // median steady-state seconds, by space name
  std::map<std::string, std::string> ran;  // "placement:ExecutionSpace", by space name
  double spread = 0.0;                     // the largest (max - min) / median of a space
  int attempts = 0;                        // measurements made (noisy ones are retried)
};

/// The periodic L x L ferromagnet and the NRPT options every point uses.
SpinModel calibration_model(int side);
NrptOptions calibration_options(const CalibrationSweep& sweep, int chains);

/// Measures one point in `spaces` (see the top of this file). Throws std::runtime_error
/// when two spaces give different results (they must be bit-identical).
CalibrationPoint measure_calibration_point(const CalibrationSweep& sweep,
                                           const std::vector<CalibrationSpace>& spaces, int side,
                                           int chains);

struct ThresholdRecommendation {
  std::int64_t threshold = 0;
  std::string note;  // how it follows from the points
};

/// The smallest power of two T such that `faster` beats `slower` at every point with
/// score >= T. `slower` may be "best-host": the faster of serial and openmp at each point.
/// Needs at least one point, each with both spaces measured.
ThresholdRecommendation recommend_threshold(const std::vector<CalibrationPoint>& points,
                                            const std::string& faster, const std::string& slower);

struct CalibrationReport {
  std::vector<std::string> spaces;                // the fixed spaces measured
  std::vector<CalibrationPoint> points;           // ascending score
  std::optional<ThresholdRecommendation> host;    // with serial and openmp
  std::optional<ThresholdRecommendation> device;  // with cuda
};

/// The whole sweep over calibration_spaces(); `progress`, when given, gets one line per
/// measured point. Needs Kokkos initialised.
CalibrationReport run_calibration(const CalibrationSweep& sweep, std::ostream* progress = nullptr);

/// `previous` with every threshold the report measured replaced; the others are kept.
CalibrationValues calibrated_values(const CalibrationReport& report, CalibrationValues previous);

}  // namespace hamon
