// SPDX-License-Identifier: Apache-2.0
// End-to-end NRPT throughput through the dispatcher, as a user calls it:
//
//   hamon::routed_nrpt(model, options, hamon::parse_device_spec(DEVICE))
//
// on a 2D periodic +-J Edwards-Anderson lattice (hamon::make_lattice({L, L}, true,
// pm_one(1))), L in {16, 32, 64, 128} x chains in {8, 16, 32} x n_expl in {1, 4}, ladder
// linear in beta from 0 to 1, no burn-in, no observers, for every device in --devices
// (default serial,openmp,auto; a device this build lacks is reported and skipped).
//
// Each point: one pilot call (warm-up; it also measures the rate), then --repeats timed
// calls (median; default 3) with rounds chosen so that one call takes about --seconds
// (default 0.3 s), at least 4 x chains rounds (so that round trips can happen) and at
// least 10. The time is the wall time of the whole dispatcher call: routing, model copy,
// random start, rounds, copy-back. The sweep path is the library's own choice (the lattice
// fast path for these models, where core/ has it).
//
// Columns: spin updates per ns = free nodes x chains x n_expl x rounds / wall time;
// round trips per second = result.total_round_trips / wall time (round trips of the
// index process, summed over machines, over the measured rounds).
//
//   bench_end_to_end [--out FILE.md] [--devices serial,openmp,auto] [--seconds S]
//                    [--repeats N] [--quick]
//
// --quick: L in {16, 32} x chains 8 x n_expl 1, 0.02 s per call, one repeat (a smoke
// test; its numbers are not a measurement). The markdown table goes to stdout and to --out.
// Recorded results: perf/results/end_to_end/ (the current one is named in
// perf/results/README.md).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_machine.hpp"
#include "bench_text.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/dispatch.hpp"

namespace {

using hamon_perf::machine_description;
using hamon_perf::split;
using hamon_perf::split_ints;
using hamon_perf::utc_now;

constexpr std::uint64_t kSeed = 7;

struct Config {
  std::vector<int> sizes = {16, 32, 64, 128};
  std::vector<int> chains = {8, 16, 32};
  std::vector<int> n_expl = {1, 4};
  std::vector<std::string> devices = {"serial", "openmp", "auto"};
  double seconds = 0.3;  // target wall time of one timed call
  int repeats = 3;
  std::string out;
};

struct Point {
  std::string device;
  std::string space;
  int side = 0;
  int chains = 0;
  int n_expl = 0;
  std::int64_t rounds = 0;
  double seconds = 0.0;  // median wall time of one call
  std::int64_t updates = 0;
  std::int64_t round_trips = 0;  // of the median call
};

std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : fallback;
}

struct Call {
  double seconds = 0.0;
  hamon::RoutedResult routed;
};

Call run_once(const hamon::SpinModel& model, const hamon::NrptOptions& options,
              const hamon::DeviceSpec& spec) {
  Call call;
  const auto start = std::chrono::steady_clock::now();
  call.routed = hamon::routed_nrpt(model, options, spec);
  call.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return call;
}

Point measure(const Config& config, const std::string& device, const hamon::SpinModel& model,
              int side, int chains, int n_expl) {
  const hamon::DeviceSpec spec = hamon::parse_device_spec(device);
  hamon::NrptOptions options;
  options.n_chains = chains;
  options.n_expl = n_expl;
  options.beta_min = 0.0;
  options.beta_max = 1.0;
  options.seed = kSeed;
  // Pilot: about 1e6 updates (a few ms), which also warms the space up.
  const double per_round = static_cast<double>(model.n_free()) * chains * n_expl;
  options.n_rounds = std::max<std::int64_t>(2, static_cast<std::int64_t>(1e6 / per_round));
  const Call pilot = run_once(model, options, spec);
  const double rate = static_cast<double>(pilot.routed.result.spin_updates) / pilot.seconds;
  const std::int64_t floor_rounds =
      std::max<std::int64_t>(10, 4 * static_cast<std::int64_t>(chains));
  options.n_rounds =
      std::max(floor_rounds, static_cast<std::int64_t>(config.seconds * rate / per_round));

  std::vector<Call> calls;
  for (int k = 0; k < config.repeats; ++k) calls.push_back(run_once(model, options, spec));
  std::sort(calls.begin(), calls.end(),
            [](const Call& a, const Call& b) { return a.seconds < b.seconds; });
  const Call& median = calls[calls.size() / 2];

  Point p;
  p.device = device;
  p.space = median.routed.execution_space;
  p.side = side;
  p.chains = chains;
  p.n_expl = n_expl;
  p.rounds = options.n_rounds;
  p.seconds = median.seconds;
  p.updates = median.routed.result.spin_updates;
  p.round_trips = median.routed.result.total_round_trips;
  return p;
}

std::string fixed(double value, int digits) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(digits);
  out << value;
  return out.str();
}

std::string table_row(const Point& p) {
  std::ostringstream row;
  row << "| " << p.device << " | " << p.space << " | " << p.side << " | " << p.chains << " | "
      << p.n_expl << " | " << p.rounds << " | " << fixed(p.seconds, 3) << " | "
      << fixed(static_cast<double>(p.updates) / p.seconds * 1e-9, 3) << " | " << p.round_trips
      << " | " << fixed(static_cast<double>(p.round_trips) / p.seconds, 1) << " |";
  return row.str();
}

void usage() {
  std::cout << "bench_end_to_end [--out FILE.md] [--devices serial,openmp,auto] [--seconds S]\n"
               "                 [--repeats N] [--sizes 16,32] [--chains 8,16] [--n-expl 1,4]\n"
               "                 [--quick]\n"
               "Full NRPT runs of a 2D +-J EA lattice through hamon::routed_nrpt(model, options, "
               "device);\nsee the top of perf/bench_end_to_end.cpp.\n";
}

}  // namespace

int main(int argc, char** argv) {
  Config config;
  std::ostringstream command;
  command << "OMP_PROC_BIND=" << env_or("OMP_PROC_BIND", "(unset)")
          << " OMP_NUM_THREADS=" << env_or("OMP_NUM_THREADS", "(unset)");
  for (int k = 0; k < argc; ++k) command << " " << argv[k];
  try {
    for (int k = 1; k < argc; ++k) {
      const std::string arg = argv[k];
      auto value = [&]() -> std::string {
        if (k + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
        return argv[++k];
      };
      if (arg == "--help" || arg == "-h") {
        usage();
        return 0;
      } else if (arg == "--out") {
        config.out = value();
      } else if (arg == "--devices") {
        config.devices = split(value());
      } else if (arg == "--seconds") {
        config.seconds = std::stod(value());
      } else if (arg == "--repeats") {
        config.repeats = std::max(1, std::stoi(value()));
      } else if (arg == "--sizes") {
        config.sizes = split_ints(value());
      } else if (arg == "--chains") {
        config.chains = split_ints(value());
      } else if (arg == "--n-expl") {
        config.n_expl = split_ints(value());
      } else if (arg == "--quick") {
        config.sizes = {16, 32};
        config.chains = {8};
        config.n_expl = {1};
        config.seconds = 0.02;
        config.repeats = 1;
      } else if (arg.rfind("--kokkos", 0) == 0) {
        // Kokkos's own options.
      } else {
        throw std::invalid_argument("unknown argument " + arg);
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_end_to_end: " << e.what() << "\n";
    usage();
    return 2;
  }

  Kokkos::ScopeGuard kokkos(argc, argv);
  const auto started = std::chrono::steady_clock::now();
  std::string title = config.out.empty() ? "end_to_end" : config.out;
  title = title.substr(title.find_last_of('/') + 1);
  title = title.substr(0, title.rfind(".md"));
  std::vector<std::string> lines = {
      "# " + title,
      "",
      "- machine: " + machine_description(),
      "- date: " + utc_now(),
      "- command: `" + command.str() + "`",
      "- model: 2D periodic +-J EA lattice (make_lattice({L, L}, true, pm_one(1))), ladder linear "
      "in beta over [0, 1], no burn-in, no observers, seed 7",
      "- time: wall time of one hamon::routed_nrpt(model, options, parse_device_spec(device)) call "
      "(routing, model copy, random start, rounds, copy-back), median of " +
          std::to_string(config.repeats) + ", after one warm-up call",
      "",
      "| device | space | L | chains | n_expl | rounds | wall s | spin updates/ns | round trips "
      "| round trips/s |",
      "|---|---|---|---|---|---|---|---|---|---|",
  };
  for (const auto& line : lines) std::cout << line << "\n";
  std::vector<std::string> skipped;
  for (const auto& device : config.devices) {
    try {
      for (int side : config.sizes) {
        const hamon::SpinModel model =
            hamon::make_lattice({side, side}, true, hamon::ValueDistribution::pm_one(1));
        for (int chains : config.chains) {
          for (int n_expl : config.n_expl) {
            const Point p = measure(config, device, model, side, chains, n_expl);
            lines.push_back(table_row(p));
            std::cout << lines.back() << std::endl;
          }
        }
      }
    } catch (const std::exception& e) {
      skipped.push_back("- skipped device `" + device + "`: " + e.what());
      std::cout << skipped.back() << std::endl;
    }
  }
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  lines.push_back("");
  for (const auto& s : skipped) lines.push_back(s);
  lines.push_back("- whole grid: " + fixed(total, 1) + " s");
  std::cout << "\n- whole grid: " << fixed(total, 1) << " s\n";
  if (!config.out.empty()) {
    std::ofstream file(config.out);
    for (const auto& line : lines) file << line << "\n";
    if (!file) {
      std::cerr << "bench_end_to_end: cannot write " << config.out << "\n";
      return 1;
    }
  }
  return 0;
}
