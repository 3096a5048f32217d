// SPDX-License-Identifier: Apache-2.0
// Tuning cache: a tuning-dominated flow, cold and repeated (docs/routing.md,
// "Persistent caches", item 2; target >= 70 % less wall time on the repeat).
//
// The flow, as a user runs it: build a periodic L x L ferromagnet (L = 32), autotune with
// the defaults (chains, exploration, schedule; beta from 0 to --beta-max = 0.5, across the
// transition at 0.4407), then a short production run (--rounds = 1000 measured rounds
// after 100 of burn-in, energies recorded) and its diagnostics.
//
// Each trial makes a fresh, empty cache directory and runs the flow twice, each time in a
// NEW PROCESS (this program re-executes itself with --child; HAMON_CACHE_DIR points at the
// trial's directory): "cold" finds the cache empty and tunes, "repeat" loads the plan and
// skips tuning. Wall time is measured by the parent from spawn to exit, so it includes
// process start, Kokkos::initialize and finalize: what a user waits for. The child also
// reports its own breakdown (autotune, production). --trials (3) trials; the summary takes
// the median of each column.
//
//   tuning_cache_bench [--trials N] [--size L] [--beta-max B] [--rounds N] [--device SPEC]
//                      [--seed S]
//
// --device is passed to autotune (default auto; on a CPU-only build auto leaves placement
// to Kokkos::DefaultExecutionSpace).
#include "hamon/policies/tuning_cache.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/policies/autotune.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Settings {
  int trials = 3;
  int size = 32;
  double beta_max = 0.5;
  long rounds = 1000;
  std::string device = "auto";
  unsigned long long seed = 1;
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// ---- the child: one run of the flow --------------------------------------------------

int run_flow(const Settings& s) {
  Kokkos::ScopeGuard kokkos;
  const auto start = Clock::now();
  const hamon::SpinModel model = hamon::make_lattice({s.size, s.size}, true);
  hamon::AutotuneOptions options;
  options.beta_max = s.beta_max;
  options.seed = s.seed;
  hamon::NrptOptions production;
  production.burn_in = 100;
  const hamon::AutosampleResult out =
      hamon::autosample(model, s.rounds, options, production, hamon::parse_device_spec(s.device));
  const double total = seconds_since(start);
  const hamon::Plan& plan = out.plan;
  // What the tuning ran (cold runs only), for the record.
  const hamon::TuningDetails& d = plan.details;
  if (d.chains) {
    for (const auto& it : d.chains->iterations) {
      std::printf("DETAIL chains: %s at N = %d: Lambda %.3f -> N* = %d\n",
                  it.pilot ? "pilot" : "tuned", it.n_chains, it.Lambda, it.recommended);
    }
    std::printf("DETAIL chains: %lld rounds run\n", static_cast<long long>(d.chains->rounds_run));
  }
  if (d.exploration) {
    for (const auto& p : d.exploration->probes) {
      std::printf("DETAIL exploration: n_expl %d: ESS %.1f in %.3f s -> %.1f /s\n", p.n_expl, p.ess,
                  p.seconds, p.ess_per_cost);
    }
  }
  if (d.schedule) {
    std::printf(
        "DETAIL polish: %zu phases, stop '%s', Lambda %.3f, rejection std %.3f, %lld rounds run\n",
        d.schedule->phases.size(), hamon::to_string(d.schedule->stop).c_str(),
        d.schedule->best.swaps.Lambda, d.schedule->best.rejection_std,
        static_cast<long long>(d.schedule->rounds_run));
  }
  // One line for the parent: cache_hit autotune_s flow_s n_chains n_expl Lambda
  // efficiency space health.
  std::printf("CHILD %d %.4f %.4f %d %d %.4f %.4f %s %s\n", plan.cache_hit ? 1 : 0, plan.seconds,
              total, plan.n_chains, plan.n_expl, plan.tuning.Lambda, out.result.efficiency,
              plan.execution_space.c_str(),
              hamon::to_string(out.diagnostics.health.overall).c_str());
  return 0;
}

// ---- the parent ----------------------------------------------------------------------

struct ChildReport {
  double wall = 0.0;  // spawn to exit, measured by the parent
  bool cache_hit = false;
  double autotune = 0.0;
  double flow = 0.0;  // model + autotune + production + diagnostics, in the child
  int n_chains = 0;
  int n_expl = 0;
  double lambda = 0.0;
  double efficiency = 0.0;
  std::string space;
  std::string health;
  std::string details;  // what the tuning ran, one line each
};

std::string self_path() {
  std::vector<char> buffer(4096);
  const ssize_t n = ::readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
  if (n <= 0) throw std::runtime_error("cannot read /proc/self/exe");
  return std::string(buffer.data(), static_cast<std::size_t>(n));
}

ChildReport run_child(const Settings& s, const std::filesystem::path& cache_dir) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const std::string exe = self_path();
  std::vector<std::string> args = {exe,          "--child",
                                   "--size",     std::to_string(s.size),
                                   "--beta-max", std::to_string(s.beta_max),
                                   "--rounds",   std::to_string(s.rounds),
                                   "--device",   s.device,
                                   "--seed",     std::to_string(s.seed)};
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    ::setenv(hamon::kTuningCacheDirEnv, cache_dir.c_str(), 1);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    std::perror("execv");
    std::_Exit(127);
  }
  ::close(pipe_fds[1]);
  std::string output;
  char chunk[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], chunk, sizeof chunk)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    output.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildReport r;
  r.wall = seconds_since(start);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("the child failed; its output:\n" + output);
  }
  const auto at = output.find("CHILD ");
  if (at == std::string::npos) throw std::runtime_error("no report from the child:\n" + output);
  int hit = 0;
  char space[64] = {0};
  char health[64] = {0};
  if (std::sscanf(output.c_str() + at, "CHILD %d %lf %lf %d %d %lf %lf %63s %63s", &hit,
                  &r.autotune, &r.flow, &r.n_chains, &r.n_expl, &r.lambda, &r.efficiency, space,
                  health) != 9) {
    throw std::runtime_error("unreadable report from the child:\n" + output);
  }
  r.cache_hit = hit != 0;
  for (std::size_t pos = output.find("DETAIL "); pos != std::string::npos;
       pos = output.find("DETAIL ", pos + 1)) {
    r.details += "  " + output.substr(pos + 7, output.find('\n', pos) - pos - 6);
  }
  r.space = space;
  r.health = health;
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void print_row(const char* label, int trial, const ChildReport& r) {
  std::printf("%-7s %5d %9.3f %9.3f %11.3f %4s %8d %6d %7.3f %6.3f  %s %s\n", label, trial, r.wall,
              r.flow, r.autotune, r.cache_hit ? "yes" : "no", r.n_chains, r.n_expl, r.lambda,
              r.efficiency, r.space.c_str(), r.health.c_str());
}

int run_parent(const Settings& s) {
  std::printf(
      "tuning cache: %dx%d periodic ferromagnet, beta 0..%g, autotune (defaults) + %ld "
      "production rounds, device %s, seed %llu, %d trials\n",
      s.size, s.size, s.beta_max, s.rounds, s.device.c_str(), s.seed, s.trials);
  std::printf("each run is a new process; wall = spawn to exit (parent), flow = in the child\n\n");
  std::printf("%-7s %5s %9s %9s %11s %4s %8s %6s %7s %6s  %s\n", "run", "trial", "wall_s", "flow_s",
              "autotune_s", "hit", "n_chains", "n_expl", "Lambda", "eff", "space health");
  std::vector<double> cold_wall, repeat_wall, cold_flow, repeat_flow;
  for (int trial = 1; trial <= s.trials; ++trial) {
    const auto dir =
        std::filesystem::temp_directory_path() /
        ("hamon-tuning-cache-bench-" + std::to_string(::getpid()) + "-" + std::to_string(trial));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const ChildReport cold = run_child(s, dir);
    const ChildReport repeat = run_child(s, dir);
    std::filesystem::remove_all(dir);
    if (cold.cache_hit || !repeat.cache_hit) {
      throw std::runtime_error("expected a miss then a hit in a fresh cache directory");
    }
    print_row("cold", trial, cold);
    std::printf("%s", cold.details.c_str());
    print_row("repeat", trial, repeat);
    cold_wall.push_back(cold.wall);
    repeat_wall.push_back(repeat.wall);
    cold_flow.push_back(cold.flow);
    repeat_flow.push_back(repeat.flow);
  }
  const double cw = median(cold_wall), rw = median(repeat_wall);
  const double cf = median(cold_flow), rf = median(repeat_flow);
  std::printf("\nmedian wall:  cold %.3f s, repeat %.3f s, reduction %.1f %%\n", cw, rw,
              100.0 * (1.0 - rw / cw));
  std::printf("median flow:  cold %.3f s, repeat %.3f s, reduction %.1f %%\n", cf, rf,
              100.0 * (1.0 - rf / cf));
  std::printf("target: >= 70 %% less wall time on the repeat: %s\n",
              1.0 - rw / cw >= 0.70 ? "met" : "NOT met");
  return 0;
}

Settings parse(int argc, char** argv, bool& child) {
  Settings s;
  child = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--child") {
      child = true;
    } else if (arg == "--trials") {
      s.trials = std::stoi(value());
    } else if (arg == "--size") {
      s.size = std::stoi(value());
    } else if (arg == "--beta-max") {
      s.beta_max = std::stod(value());
    } else if (arg == "--rounds") {
      s.rounds = std::stol(value());
    } else if (arg == "--device") {
      s.device = value();
    } else if (arg == "--seed") {
      s.seed = std::stoull(value());
    } else if (arg == "--help" || arg == "-h") {
      std::printf(
          "tuning_cache_bench [--trials N] [--size L] [--beta-max B] [--rounds N] "
          "[--device SPEC] [--seed S]\n");
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument " + arg);
    }
  }
  if (s.trials < 1 || s.size < 3 || s.rounds < 1) throw std::invalid_argument("bad settings");
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    bool child = false;
    const Settings s = parse(argc, argv, child);
    return child ? run_flow(s) : run_parent(s);
  } catch (const std::exception& e) {
    std::cerr << "tuning_cache_bench: " << e.what() << "\n";
    return 1;
  }
}
