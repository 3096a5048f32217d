// SPDX-License-Identifier: Apache-2.0
// Time to target: rounds and seconds until NRPT first reaches a given energy, over many
// seeds, and the TTS(99 %) estimate (time_to_target.hpp says how it is defined).
//
// Instances: generated W x M Ising strips (tests/support/ising_strip.hpp: the library's
// lattice builder, periodic across W, open along M), Gaussian couplings (or +-1) and
// Gaussian fields of a small deviation, instance k with the coupling and field seed
// --instance-seed + k; their exact ground-state energy (the default target) comes from the
// min-sum column transfer of tests/support/strip_ground_state.hpp. Or one model from a
// `hamon run` config file (--config), with an explicit --target.
//
// Each seed is one run from a random start, run(--chunk) rounds at a time with the energy
// trace of every chain going to a sink that notes the first round in which any chain's
// energy is <= target + --tolerance (relative, of |target|), until then or the round cap
// (--max-rounds). Rounds to target count every round run (burn-in included, for a config
// that has one: the trace covers measured rounds only, so a hit in burn-in shows after
// it). Seconds run from the sampler's construction (model copy, random start) to the hit
// round, interpolated within its chunk. t_run of TTS is the round cap at the mean seconds
// per round of all the seeds' runs; TTS at the best run length uses the seeds' hit rounds.
//
// A run that goes below an exact target by more than the tolerance means an oracle or the
// sampler is wrong: the tool says so and exits 1.
//
//   time_to_target [--strips 10x80] [--instances 10] [--instance-seed 1] [--couplings gaussian]
//                  [--field-std 0.1] [--config FILE] [--target E] [--tolerance 1e-9]
//                  [--seeds 10] [--max-rounds 20000] [--chunk 250] [--chains 32]
//                  [--beta-min 0.1] [--beta-max 5] [--sweeps 2] [--device auto]
//                  [--cluster-moves none] [--out FILE.md] [--write-instances DIR]
//
// --write-instances writes each generated instance as a graph file for `hamon run`
// (model: {kind: graph, file: ...}), its exact ground-state energy in a comment.
// --cluster-moves takes a comma-separated list, each a row per instance: `none` (one
// replica) or `houdayer` (two replicas with Houdayer's move between them at every rung).
// With two replicas a hit counts on replica 0's chains only (the trace records replica 0),
// while the seconds include both replicas' sweeps and the moves. Without --cluster-moves a
// --config model keeps its config's replicas and moves. Recorded results:
// perf/results/time_to_target/.
#include "time_to_target.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_machine.hpp"
#include "bench_text.hpp"
#include "config/parse_experiment.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/util/text.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/dispatch.hpp"
#include "ising_strip.hpp"
#include "run/build_model.hpp"
#include "run/nrpt_options.hpp"
#include "strip_ground_state.hpp"

namespace {

using hamon_perf::SeedRun;
using hamon_perf::TargetSummary;
using Clock = std::chrono::steady_clock;

struct Config {
  int width = 10, length = 80;
  int instances = 10;
  std::uint64_t instance_seed = 1;
  std::string couplings = "gaussian";
  double field_std = 0.1;
  std::string config_file;
  bool has_target = false;
  double target = 0.0;
  double tolerance = 1e-9;
  int seeds = 10;
  std::int64_t max_rounds = 20000;
  std::int64_t chunk = 250;
  int chains = 32;
  double beta_min = 0.1, beta_max = 5.0;
  int sweeps = 2;
  std::string device = "auto";
  // Empty: not given, so a config file keeps its own replicas and moves (generated
  // instances run `none`).
  std::vector<std::string> cluster_moves;
  std::string out;
  std::string write_instances;  // a directory for the generated instances as graph files
};

struct Instance {
  std::string name;
  hamon::SpinModel model;
  hamon::NrptOptions options;  // seed: the first run's
  double target = 0.0;
  bool exact = false;  // the target is the exact ground-state energy
};

/// The energy trace of every chain, searched for the first row at or below a threshold.
class LowestEnergy final : public hamon::TraceSink {
 public:
  explicit LowestEnergy(double threshold) : threshold_(threshold) {}
  void append_samples(const std::int8_t*, std::int64_t, std::int64_t) override {}
  void append_index_process(const std::int32_t*, std::int64_t, std::int64_t) override {}
  void append_energies(const double* rows, std::int64_t n_rows, std::int64_t columns) override {
    for (std::int64_t r = 0; r < n_rows; ++r) {
      for (std::int64_t c = 0; c < columns; ++c) {
        const double e = rows[r * columns + c];
        lowest = std::min(lowest, e);
        if (hit_row < 0 && e <= threshold_) hit_row = rows_seen + r;
      }
    }
    rows_seen += n_rows;
  }
  double lowest = std::numeric_limits<double>::infinity();
  std::int64_t hit_row = -1;  // the measured round (0-based) of the first hit
  std::int64_t rows_seen = 0;

 private:
  double threshold_;
};

/// One column of --cluster-moves. Houdayer's move needs a pair of replicas; replica 0 of
/// the pair is bit for bit the one-replica run, so `none` keeps one replica rather than
/// paying for a second ladder nothing uses. The energy trace, hence a hit, sees replica 0's
/// chains only: conservative for the moves, whose replica 1 may reach the target first.
void apply_cluster_moves(hamon::NrptOptions& options, const std::string& moves) {
  if (moves == "none") {
    options.n_replicas = 1;
    options.cluster_moves = hamon::ClusterMoves::none;
  } else if (moves == "houdayer") {
    options.n_replicas = 2;
    options.cluster_moves = hamon::ClusterMoves::houdayer;
  } else {
    throw std::invalid_argument("--cluster-moves " + moves + ": `none` or `houdayer`");
  }
}

SeedRun run_seed(const Instance& instance, const hamon::NrptOptions& options,
                 const hamon::DeviceDecision& decision, const Config& config) {
  const double threshold = instance.target + config.tolerance * std::abs(instance.target);
  LowestEnergy sink(threshold);
  SeedRun run;
  const auto start = Clock::now();
  auto elapsed = [&start] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const std::unique_ptr<hamon::SamplerBase> sampler =
      hamon::make_sampler(decision, instance.model, options, &sink);
  double before_seconds = elapsed();
  while (sampler->rounds_done() < config.max_rounds && sink.hit_row < 0) {
    const std::int64_t before = sampler->rounds_done();
    sampler->run(std::min(config.chunk, config.max_rounds - before));
    sampler->result();  // hands the chunk's energies to the sink
    const double now = elapsed();
    if (sink.hit_row >= 0) {
      run.hit = true;
      run.rounds = options.burn_in + sink.hit_row + 1;
      const double share = static_cast<double>(run.rounds - before) /
                           static_cast<double>(sampler->rounds_done() - before);
      run.seconds = before_seconds + share * (now - before_seconds);
    }
    before_seconds = now;
  }
  run.rounds_run = sampler->rounds_done();
  run.seconds_run = elapsed();
  if (!run.hit) {
    run.rounds = run.rounds_run;
    run.seconds = run.seconds_run;
  }
  run.lowest = sink.lowest;
  if (instance.exact &&
      run.lowest < instance.target - config.tolerance * std::abs(instance.target)) {
    throw std::runtime_error(instance.name + ": a chain reached " + std::to_string(run.lowest) +
                             ", below the exact ground-state energy " +
                             std::to_string(instance.target));
  }
  return run;
}

/// A generated instance as a graph file (examples/README.md's format), the values in the
/// shortest form that reads back to the same bits, so `hamon run` samples the same model;
/// its exact ground-state energy in a comment.
void write_graph_file(const std::string& path, const hamon::SpinModel& model, double exact) {
  std::ofstream file(path);
  file << "# " << path.substr(path.find_last_of('/') + 1)
       << ": written by perf/time_to_target\n# exact ground-state energy "
       << hamon::format_number(exact) << " (min-sum column transfer)\nnodes " << model.n_nodes()
       << "\n";
  for (const hamon::Edge& e : model.edges()) {
    file << "edge " << e.i << " " << e.j << " " << hamon::format_number(e.coupling) << "\n";
  }
  for (std::size_t i = 0; i < model.fields().size(); ++i) {
    file << "field " << i << " " << hamon::format_number(model.fields()[i]) << "\n";
  }
  if (!file) throw std::runtime_error("cannot write " + path);
}

std::vector<Instance> make_instances(const Config& config) {
  std::vector<Instance> out;
  if (!config.config_file.empty()) {
    const hamon::cli::ExperimentConfig experiment =
        hamon::cli::parse_experiment_file(config.config_file);
    if (experiment.nrpt.tune.any()) {
      throw std::invalid_argument(config.config_file +
                                  ": tuning (auto) is not timed; give a ladder");
    }
    if (!config.has_target) throw std::invalid_argument("--config needs --target");
    Instance instance{config.config_file, hamon::cli::build_model(experiment),
                      hamon::cli::make_nrpt_options(experiment), config.target, false};
    instance.options.seed = experiment.seed;
    out.push_back(std::move(instance));
    return out;
  }
  for (int k = 0; k < config.instances; ++k) {
    const std::uint64_t seed = config.instance_seed + static_cast<std::uint64_t>(k);
    hamon::test::IsingStripSpec spec;
    spec.width = config.width;
    spec.length = config.length;
    spec.periodic_width = config.width >= 3;
    spec.coupling = config.couplings == "pm_one" ? hamon::ValueDistribution::pm_one(seed)
                                                 : hamon::ValueDistribution::gaussian(seed);
    spec.field = hamon::ValueDistribution::gaussian(seed, config.field_std);
    hamon::SpinModel model = hamon::test::ising_strip(spec);
    const double exact = hamon::test::strip_ground_state(model, config.width).energy;
    if (!config.write_instances.empty()) {
      write_graph_file(config.write_instances + "/strip-" + std::to_string(config.width) + "x" +
                           std::to_string(config.length) + "-seed-" + std::to_string(seed) + ".txt",
                       model, exact);
    }
    hamon::NrptOptions o;
    o.n_chains = config.chains;
    for (int c = 0; c < config.chains; ++c) {
      o.betas.push_back(config.beta_min * std::pow(config.beta_max / config.beta_min,
                                                   c / std::max(1.0, config.chains - 1.0)));
    }
    o.n_expl = config.sweeps;
    o.seed = 1;
    out.push_back({"seed " + std::to_string(seed), std::move(model), o,
                   config.has_target ? config.target : exact, !config.has_target});
  }
  return out;
}

std::string number(double v, int digits) {
  if (std::isinf(v)) return "∞";
  if (std::isnan(v)) return "—";
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(digits);
  out << v;
  return out.str();
}

std::string general(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--strips") {
      const std::string v = value();
      const auto x = v.find('x');
      if (x == std::string::npos) throw std::invalid_argument("--strips WxM, e.g. 10x80");
      c.width = std::stoi(v.substr(0, x));
      c.length = std::stoi(v.substr(x + 1));
    } else if (arg == "--instances") {
      c.instances = std::stoi(value());
    } else if (arg == "--instance-seed") {
      c.instance_seed = std::stoull(value());
    } else if (arg == "--couplings") {
      c.couplings = value();
      if (c.couplings != "gaussian" && c.couplings != "pm_one")
        throw std::invalid_argument("--couplings gaussian or pm_one");
    } else if (arg == "--field-std") {
      c.field_std = std::stod(value());
    } else if (arg == "--config") {
      c.config_file = value();
    } else if (arg == "--target") {
      c.target = std::stod(value());
      c.has_target = true;
    } else if (arg == "--tolerance") {
      c.tolerance = std::stod(value());
    } else if (arg == "--seeds") {
      c.seeds = std::stoi(value());
    } else if (arg == "--max-rounds") {
      c.max_rounds = std::stoll(value());
    } else if (arg == "--chunk") {
      c.chunk = std::max<std::int64_t>(1, std::stoll(value()));
    } else if (arg == "--chains") {
      c.chains = std::stoi(value());
    } else if (arg == "--beta-min") {
      c.beta_min = std::stod(value());
    } else if (arg == "--beta-max") {
      c.beta_max = std::stod(value());
    } else if (arg == "--sweeps") {
      c.sweeps = std::stoi(value());
    } else if (arg == "--device") {
      c.device = value();
    } else if (arg == "--cluster-moves") {
      c.cluster_moves = hamon_perf::split(value());
    } else if (arg == "--out") {
      c.out = value();
    } else if (arg == "--write-instances") {
      c.write_instances = value();
    } else if (arg.rfind("--kokkos", 0) == 0) {
      // Kokkos's own options.
    } else {
      throw std::invalid_argument("unknown argument " + arg +
                                  " (see the top of time_to_target.cpp)");
    }
  }
  if (c.seeds < 1 || c.max_rounds < 1 || c.instances < 1 || c.chains < 2 || c.sweeps < 1) {
    throw std::invalid_argument("--seeds, --max-rounds, --instances, --sweeps >= 1; --chains >= 2");
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  Config config;
  std::ostringstream command;
  for (int i = 0; i < argc; ++i) command << (i > 0 ? " " : "") << argv[i];
  try {
    config = parse(argc, argv);
    hamon::NrptOptions probe;
    for (const auto& moves : config.cluster_moves) apply_cluster_moves(probe, moves);
  } catch (const std::exception& e) {
    std::cerr << "time_to_target: " << e.what() << "\n";
    return 2;
  }
  // Kokkos sees only its own options: it would also read ours (--device) as its legacy ones.
  std::vector<char*> kokkos_args = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]).rfind("--kokkos", 0) == 0) kokkos_args.push_back(argv[i]);
  }
  int kokkos_argc = static_cast<int>(kokkos_args.size());
  Kokkos::ScopeGuard kokkos(kokkos_argc, kokkos_args.data());
  try {
    const auto started = Clock::now();
    const std::vector<Instance> instances = make_instances(config);
    std::vector<std::string> lines = {
        "# time to target",
        "",
        "- machine: " + hamon_perf::machine_description(),
        "- date: " + hamon_perf::utc_now(),
        "- command: `" + command.str() + "`",
        config.config_file.empty()
            ? "- instances: " + std::to_string(config.width) + " x " +
                  std::to_string(config.length) + " Ising strips, periodic width, open length, " +
                  config.couplings + " couplings, Gaussian fields (std " +
                  number(config.field_std, 3) + "), seeds " + std::to_string(config.instance_seed) +
                  " .. " + std::to_string(config.instance_seed + config.instances - 1) +
                  "; target: the exact ground state (min-sum column transfer)"
            : "- model: " + config.config_file + ", target " + number(config.target, 6),
        "- runs: " + std::to_string(config.seeds) + " seeds each, cap " +
            std::to_string(config.max_rounds) + " rounds, checked every " +
            std::to_string(config.chunk) + " rounds; " +
            (config.config_file.empty()
                 ? std::to_string(config.chains) + " chains, geometric ladder beta " +
                       number(config.beta_min, 3) + " .. " + number(config.beta_max, 3) + ", " +
                       std::to_string(config.sweeps) + " sweeps per round"
                 : std::string("the config's ladder and sweeps")) +
            "; hit: any chain's energy <= target + " + general(config.tolerance) + " |target|",
        "- moves: `none` is one replica; `houdayer` is two replicas with Houdayer's cluster move "
        "between them at every rung after the sweeps of each round: a hit counts on replica 0's "
        "chains only (replica 1's energies are not seen, which is conservative for the moves), the "
        "seconds and µs/round include both replicas' sweeps and the moves",
        "- TTS(99 %) = t_run ln(0.01) / ln(1 - p_s), t_run = the cap (`TTS cap`) or the best run "
        "length r* (`TTS r*`), in seconds at the mean seconds per round; medians count a miss as "
        "infinite; means are over the hits; gap: the lowest energy a seed reached minus the target "
        "(best "
        "and median over seeds)",
        "",
        "| instance | N | target | moves | hit | p_s | median rounds | mean rounds | median s | "
        "mean s | µs/round | TTS cap s | r* | TTS r* s | gap: best | gap: median |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    };
    for (const auto& line : lines) std::cout << line << "\n";
    for (const Instance& instance : instances) {
      const std::vector<std::string> settings =
          config.cluster_moves.empty() ? std::vector<std::string>{""} : config.cluster_moves;
      for (const auto& setting : settings) {
        hamon::NrptOptions options = instance.options;
        options.n_rounds = config.max_rounds;
        options.observers = hamon::ObserverOptions{};
        options.observers.energies = true;
        options.progress_every = 0;
        if (!setting.empty()) {
          apply_cluster_moves(options, setting);
        } else if (config.config_file.empty()) {
          apply_cluster_moves(options, "none");
        }
        const std::string moves =
            options.cluster_moves == hamon::ClusterMoves::houdayer ? "houdayer" : "none";
        const hamon::DeviceDecision decision =
            hamon::resolve_for(instance.model, options, hamon::parse_device_spec(config.device));
        std::vector<SeedRun> runs;
        std::vector<double> gaps;  // per seed: the lowest energy reached - target
        for (int s = 0; s < config.seeds; ++s) {
          hamon::NrptOptions seeded = options;
          seeded.seed = options.seed + static_cast<std::uint64_t>(s);
          runs.push_back(run_seed(instance, seeded, decision, config));
          const double gap = runs.back().lowest - instance.target;
          // A hit within the tolerance is no gap (not a rounding residue such as -0.0000).
          gaps.push_back(std::abs(gap) <= config.tolerance * std::abs(instance.target) ? 0.0 : gap);
        }
        const TargetSummary t = hamon_perf::summarise(runs, config.max_rounds);
        lines.push_back("| " + instance.name + " | " + std::to_string(instance.model.n_nodes()) +
                        " | " + number(instance.target, 6) + " | " + moves + " | " +
                        std::to_string(t.hits) + "/" + std::to_string(t.seeds) + " | " +
                        number(t.p, 2) + " | " + number(t.median_rounds, 0) + " | " +
                        number(t.mean_rounds, 0) + " | " + number(t.median_seconds, 3) + " | " +
                        number(t.mean_seconds, 3) + " | " + number(t.seconds_per_round * 1e6, 1) +
                        " | " + number(t.tts_cap_seconds, 3) + " | " +
                        (t.hits > 0 ? std::to_string(t.best_run_rounds) : "—") + " | " +
                        number(t.tts_best_seconds, 3) + " | " +
                        number(*std::min_element(gaps.begin(), gaps.end()), 4) + " | " +
                        number(hamon_perf::median_of(gaps), 4) + " |");
        std::cout << lines.back() << std::endl;
      }
    }
    const double total = std::chrono::duration<double>(Clock::now() - started).count();
    lines.push_back("");
    lines.push_back("- whole run: " + number(total, 1) + " s");
    std::cout << "\n" << lines.back() << "\n";
    if (!config.out.empty()) {
      std::ofstream file(config.out);
      for (const auto& line : lines) file << line << "\n";
      if (!file) throw std::runtime_error("cannot write " + config.out);
    }
  } catch (const std::exception& e) {
    std::cerr << "time_to_target: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
