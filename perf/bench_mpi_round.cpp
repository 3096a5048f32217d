// SPDX-License-Identifier: Apache-2.0
// What one NRPT run over MPI ranks costs per round, to tell whether exchanging every
// chain's energy each round stays small beside the sweeps it waits for. Run under mpirun,
// once per rank count; rank 0 prints and writes the JSON (perf/tools/mpi_model.py runs it
// for 1..4 ranks, fits the alpha-beta model and prints the tables):
//
//   mpirun --oversubscribe -np P bench_mpi_round [--json FILE] [--quick]
//          [--sections allgather,round,weak] [--sides 64,128]
//
// Every rank runs on Kokkos::Serial (one thread per rank; RankSpace). Every timed repetition starts
// after an MPI_Barrier; a repetition's time is the maximum over the ranks (the collective
// is as slow as its slowest rank); the reported value is the median over repetitions.
// The repetition count of a point is chosen on rank 0 from 10 pilot repetitions (about
// --budget seconds per point, default 0.2; 20..20000 repetitions) and broadcast.
//
// Sections:
//  allgather  MPI_Allgather of `c` int64 per rank, c = 1, 4, ..., 16384 (total n = 8 c P
//             bytes): the data of the alpha-beta fit (T = a + b n per rank count).
//  round      the exchange and decisions of one round exactly as Sampler::one_round does
//             them after the energies (sampler_impl.hpp: share_energies, then
//             deo_swap_pass + update_index_process), on a ChainState from
//             make_chain_state on Kokkos::Serial holding this rank's machine block
//             (machine_blocks(chains, P)): "gather" = local energies to a host vector +
//             MpiExchange::all_gather_machines (MPI_Allgatherv) + copy into energy_fixed;
//             "decide" = the replicated DEO pass and index process for every chain.
//             Chains 16, 64, 256, 1024. Energies are synthetic (a fresh pseudo-random
//             fixed-point value per machine and repetition, written before the barrier,
//             untimed), scaled so that about half the swaps are accepted; the model is a
//             32 x 32 lattice, which only sets the spins' size and the fixed-point scale.
//  weak       weak scaling, 16 machines (one draw group) per rank: a 2D periodic +-J EA
//             lattice (make_lattice({L, L}, true, pm_one(1))), 16 P chains linear in beta
//             over [0, 1], n_expl = 1, no observers, full rounds through Sampler::run:
//               coupled      one run over all ranks (MpiExchange);
//               independent  every rank its own 16-chain run (no exchange), concurrently:
//                            the same kernels and the same contention for the cores,
//                            without the coupling;
//               plain        every rank perf/plain_sweep.hpp's scalar sweep of 16 chains,
//                            concurrently (the project's yardstick, both of its builds,
//                            the faster each repeat; fewer sweeps, it is much slower).
//             5 timed calls of each after a warm-up, interleaved; median and minimum
//             (a shared machine's load only ever adds time). Updates/ns =
//             16 P L^2 rounds / wall (all ranks together). "in exchange": the coupled run's
//             seconds per round inside all_gather (a TimedExchange around the
//             MpiExchange), on the rank that waited most and least: the transfer plus the
//             wait for the slowest rank. With more ranks than cores the
//             ranks share cores (this 2-core VM: P = 3, 4 are oversubscribed).
#include <mpi.h>
#include <sys/utsname.h>

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
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_text.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/tempering/swap.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "hamon/policies/mpi_exchange.hpp"
#include "plain_yardstick.hpp"

namespace {

using hamon_perf::split;
using hamon_perf::split_ints;
using hamon_perf::utc_now;

/// Where every rank runs: Kokkos::Serial (one thread per rank) where it is compiled in.
#ifdef KOKKOS_ENABLE_SERIAL
using RankSpace = Kokkos::Serial;
#else
using RankSpace = Kokkos::DefaultHostExecutionSpace;
#endif

constexpr std::uint64_t kSeed = 7;
constexpr std::int32_t kMachinesPerRank = hamon::kMachinesPerRankUnit;  // 16

struct Config {
  std::string json;
  bool quick = false;
  double budget = 0.2;  // seconds of timed repetitions per point
  std::vector<std::string> sections = {"allgather", "round", "weak"};
  std::vector<int> sides = {64, 128};
};

bool wants(const Config& c, const std::string& section) {
  return std::find(c.sections.begin(), c.sections.end(), section) != c.sections.end();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double minimum(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

/// Per-repetition times, maximum over the ranks (complete on rank 0).
std::vector<double> max_over_ranks(const std::vector<double>& mine, MPI_Comm comm) {
  std::vector<double> out(mine.size());
  MPI_Reduce(mine.data(), out.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MAX, 0, comm);
  return out;
}

/// Rank 0 picks the repetition count from pilot times (max over ranks) and broadcasts it.
int repetitions(const std::vector<double>& pilot, double budget, MPI_Comm comm) {
  const std::vector<double> slowest = max_over_ranks(pilot, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int reps = 0;
  if (rank == 0) {
    const double t = std::max(median(slowest), 1e-7);
    reps = static_cast<int>(std::clamp(budget / t, 20.0, 20000.0));
  }
  MPI_Bcast(&reps, 1, MPI_INT, 0, comm);
  return reps;
}

/// Times of a point: per repetition, the maximum over the ranks (complete on rank 0) of
/// the whole operation and of the part of it that the operation reports.
struct Times {
  std::vector<double> total, part;
};

/// Times `op(rep)` after a barrier, `prepare(rep)` before it untimed. `op` returns the
/// seconds of a part of itself that it timed (0 when none).
template <class Prepare, class Op>
Times timed(MPI_Comm comm, double budget, Prepare prepare, Op op) {
  auto loop = [&](int reps, int first) {
    Times t;
    for (int r = 0; r < reps; ++r) {
      prepare(first + r);
      MPI_Barrier(comm);
      const double t0 = MPI_Wtime();
      const double part = op(first + r);
      t.total.push_back(MPI_Wtime() - t0);
      t.part.push_back(part);
    }
    return t;
  };
  const int reps = repetitions(loop(10, 0).total, budget, comm);
  const Times mine = loop(reps, 10);
  return {max_over_ranks(mine.total, comm), max_over_ranks(mine.part, comm)};
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

std::string load_average() {
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) != 3) return "unknown";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f %.2f %.2f", load[0], load[1], load[2]);
  return buffer;
}

/// A fresh pseudo-random value in [-1, 1) for (machine, repetition).
double noise(std::int64_t machine, std::int64_t rep) {
  std::uint64_t z = static_cast<std::uint64_t>(machine) * 0x9E3779B97F4A7C15ull +
                    static_cast<std::uint64_t>(rep) * 0xBF58476D1CE4E5B9ull + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

std::vector<double> linear_ladder(std::int32_t n) {
  std::vector<double> b(static_cast<std::size_t>(n));
  for (std::int32_t k = 0; k < n; ++k) b[static_cast<std::size_t>(k)] = double(k) / (n - 1);
  return b;
}

// ---------------------------------------------------------------- allgather (alpha-beta)

void bench_allgather(const Config& cfg, MPI_Comm comm, int rank, int n_ranks, std::ostream& json) {
  if (rank == 0) {
    std::printf("\n## MPI_Allgather of int64, %d ranks (median of per-rep max over ranks)\n\n",
                n_ranks);
    std::printf("| per rank | total bytes | median us | min us | reps |\n|---|---|---|---|---|\n");
  }
  json << "\"allgather\": [";
  bool first = true;
  for (int c = 1; c <= 16384; c *= 4) {
    std::vector<std::int64_t> mine(static_cast<std::size_t>(c), rank);
    std::vector<std::int64_t> all(static_cast<std::size_t>(c) * static_cast<std::size_t>(n_ranks));
    const auto t =
        timed(
            comm, cfg.budget, [&](int rep) { mine[0] = rep; },
            [&](int) {
              MPI_Allgather(mine.data(), c, MPI_INT64_T, all.data(), c, MPI_INT64_T, comm);
              return 0.0;
            })
            .total;
    if (rank != 0) continue;
    const double bytes = 8.0 * c * n_ranks;
    std::printf("| %d | %.0f | %.2f | %.2f | %zu |\n", c, bytes, 1e6 * median(t), 1e6 * minimum(t),
                t.size());
    json << (first ? "" : ",") << "\n  {\"per_rank\": " << c << ", \"bytes\": " << bytes
         << ", \"median_us\": " << 1e6 * median(t) << ", \"min_us\": " << 1e6 * minimum(t)
         << ", \"reps\": " << t.size() << "}";
    first = false;
  }
  json << "]";
}

// ---------------------------------------------------------------- round: exchange + decisions

void bench_round(const Config& cfg, hamon::MpiExchange& exchange, int rank, int n_ranks,
                 std::ostream& json) {
  const RankSpace space;
  const hamon::SpinModel small =
      hamon::make_lattice({32, 32}, true, hamon::ValueDistribution::pm_one(1));
  const auto model = hamon::make_device_model(space, small);
  if (rank == 0) {
    std::printf(
        "\n## Exchange + decisions of one round, %d ranks (us, median of per-rep max over "
        "ranks)\n\n",
        n_ranks);
    std::printf(
        "| chains | machines on rank 0 | gather us | decide us | total us | min total us | reps "
        "|\n|---|---|---|---|---|---|---|\n");
  }
  json << "\"round\": [";
  bool first = true;
  for (std::int32_t chains : {16, 64, 256, 1024}) {
    const auto blocks = hamon::machine_blocks(chains, n_ranks);
    const hamon::MachineBlock mine = blocks[static_cast<std::size_t>(rank)];
    const auto state =
        hamon::make_chain_state(space, model, linear_ladder(chains), kSeed, std::optional(mine));
    space.fence();
    std::vector<std::int64_t> all(static_cast<std::size_t>(chains));
    const double unit = std::ldexp(1.0, model.energy_fraction_bits);
    // |log ratio| = dbeta |dE| <= 2 with dbeta = 1 / (chains - 1): about half accepted.
    const double scale = static_cast<double>(chains - 1) * unit;
    const auto local = state.local_energy_fixed();
    auto prepare = [&](int rep) {
      for (std::int32_t m = 0; m < mine.count; ++m) {
        local(m) = static_cast<std::int64_t>(std::llround(scale * noise(mine.first + m, rep)));
      }
    };
    // What Sampler::one_round does after compute_energies (share_energies, then the pass).
    auto op = [&](int rep) {
      const double t0 = MPI_Wtime();
      const auto energies = hamon::detail::to_host_vector<std::int64_t>(space, local);
      exchange.all_gather_machines(energies.data(), all.data(), blocks, 1);
      hamon::detail::copy_from_host(space, state.energy_fixed, all);
      const double gathered = MPI_Wtime() - t0;
      hamon::deo_swap_pass(space, state, kSeed, static_cast<std::uint32_t>(rep),
                           model.energy_fraction_bits);
      hamon::update_index_process(space, state);
      space.fence();
      return gathered;
    };
    const Times t = timed(exchange.communicator(), cfg.budget, prepare, op);
    if (rank == 0) {
      // "decide" = median total - median gather (each a median of per-rep maxima).
      const double g = 1e6 * median(t.part), tt = 1e6 * median(t.total);
      std::printf("| %d | %d | %.2f | %.2f | %.2f | %.2f | %zu |\n", chains, mine.count, g, tt - g,
                  tt, 1e6 * minimum(t.total), t.total.size());
      json << (first ? "" : ",") << "\n  {\"chains\": " << chains
           << ", \"machines_rank0\": " << mine.count << ", \"gather_us\": " << g
           << ", \"decide_us\": " << tt - g << ", \"total_us\": " << tt
           << ", \"min_total_us\": " << 1e6 * minimum(t.total) << ", \"reps\": " << t.total.size()
           << "}";
      first = false;
    }
  }
  json << "]";
}

// ---------------------------------------------------------------- weak scaling

struct WeakPoint {
  std::string variant;
  int side = 0;
  std::int64_t rounds = 0;
  double seconds = 0.0;  // median wall of one timed call, max over ranks
  double fastest = 0.0;  // the minimum of those walls
  std::int64_t updates = 0;
  // coupled only: seconds per round inside all_gather (median over the calls) on
  // the rank that waited most and the one that waited least.
  double exchange_max = 0.0, exchange_min = 0.0;
};

/// An MpiExchange that adds up the wall time spent in all_gather (the round's one message):
/// inside a coupled Sampler::run, that is the transfer plus the wait for the slowest rank's
/// sweep.
class TimedExchange final : public hamon::MachineExchange {
 public:
  explicit TimedExchange(hamon::MpiExchange& inner) : inner_(inner) {}
  int rank() const override { return inner_.rank(); }
  int n_ranks() const override { return inner_.n_ranks(); }
  void all_gather(const std::int64_t* mine, std::int64_t* all,
                  const std::vector<std::int64_t>& counts) override {
    const double t0 = MPI_Wtime();
    inner_.all_gather(mine, all, counts);
    seconds += MPI_Wtime() - t0;
  }
  std::int64_t max_over_ranks(std::int64_t value) override { return inner_.max_over_ranks(value); }
  void gather_machines_to_root(const std::int8_t* mine, std::int8_t* all,
                               const std::vector<hamon::MachineBlock>& blocks,
                               std::int64_t per_machine) override {
    inner_.gather_machines_to_root(mine, all, blocks, per_machine);
  }
  void sum_to_root(std::int64_t* values, std::int64_t n) override { inner_.sum_to_root(values, n); }
  void sum_to_root(std::int8_t* values, std::int64_t n) override { inner_.sum_to_root(values, n); }
  double seconds = 0.0;

 private:
  hamon::MpiExchange& inner_;
};

double timed_call(MPI_Comm comm, const std::function<void()>& call) {
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  call();
  const double mine = MPI_Wtime() - t0;
  double slowest = 0.0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
}

void bench_weak(const Config& cfg, hamon::MpiExchange& exchange, int rank, int n_ranks,
                std::ostream& json) {
  const RankSpace space;
  const MPI_Comm comm = exchange.communicator();
  std::vector<WeakPoint> points;
  for (int side : cfg.sides) {
    const hamon::SpinModel lattice =
        hamon::make_lattice({side, side}, true, hamon::ValueDistribution::pm_one(1));
    const auto model = hamon::make_device_model(space, lattice);
    // About 0.15 s per call on one rank of this machine (~0.8 updates/ns at 16 chains).
    const double per_round_s = 16.0 * side * side / 0.8e9;
    const double seconds = cfg.quick ? 0.02 : 0.1;
    const auto rounds = static_cast<std::int64_t>(std::max(20.0, seconds / per_round_s));
    const std::int64_t plain_sweeps = std::max<std::int64_t>(5, rounds / 30);
    const int repeats = cfg.quick ? 1 : 5;

    hamon::NrptOptions coupled_options;
    coupled_options.n_chains = kMachinesPerRank * n_ranks;
    coupled_options.n_rounds = rounds;
    coupled_options.n_expl = 1;
    coupled_options.seed = kSeed;
    hamon::NrptOptions independent_options = coupled_options;
    independent_options.n_chains = kMachinesPerRank;
    independent_options.seed = kSeed + static_cast<std::uint64_t>(rank);

    TimedExchange timed_exchange(exchange);
    hamon::Sampler<RankSpace> coupled(space, model, coupled_options, nullptr, &timed_exchange);
    hamon::Sampler<RankSpace> independent(space, model, independent_options);
    // The yardstick at its best: both builds, the faster of the two each repeat.
    std::vector<std::unique_ptr<hamon::perf::PlainYardstick>> plains;
    for (const auto build : hamon::perf::kPlainBuilds)
      plains.push_back(hamon::perf::make_plain_ising(build, side, kMachinesPerRank,
                                                     kSeed + static_cast<std::uint64_t>(rank), 1));
    coupled.run(10);
    independent.run(10);
    for (auto& plain : plains) plain->sweep();

    std::vector<double> t_coupled, t_independent, t_plain;
    std::vector<double> exchange_max, exchange_min;  // per round, over ranks, per call
    for (int r = 0; r < repeats; ++r) {
      timed_exchange.seconds = 0.0;
      t_coupled.push_back(timed_call(comm, [&] {
        coupled.run(rounds);
        space.fence();
      }));
      double in_exchange[2] = {timed_exchange.seconds, -timed_exchange.seconds}, extremes[2];
      MPI_Allreduce(in_exchange, extremes, 2, MPI_DOUBLE, MPI_MAX, comm);
      exchange_max.push_back(extremes[0] / static_cast<double>(rounds));
      exchange_min.push_back(-extremes[1] / static_cast<double>(rounds));
      t_independent.push_back(timed_call(comm, [&] {
        independent.run(rounds);
        space.fence();
      }));
      double fastest = 0.0;
      for (auto& plain : plains) {
        const double t = timed_call(comm, [&] {
          for (std::int64_t s = 0; s < plain_sweeps; ++s) plain->sweep();
        });
        fastest = fastest == 0.0 ? t : std::min(fastest, t);
      }
      t_plain.push_back(fastest);
    }
    const std::int64_t per_round = static_cast<std::int64_t>(kMachinesPerRank) * n_ranks *
                                   static_cast<std::int64_t>(side) * side;
    points.push_back({"coupled", side, rounds, median(t_coupled), minimum(t_coupled),
                      per_round * rounds, median(exchange_max), median(exchange_min)});
    points.push_back({"independent", side, rounds, median(t_independent), minimum(t_independent),
                      per_round * rounds});
    points.push_back(
        {"plain", side, plain_sweeps, median(t_plain), minimum(t_plain), per_round * plain_sweeps});
    // Keep the checksum of the plain spins alive (the compiler must not drop the sweeps).
    for (auto& plain : plains) {
      volatile std::int8_t sink = *static_cast<const std::int8_t*>(plain->state());
      (void)sink;
    }
  }
  if (rank != 0) return;
  std::printf(
      "\n## Weak scaling, %d machines per rank, %d ranks, n_expl = 1 (median and minimum of %d "
      "calls; each call's wall is the max over ranks)\n\n",
      kMachinesPerRank, n_ranks, cfg.quick ? 1 : 5);
  std::printf(
      "| variant | L | chains (all ranks) | rounds | wall s | round us | updates/ns (all ranks) | "
      "min round us | best updates/ns | in exchange us/round (max, min rank) "
      "|\n|---|---|---|---|---|---|---|---|---|---|\n");
  json << "\"weak\": [";
  bool first = true;
  for (const WeakPoint& p : points) {
    const double round_us = 1e6 * p.seconds / static_cast<double>(p.rounds);
    const double rate = static_cast<double>(p.updates) / (p.seconds * 1e9);
    const double best_round_us = 1e6 * p.fastest / static_cast<double>(p.rounds);
    const double best_rate = static_cast<double>(p.updates) / (p.fastest * 1e9);
    std::printf("| %s | %d | %d | %lld | %.3f | %.1f | %.3f | %.1f | %.3f | %.1f, %.1f |\n",
                p.variant.c_str(), p.side, kMachinesPerRank * n_ranks,
                static_cast<long long>(p.rounds), p.seconds, round_us, rate, best_round_us,
                best_rate, 1e6 * p.exchange_max, 1e6 * p.exchange_min);
    json << (first ? "" : ",") << "\n  {\"variant\": \"" << p.variant << "\", \"L\": " << p.side
         << ", \"machines_per_rank\": " << kMachinesPerRank << ", \"rounds\": " << p.rounds
         << ", \"wall_s\": " << p.seconds << ", \"round_us\": " << round_us
         << ", \"updates_per_ns\": " << rate << ", \"min_round_us\": " << best_round_us
         << ", \"best_updates_per_ns\": " << best_rate
         << ", \"exchange_max_us\": " << 1e6 * p.exchange_max
         << ", \"exchange_min_us\": " << 1e6 * p.exchange_min << "}";
    first = false;
  }
  json << "]";
}

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--json") {
      c.json = value();
    } else if (a == "--quick") {
      c.quick = true;
      c.budget = 0.02;
    } else if (a == "--budget") {
      c.budget = std::stod(value());
    } else if (a == "--sections") {
      c.sections = split(value());
    } else if (a == "--sides") {
      c.sides.clear();
      c.sides = split_ints(value());
    } else {
      throw std::invalid_argument("unknown argument " + a +
                                  " (--json FILE, --quick, --budget S, --sections "
                                  "allgather,round,weak, --sides 64,128)");
    }
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    // Every rank runs on RankSpace (Serial: one thread per rank). Kokkos reads no
    // arguments: it gets only the program's name (the benchmark's own flags are parse's).
    int kokkos_argc = 1;
    Kokkos::ScopeGuard kokkos(kokkos_argc, argv);
    int rank = 0, n_ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
    try {
      const Config cfg = parse(argc, argv);
      hamon::MpiExchange exchange(MPI_COMM_WORLD);
      const hamon::NodeLocalRank node = hamon::node_local_rank();
      std::ostringstream json;
      json.precision(6);
      utsname host{};
      uname(&host);
      json << "{\"ranks\": " << n_ranks << ", \"ranks_on_node\": " << node.on_node
           << ", \"cores\": " << std::thread::hardware_concurrency() << ", \"cpu\": \""
           << cpu_model() << "\", \"kernel\": \"" << host.release << "\", \"date\": \"" << utc_now()
           << "\", \"load_start\": \"" << load_average()
           << "\", \"quick\": " << (cfg.quick ? "true" : "false");
      if (rank == 0) {
        std::printf("# bench_mpi_round: %d ranks (%d on this node), %u cores, %s, load %s\n",
                    n_ranks, node.on_node, std::thread::hardware_concurrency(), cpu_model().c_str(),
                    load_average().c_str());
      }
      if (wants(cfg, "allgather")) {
        json << ",\n";
        bench_allgather(cfg, exchange.communicator(), rank, n_ranks, json);
      }
      if (wants(cfg, "round")) {
        json << ",\n";
        bench_round(cfg, exchange, rank, n_ranks, json);
      }
      if (wants(cfg, "weak")) {
        json << ",\n";
        bench_weak(cfg, exchange, rank, n_ranks, json);
      }
      json << ",\n\"load_end\": \"" << load_average() << "\"}\n";
      if (rank == 0) {
        std::fflush(stdout);
        if (!cfg.json.empty()) {
          std::ofstream out(cfg.json);
          out << json.str();
          if (!out) throw std::runtime_error("cannot write " + cfg.json);
        }
      }
    } catch (const std::exception& e) {
      hamon::abort_all_ranks(std::string("bench_mpi_round: ") + e.what(), 1);
    }
  }
  MPI_Finalize();
  return 0;
}
