// SPDX-License-Identifier: Apache-2.0
// `hamon calibrate`: measures where OpenMP beats Serial (and Cuda the host) on this machine
// and writes the thresholds into the calibration file every later call reads
// (hamon/policies/calibrate.hpp; docs/routing.md, "Calibration"). `--quick` is a smoke test
// whose timings are too short to route by, so it writes only where it is told to.
#include <unistd.h>  // access

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>

#include "commands/commands.hpp"
#include "hamon/policies/calibrate.hpp"
#include "hamon/policies/thresholds.hpp"
#include "run/kokkos_session.hpp"

namespace hamon::cli {

namespace {

struct CalibrateFlags {
  std::string output;
  bool quick = false;
  bool write = false;  // --quick: write the default file too

  /// A full calibration always writes; a quick one only to --output, or with --write.
  bool writes() const { return !quick || write || !output.empty(); }
};

// The file to write: --output, else the calibration file of every later call.
std::string target_path(const CalibrateFlags& flags) {
  if (!flags.output.empty()) return flags.output;
  if (const auto path = calibration_file_path()) return *path;
  throw UsageError(
      "no calibration file to write: HAMON_CALIBRATION is empty, or neither XDG_CONFIG_HOME "
      "nor HOME is set; pass --output FILE");
}

// Refuses, before anything is measured, a path that cannot be written: an existing
// directory, or a nearest existing ancestor that is not a writable directory.
void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target = fs::absolute(path, ec);
  if (ec) throw UsageError("--output " + path + ": " + ec.message());
  if (fs::is_directory(target, ec)) throw UsageError("--output " + path + ": is a directory");
  fs::path dir = target.parent_path();
  while (!dir.empty() && !fs::exists(dir, ec) && dir != dir.parent_path()) {
    dir = dir.parent_path();
  }
  if (!fs::is_directory(dir, ec)) {
    throw UsageError("--output " + path + ": " + dir.string() + " is not a directory");
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw UsageError("--output " + path + ": cannot write in " + dir.string());
  }
}

void print_points(std::ostream& out, const CalibrationReport& report) {
  out << "steady state (median), seconds\n"
      << std::setw(4) << "L" << std::setw(7) << "chains" << std::setw(8) << "score";
  for (const std::string& space : report.spaces) out << std::setw(10) << space;
  out << std::setw(8) << "spread\n";
  for (const CalibrationPoint& p : report.points) {
    out << std::setw(4) << p.side << std::setw(7) << p.chains << std::setw(8) << p.score;
    for (const std::string& space : report.spaces) {
      out << std::setw(10) << std::fixed << std::setprecision(4) << p.seconds.at(space);
    }
    out << std::setw(6) << static_cast<int>(100.0 * p.spread + 0.5) << "%"
        << (p.spread > kCalibrationNoisy ? " !" : "") << "\n";
  }
  out << std::defaultfloat;
}

// A threshold as the file has it: an integer when it is one (they are powers of two).
std::string threshold_text(double value) {
  if (value == std::trunc(value) && std::fabs(value) < 9.0e15) {
    return std::to_string(static_cast<long long>(value));
  }
  std::ostringstream text;
  text << std::setprecision(17) << value;
  return text.str();
}

void print_recommendation(std::ostream& out, const char* what,
                          const std::optional<ThresholdRecommendation>& r, const char* missing) {
  out << "recommended " << what << " threshold: ";
  if (r) {
    out << r->threshold << "  (" << r->note << ")\n";
  } else {
    out << "not measured (" << missing << "): kept as it was\n";
  }
}

int calibrate(const CalibrateFlags& flags) {
  // Where to write and what the file keeps are settled before anything is measured.
  std::string path;
  CalibrationValues previous;
  if (flags.writes()) {
    path = target_path(flags);
    check_writable(path);
    try {
      previous = read_calibration(path);  // what this run cannot measure is kept
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what() + std::string(" (fix or remove it, or pass another --output)"));
    }
  }
  const KokkosSession kokkos;
  const CalibrationSweep sweep = flags.quick ? CalibrationSweep::quick() : CalibrationSweep{};
  std::cout << "hamon calibrate"
            << (flags.quick ? " --quick (a smoke test, not a calibration)" : "")
            << ": NRPT on L x L ferromagnets, " << sweep.rounds << " rounds x " << sweep.n_expl
            << " sweeps, " << sweep.repeats << " repeat(s) per space" << std::endl;
  const CalibrationReport report = run_calibration(sweep, &std::cerr);
  print_points(std::cout, report);
  print_recommendation(std::cout, "host", report.host, "needs both Serial and OpenMP");
  print_recommendation(std::cout, "device", report.device, "no accelerator");
  if (!flags.writes()) {
    std::cout << "not written: a quick run is not a calibration (--output FILE or --write "
                 "writes it anyway)\n";
    return 0;
  }
  const CalibrationValues values = calibrated_values(report, previous);
  write_calibration(path, values);
  std::cout << "wrote calibration " << path << ":";
  if (values.device_threshold) {
    std::cout << " device_threshold=" << threshold_text(*values.device_threshold);
  }
  if (values.host_threshold) {
    std::cout << " host_threshold=" << threshold_text(*values.host_threshold);
  }
  std::cout << "\n";
  for (const char* variable : {kDeviceThresholdEnv, kHostThresholdEnv}) {
    if (std::getenv(variable) != nullptr) {
      std::cout << "note: " << variable << " is set and wins over the file\n";
    }
  }
  return 0;
}

}  // namespace

Command add_calibrate_command(CLI::App& app) {
  auto flags = std::make_shared<CalibrateFlags>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Measure this machine's routing thresholds and write the calibration file");
  sub->add_option("--output", flags->output,
                  "File to write (default: $HAMON_CALIBRATION, else "
                  "${XDG_CONFIG_HOME:-~/.config}/hamon/calibration.yaml)");
  sub->add_flag("--quick", flags->quick,
                "L in {8,16} x chains in {4,8}, 20 rounds, one repeat: a smoke test of a few "
                "seconds, not a calibration; writes nothing unless --output or --write");
  sub->add_flag("--write", flags->write,
                "with --quick: write its thresholds to the calibration file anyway");
  sub->footer(
      "Times NRPT on periodic L x L ferromagnets (L in {8..128}, 4..32 chains) in every\n"
      "enabled space and writes power-of-two thresholds; a threshold it cannot measure (no\n"
      "accelerator, one host backend) keeps the file's value. The file is replaced\n"
      "atomically. --quick prints its measurements and writes nothing, unless --output FILE\n"
      "names a file or --write asks for the calibration file. The host threshold routes\n"
      "--device cpu (and auto below the device threshold when a GPU is visible; without\n"
      "one, auto leaves placement alone). Exit status: 0, 1 the measurement or the write\n"
      "failed, 2 bad input (an output path that cannot be written, a malformed existing\n"
      "file).");
  return {sub, [flags] { return calibrate(*flags); }};
}

}  // namespace hamon::cli
