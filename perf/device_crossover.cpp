// SPDX-License-Identifier: Apache-2.0
// Device crossover: where each execution space starts to pay off, and what `auto` costs.
// The C++ counterpart of the Python hamon's benchmarks/device_crossover.py; the steady-state
// measurement and the recommendation are the library's (hamon/policies/calibrate.hpp), which
// `hamon calibrate` runs and installs: this tool adds cold starts, `auto` and its regret.
//
// Sweep: periodic 2D ferromagnet L x L, L in {8, 16, 32, 64, 128} x chains in {4, 8, 16,
// 32}, ladder linear from beta 0 to 0.44, 100 rounds x 2 Gibbs sweeps (n_expl = 2), no
// observers. Every enabled space (Serial, OpenMP, Cuda when a device is visible) is called
// through the dispatcher with an explicit spec, and `auto` as a user would call it.
//   steady  median of --repeats (5) timed calls after one warm-up call, spaces
//           interleaved; a point whose repeats spread by more than 25 % of their median
//           (something else ran) is measured again, up to --retries (2) times, and the
//           quietest attempt is kept
//   cold    the first call in a fresh process: the program re-runs itself with
//           `--cold SPACE L CHAINS`, which times from before the model is built to the
//           result (Kokkos::initialize excluded) and prints the seconds; median of
//           --cold-repeats (3) processes
// Score = chains x free nodes = chains x L^2 (rounds excluded, as in the routing rule).
//
// Recommendations (from the steady-state table, powers of two):
//   host threshold    smallest power of two at or above which OpenMP beats Serial at
//                     every measured point
//   device threshold  the same for Cuda against the best host space at each point, or
//                     "no accelerator" when none is visible
// `auto`'s regret at a point = auto time / best fixed-space time - 1.
//
//   device_crossover [--quick] [--repeats N] [--retries N] [--cold-repeats N] [--no-cold]
//                    [--rounds N] [--sizes 8,16] [--chains 4,8] [--out FILE.csv]
//                    [--write [PATH]]
//
// --quick: L in {8, 16} x chains in {4, 8}, 20 rounds, one repeat, no retries (a smoke
// test of a few seconds; its numbers are not a calibration).
//
// --write stores the recommendation with hamon::write_calibration (default path:
// hamon::calibration_file_path(), i.e. $HAMON_CALIBRATION or
// ${XDG_CONFIG_HOME:-~/.config}/hamon/calibration.yaml); a value this run could not
// measure (no accelerator, one host backend) keeps what the file had.
#include <sys/wait.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/calibrate.hpp"
#include "hamon/policies/dispatch.hpp"
#include "hamon/policies/thresholds.hpp"

namespace {

constexpr double kNoisy = hamon::kCalibrationNoisy;

struct Config {
  std::vector<int> sizes = {8, 16, 32, 64, 128};
  std::vector<int> chains = {4, 8, 16, 32};
  std::int64_t rounds = 100;
  std::int32_t n_expl = 2;
  int repeats = 5;       // timed steady-state calls per space and point (median)
  int retries = 2;       // extra steady-state attempts for a noisy point
  int cold_repeats = 3;  // fresh processes per space and point (median)
  bool cold = true;
  bool write = false;
  std::optional<std::string> write_path;
  std::optional<std::string> out;
};

// A space as the benchmark names it ("auto" is the router); the fixed ones and the
// steady-state measurement come from hamon/policies/calibrate.hpp, as `hamon calibrate`'s.
using Space = hamon::CalibrationSpace;

hamon::CalibrationSweep sweep_of(const Config& config) {
  hamon::CalibrationSweep sweep;
  sweep.sides = config.sizes;
  sweep.chains = config.chains;
  sweep.rounds = config.rounds;
  sweep.n_expl = config.n_expl;
  sweep.repeats = config.repeats;
  sweep.retries = config.retries;
  return sweep;
}

hamon::DeviceSpec spec_named(const std::string& name) {
  return name == "auto" ? hamon::DeviceSpec::auto_() : hamon::parse_device_spec(name);
}

// The 1-, 5- and 15-minute load averages, to tell whether something else was running.
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(in >> one >> five >> fifteen)) return "unknown";
  return one + " " + five + " " + fifteen;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// ---- the cold child ------------------------------------------------------------------

int run_cold_child(const Config& config, const std::string& space, int side, int chains) {
  const auto start = std::chrono::steady_clock::now();
  const hamon::SpinModel model = hamon::calibration_model(side);
  const hamon::RoutedResult routed = hamon::routed_nrpt(
      model, hamon::calibration_options(sweep_of(config), chains), spec_named(space));
  const double seconds = seconds_since(start);
  std::cout << "cold_seconds " << std::setprecision(9) << seconds << "\n"
            << "cold_placement " << to_string(routed.decision.placement) << ":"
            << routed.execution_space << "\n"
            << "cold_updates " << routed.result.spin_updates << std::endl;
  return 0;
}

std::string self_path(const char* argv0) {
  std::vector<char> buffer(4096);
  const ssize_t n = ::readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
  if (n > 0) return std::string(buffer.data(), static_cast<std::size_t>(n));
  return argv0;
}

// Runs `args` as a child process; returns its combined stdout and stderr, or throws.
std::string run_child(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[1]);
    ::execv(argv[0], argv.data());
    std::perror("execv");
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string output;
  char chunk[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n > 0) {
      output.append(chunk, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("cold child '" + args[1] + " " + args[2] + " " + args[3] + " " +
                             args[4] + "' failed:\n" + output);
  }
  return output;
}

struct ColdRun {
  double seconds = 0.0;
  std::string placement;
};

ColdRun cold_run(const Config& config, const std::string& self, const std::string& space, int side,
                 int chains) {
  const std::string output =
      run_child({self, "--cold", space, std::to_string(side), std::to_string(chains), "--rounds",
                 std::to_string(config.rounds), "--n-expl", std::to_string(config.n_expl)});
  ColdRun run;
  bool found = false;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "cold_seconds") {
      found = static_cast<bool>(words >> run.seconds);
    } else if (key == "cold_placement") {
      words >> run.placement;
    }
  }
  if (!found) throw std::runtime_error("cold child printed no cold_seconds:\n" + output);
  return run;
}

// ---- the sweep ---------------------------------------------------------------------------

struct Point {
  int side = 0;
  int chains = 0;
  std::int64_t score = 0;
  std::map<std::string, double> steady;  // by space name, "auto" included
  std::map<std::string, double> cold;
  double spread = 0.0;      // largest (max - min) / median over the repeats of any space
  int attempts = 0;         // steady-state measurements made (noisy ones are retried)
  std::string auto_steady;  // "placement:Space"
  std::string auto_cold;
};

// The fixed space with the smallest time at a point.
std::string best_of(const std::map<std::string, double>& times, const std::vector<Space>& fixed) {
  std::string best;
  for (const Space& s : fixed) {
    const auto it = times.find(s.name);
    if (it != times.end() && (best.empty() || it->second < times.at(best))) best = s.name;
  }
  return best;
}

double regret(const std::map<std::string, double>& times, const std::vector<Space>& fixed) {
  return times.at("auto") / times.at(best_of(times, fixed)) - 1.0;
}

Point measure(const Config& config, const std::vector<Space>& fixed, const std::string& self,
              int side, int chains) {
  Point p;
  p.side = side;
  p.chains = chains;
  std::vector<Space> spaces = fixed;
  spaces.push_back({"auto", hamon::DeviceSpec::auto_()});
  const hamon::CalibrationPoint steady =
      hamon::measure_calibration_point(sweep_of(config), spaces, side, chains);
  p.score = steady.score;
  p.steady = steady.seconds;
  p.spread = steady.spread;
  p.attempts = steady.attempts;
  p.auto_steady = steady.ran.at("auto");

  if (config.cold) {
    std::map<std::string, std::vector<double>> samples;
    for (int rep = 0; rep < config.cold_repeats; ++rep) {
      for (const Space& s : spaces) {
        const ColdRun run = cold_run(config, self, s.name, side, chains);
        samples[s.name].push_back(run.seconds);
        if (s.name == "auto") p.auto_cold = run.placement;
      }
    }
    for (const auto& [name, times] : samples) p.cold[name] = median(times);
  }
  return p;
}

// ---- recommendations ---------------------------------------------------------------------

// The library's recommendation over the steady-state table (the fixed spaces' times).
hamon::ThresholdRecommendation crossover(const std::vector<Point>& points,
                                         const std::string& faster, const std::string& slower) {
  std::vector<hamon::CalibrationPoint> table;
  for (const Point& p : points) {
    hamon::CalibrationPoint c;
    c.side = p.side;
    c.chains = p.chains;
    c.score = p.score;
    c.seconds = p.steady;
    c.seconds.erase("auto");
    table.push_back(std::move(c));
  }
  return hamon::recommend_threshold(table, faster, slower);
}

// ---- output ------------------------------------------------------------------------------

std::string fmt(double v, int precision = 4) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(precision) << v;
  return out.str();
}

std::string pct(double v) {
  std::ostringstream out;
  out << std::showpos << std::fixed << std::setprecision(1) << 100.0 * v << "%";
  return out.str();
}

void print_table(std::ostream& out, const std::vector<Point>& points,
                 const std::vector<Space>& fixed, bool cold,
                 const std::optional<std::int64_t>& host_threshold) {
  out << (cold ? "cold (first call in a fresh process), seconds\n"
               : "steady state (median), seconds\n");
  out << std::setw(4) << "L" << std::setw(7) << "chains" << std::setw(8) << "score";
  for (const Space& s : fixed) out << std::setw(10) << s.name;
  out << std::setw(10) << "auto" << std::setw(8) << "best" << std::setw(20) << "auto ran"
      << std::setw(9) << "regret";
  const bool tier = !cold && host_threshold.has_value();
  if (tier) out << std::setw(9) << "tier" << std::setw(9) << "regret";
  if (!cold) out << std::setw(8) << "spread";
  out << "\n";
  for (const Point& p : points) {
    const auto& times = cold ? p.cold : p.steady;
    out << std::setw(4) << p.side << std::setw(7) << p.chains << std::setw(8) << p.score;
    for (const Space& s : fixed) out << std::setw(10) << fmt(times.at(s.name));
    out << std::setw(10) << fmt(times.at("auto")) << std::setw(8) << best_of(times, fixed)
        << std::setw(20) << (cold ? p.auto_cold : p.auto_steady) << std::setw(9)
        << pct(regret(times, fixed));
    if (tier) {
      const std::string pick = p.score < *host_threshold ? "serial" : "openmp";
      out << std::setw(9) << pick << std::setw(9)
          << pct(times.at(pick) / times.at(best_of(times, fixed)) - 1.0);
    }
    if (!cold)
      out << std::setw(7) << std::lround(100.0 * p.spread) << "%"
          << (p.spread > kNoisy ? " !" : "");
    out << "\n";
  }
}

void write_csv(const std::string& path, const std::vector<Point>& points,
               const std::vector<Space>& fixed, bool with_cold) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "mode,L,chains,score";
  for (const char* name : {"serial", "openmp", "cuda"}) out << "," << name << "_s";
  out << ",auto_s,best_fixed,auto_ran,auto_regret,spread,attempts\n";
  for (const char* mode : {"steady", "cold"}) {
    const bool cold = std::string(mode) == "cold";
    if (cold && !with_cold) continue;
    for (const Point& p : points) {
      const auto& times = cold ? p.cold : p.steady;
      out << mode << "," << p.side << "," << p.chains << "," << p.score;
      for (const char* name : {"serial", "openmp", "cuda"}) {
        out << ",";
        const auto it = times.find(name);
        if (it != times.end()) out << std::setprecision(9) << it->second;
      }
      out << "," << std::setprecision(9) << times.at("auto") << "," << best_of(times, fixed) << ","
          << (cold ? p.auto_cold : p.auto_steady) << "," << regret(times, fixed) << ","
          << (cold ? std::string() : std::to_string(p.spread)) << ","
          << (cold ? std::string() : std::to_string(p.attempts)) << "\n";
    }
  }
  if (!out) throw std::runtime_error("error writing " + path);
}

// ---- command line ------------------------------------------------------------------------

std::vector<int> parse_list(const std::string& text, const char* option) {
  std::vector<int> values;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    try {
      std::size_t used = 0;
      const int v = std::stoi(item, &used);
      if (used != item.size() || v < 1) throw std::invalid_argument(item);
      values.push_back(v);
    } catch (const std::exception&) {
      throw std::invalid_argument(std::string(option) + ": '" + item +
                                  "' is not a positive integer");
    }
  }
  if (values.empty()) throw std::invalid_argument(std::string(option) + " needs values");
  return values;
}

int parse_int(const std::string& text, const char* option) {
  return parse_list(text, option).at(0);
}

[[noreturn]] void usage(const std::string& error) {
  const bool help = error.empty();
  std::ostream& out = help ? std::cout : std::cerr;
  if (!help) out << "device_crossover: " << error << "\n";
  out << "usage: device_crossover [--quick] [--repeats N] [--retries N] [--cold-repeats N]\n"
         "                        [--no-cold] [--rounds N] [--sizes L,L,...]\n"
         "                        [--chains C,C,...] [--out FILE.csv] [--write [PATH]]\n";
  if (help) {
    out << "\nTimes NRPT (periodic 2D ferromagnet, beta 0..0.44, 100 rounds x 2 sweeps) for\n"
           "L in {8,16,32,64,128} x chains in {4,8,16,32} on every enabled space and `auto`,\n"
           "steady-state and cold, and recommends power-of-two routing thresholds.\n"
           "  --quick           L in {8,16} x chains in {4,8}, 20 rounds, 1 repeat (smoke test)\n"
           "  --repeats N       timed calls per space and point, median (default 5)\n"
           "  --retries N       re-measure a noisy point up to N times (default 2)\n"
           "  --cold-repeats N  fresh processes per space and point, median (default 3)\n"
           "  --no-cold         skip the cold (fresh process) measurements\n"
           "  --out FILE        write the tables as CSV\n"
           "  --write [PATH]    store the thresholds with hamon::write_calibration (default:\n"
           "                    $HAMON_CALIBRATION or ~/.config/hamon/calibration.yaml)\n";
  }
  std::exit(help ? 0 : 2);
}

}  // namespace

int main(int argc, char** argv) {
  Config config;
  std::optional<std::string> cold_space;
  int cold_side = 0;
  int cold_chains = 0;
  try {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a.rfind("--kokkos", 0) != 0) args.push_back(a);
    }
    auto value = [&](std::size_t& i, const std::string& option) {
      if (i + 1 >= args.size()) usage(option + " needs a value");
      return args[++i];
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a == "--quick") {
        config.sizes = {8, 16};
        config.chains = {4, 8};
        config.rounds = 20;
        config.repeats = 1;
        config.retries = 0;
        config.cold_repeats = 1;
      } else if (a == "--retries") {
        const std::string text = value(i, a);
        config.retries = text == "0" ? 0 : parse_int(text, "--retries");
      } else if (a == "--cold-repeats") {
        config.cold_repeats = parse_int(value(i, a), "--cold-repeats");
      } else if (a == "--repeats") {
        config.repeats = parse_int(value(i, a), "--repeats");
      } else if (a == "--rounds") {
        config.rounds = parse_int(value(i, a), "--rounds");
      } else if (a == "--n-expl") {
        config.n_expl = parse_int(value(i, a), "--n-expl");
      } else if (a == "--sizes") {
        config.sizes = parse_list(value(i, a), "--sizes");
      } else if (a == "--chains") {
        config.chains = parse_list(value(i, a), "--chains");
      } else if (a == "--no-cold") {
        config.cold = false;
      } else if (a == "--out") {
        config.out = value(i, a);
      } else if (a == "--write") {
        config.write = true;
        if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) config.write_path = args[++i];
      } else if (a == "--cold") {
        if (i + 3 >= args.size()) usage("--cold needs SPACE L CHAINS");
        cold_space = args[++i];
        cold_side = parse_int(args[++i], "--cold L");
        cold_chains = parse_int(args[++i], "--cold CHAINS");
      } else if (a == "--help" || a == "-h") {
        usage("");
      } else {
        usage("unknown argument '" + a + "'");
      }
    }
    for (int side : config.sizes) {
      if (side < 3) usage("--sizes: periodic lattices need L >= 3");
    }
  } catch (const std::invalid_argument& error) {
    usage(error.what());
  }

  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    if (cold_space) return run_cold_child(config, *cold_space, cold_side, cold_chains);

    const std::vector<Space> fixed = hamon::calibration_spaces();
    if (fixed.empty()) throw std::runtime_error("no execution space to measure");
    const std::string self = self_path(argv[0]);
    std::cout << "device_crossover: periodic 2D ferromagnet, ladder beta 0.."
              << hamon::calibration_options(sweep_of(config), 1).beta_max << ", " << config.rounds
              << " rounds x " << config.n_expl << " sweeps\n  steady: median of " << config.repeats
              << " after a warm-up, up to " << config.retries << " retries of a noisy point";
    if (config.cold) std::cout << "; cold: median of " << config.cold_repeats << " fresh processes";
    std::cout << "\n  spaces:";
    for (const Space& s : fixed) std::cout << " " << s.name;
    std::cout << " auto\n";
#ifdef KOKKOS_ENABLE_OPENMP
    std::cout << "  OpenMP threads: " << Kokkos::OpenMP().concurrency() << "\n";
#endif
    const hamon::AcceleratorInfo accelerator = hamon::probe_accelerator();
    std::cout << "  accelerator: "
              << (accelerator.visible()
                      ? std::to_string(accelerator.visible_devices) + " CUDA device(s)"
                      : std::string(accelerator.compiled_in ? "none visible" : "not compiled in"))
              << "; DefaultExecutionSpace: " << Kokkos::DefaultExecutionSpace::name() << "\n";
    for (const char* variable :
         {"HAMON_DEVICE", "HAMON_DEVICE_THRESHOLD", "HAMON_HOST_THRESHOLD"}) {
      if (const char* v = std::getenv(variable)) {
        std::cout << "  note: " << variable << "=" << v << " is set; auto follows it\n";
      }
    }
    std::cout << "  load average before: " << load_average() << std::endl;

    std::vector<Point> points;
    for (int side : config.sizes) {
      for (int chains : config.chains) {
        points.push_back(measure(config, fixed, self, side, chains));
        const Point& p = points.back();
        std::cerr << "  measured L=" << side << " chains=" << chains << " score=" << p.score
                  << "\n";
      }
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const Point& a, const Point& b) { return a.score < b.score; });

    bool have_serial = false, have_openmp = false, have_cuda = false;
    for (const Space& s : fixed) {
      have_serial = have_serial || s.name == "serial";
      have_openmp = have_openmp || s.name == "openmp";
      have_cuda = have_cuda || s.name == "cuda";
    }
    std::optional<hamon::ThresholdRecommendation> host;
    std::optional<hamon::ThresholdRecommendation> device;
    if (have_serial && have_openmp) host = crossover(points, "openmp", "serial");
    if (have_cuda) device = crossover(points, "cuda", "best-host");

    std::cout << "  load average after: " << load_average() << "\n\n";
    print_table(std::cout, points, fixed, false,
                host ? std::optional<std::int64_t>(host->threshold) : std::nullopt);
    std::cout << "  regret = auto / best fixed space - 1; spread = (max - min) / median of the "
                 "repeats, worst space";
    if (host) {
      std::cout << "; tier = what the host tier with the recommended host threshold would run "
                   "(fitted on this same table)";
    }
    std::cout << "\n";
    if (config.cold) {
      std::cout << "\n";
      print_table(std::cout, points, fixed, true, std::nullopt);
    }
    double worst = -1.0;
    std::string worst_at;
    int over = 0;
    for (const Point& p : points) {
      const double r = regret(p.steady, fixed);
      if (r > 0.10) ++over;
      if (r > worst) {
        worst = r;
        worst_at = "L=" + std::to_string(p.side) + " chains=" + std::to_string(p.chains);
      }
    }
    int noisy = 0;
    for (const Point& p : points) noisy += p.spread > kNoisy ? 1 : 0;
    if (noisy > 0) {
      std::cout << "warning: " << noisy << " of " << points.size()
                << " points are noisy (repeats spread > " << std::lround(100 * kNoisy)
                << "% of their median, marked !): was something else running?\n";
    }
    std::cout << "\nauto regret (steady): worst " << pct(worst) << " at " << worst_at << "; "
              << over << " of " << points.size() << " points above +10%\n";
    std::cout << "recommended host threshold: ";
    if (host) {
      std::cout << host->threshold << "  (" << host->note << ")\n";
    } else {
      std::cout << "n/a (needs both Serial and OpenMP)\n";
    }
    std::cout << "recommended device threshold: ";
    if (device) {
      std::cout << device->threshold << "  (" << device->note << ")\n";
    } else {
      std::cout << "no accelerator\n";
    }

    if (config.out) {
      write_csv(*config.out, points, fixed, config.cold);
      std::cout << "wrote " << *config.out << "\n";
    }
    if (config.write) {
      const std::optional<std::string> path =
          config.write_path ? config.write_path : hamon::calibration_file_path();
      if (!path) {
        throw std::runtime_error(
            "--write: no calibration path (HAMON_CALIBRATION is empty, or neither "
            "XDG_CONFIG_HOME nor HOME is set); pass --write PATH");
      }
      hamon::CalibrationValues values = hamon::read_calibration(*path);
      if (host) values.host_threshold = static_cast<double>(host->threshold);
      if (device) values.device_threshold = static_cast<double>(device->threshold);
      hamon::write_calibration(*path, values);
      std::cout << "wrote calibration " << *path << ":";
      if (values.device_threshold) std::cout << " device_threshold=" << *values.device_threshold;
      if (values.host_threshold) std::cout << " host_threshold=" << *values.host_threshold;
      std::cout << (device ? "" : " (device threshold not measured: kept as it was)") << "\n";
    }
  } catch (const std::exception& error) {
    std::cerr << "device_crossover: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
