// SPDX-License-Identifier: Apache-2.0
#pragma once
// Tuning NRPT (host-side algorithms): the temperature ladder (tune_schedule), the number
// of chains (tune_chains) and the block-Gibbs sweeps per round (tune_exploration), with the
// reference library's defaults (docs/nrpt.md, "Tuning defaults").
//
// Every algorithm runs the sampler through an NrptRunner: the caller binds the model and
// the place (policies/ binds nrpt_with(decision, model, .), so a whole flow runs in one
// execution space). Each run starts from a fresh random start (independent runs), so
// each run has its own burn-in, and every run gets its own seed, derived from the seed the
// caller passes (seeds.hpp).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/stats/statistics.hpp"

namespace hamon {

using NrptRunner = std::function<NrptResult(const NrptOptions&)>;

// ---- tune_schedule ----------------------------------------------------------------------

struct ScheduleTuningOptions {
  std::int32_t n_tune = 5;                  // phases (ladder updates) at most
  std::int64_t rounds_per_tune = 200;       // measured rounds of one run
  std::int64_t batch_rounds = 50;           // counters pooled batch by batch ...
  double lambda_rtol = 0.05;                // ... until one batch moves Lambda by <= this
  std::int64_t max_rounds_per_tune = 1000;  // cap on the pooled rounds of one phase
  std::int64_t burn_in = 100;               // rounds before counting, in every run
  double equalised_rejection_std = 0.05;    // stop: std of rejection <= this (unsaturated)
  double beta_move_tol = 0.02;              // stop: max |dbeta| / (beta_max - beta_min) < this
  double plateau_rtol = 0.05;               // stop: Lambda changes by <= this (relative) ...
  std::int32_t plateau_phases = 2;          // ... for this many consecutive phases
  double saturated_rejection = 0.99;        // a pair this close to never swapping saturates
  double barrier_max_rejection = 0.75;      // barrier_identified: max rejection below this
  double conveyor_min_efficiency = 0.15;    // conveyor_alive: efficiency (finite ladder) >= ...
  double conveyor_min_round_trips = 40.0;   // ... judged when tau_predicted x rounds >= this
};

/// One ladder measured with pooled counters.
struct LadderMeasurement {
  std::vector<double> betas;
  SwapStatistics swaps;         // pooled over every counted round
  std::int64_t rounds = 0;      // counted rounds (burn-in excluded)
  std::int64_t rounds_run = 0;  // burn-in included
  std::int64_t round_trips = 0;
  double tau_observed = 0.0;            // round_trips / rounds
  double efficiency = 0.0;              // tau_observed / swaps.tau_predicted
  double rejection_std = 0.0;           // population std of swaps.rejection
  bool lambda_stable = false;           // the last batch moved Lambda by <= lambda_rtol
  bool saturated = false;               // some pair's rejection >= saturated_rejection
  std::vector<double> lambda_by_batch;  // Lambda of the pooled counters after each batch
  /// Where the last run on this ladder stopped, when the runner attaches it
  /// (NrptResult::continuation): a warm start for production on this ladder.
  std::shared_ptr<const Continuation> last_run;
};

/// Measures `betas`: runs of rounds_per_tune counted rounds (each after burn_in rounds),
/// their counters pooled batch by batch until Lambda is stable or max_rounds_per_tune
/// rounds are pooled. Run e uses seed `seed` (e = 0) or derive_seed(seed, schedule, e).
LadderMeasurement measure_ladder(const NrptRunner& run, const std::vector<double>& betas,
                                 std::int32_t n_expl, std::uint64_t seed,
                                 const ScheduleTuningOptions& options = {});

enum class ScheduleStop { equalised, betas_converged, lambda_plateau, max_phases, too_few_chains };

/// "equalised", "betas converged", "Lambda plateau", "max phases", "too few chains".
std::string to_string(ScheduleStop stop);

struct ScheduleTuningResult {
  std::vector<double> betas;  // the best measured ladder (endpoints as given, exactly)
  LadderMeasurement best;
  std::int32_t best_phase = 0;
  std::vector<LadderMeasurement> phases;
  ScheduleStop stop = ScheduleStop::max_phases;
  bool barrier_identified = false;     // max rejection of the best ladder < 0.75
  std::optional<bool> conveyor_alive;  // efficiency >= 0.15; nullopt: too few trips expected
  std::int64_t rounds_run = 0;         // every round of every run
};

/// Phased adaptation: measure the ladder, stop if it is equalised, move the betas with
/// optimize_schedule (stop if they barely move), stop when Lambda plateaus; keep the best
/// measured ladder (unsaturated before saturated, then lowest rejection std). Phase p is
/// measured with derive_seed(seed, schedule, p). Ladders of fewer than 3 chains have
/// nothing to move: measured once (stop = too_few_chains).
ScheduleTuningResult tune_schedule(const NrptRunner& run, const std::vector<double>& initial_betas,
                                   std::int32_t n_expl, std::uint64_t seed,
                                   const ScheduleTuningOptions& options = {});

// ---- tune_chains ------------------------------------------------------------------------

struct ChainTuningOptions {
  double target_acceptance = 0.5;  // r* = 1 - target_acceptance
  double safety = 0.05;            // N* = ceil(Lambda (1 + safety) / r*) + 1
  std::int32_t max_chains = 128;
  std::int32_t min_chains = 2;
  std::optional<std::int32_t> initial_chains;  // none: a pilot at max_chains
  std::int32_t max_iterations = 6;
  bool tune_betas = true;            // tune the ladder at every iteration (else linear ladders)
  std::int32_t schedule_phases = 2;  // tune_schedule phases per iteration
};

struct ChainIteration {
  std::int32_t n_chains = 0;     // chains measured
  double Lambda = 0.0;           // Lambda-hat at that count
  std::int32_t recommended = 0;  // N* from it
  bool pilot = false;            // a pilot (measured, not tuned)
};

struct ChainTuningResult {
  std::int32_t n_chains = 0;
  std::vector<double> betas;  // for n_chains: the tuned ladder, or resampled onto N*
  double Lambda = 0.0;        // the last estimate
  bool converged = false;     // N* repeated (within one chain) before max_iterations
  std::vector<ChainIteration> iterations;
  ScheduleTuningResult schedule;  // the last iteration's schedule tuning (when tuned)
  std::int64_t rounds_run = 0;
};

/// N* = ceil(Lambda (1 + safety) / (1 - target_acceptance)) + 1, within
/// [min_chains, max_chains].
std::int32_t recommended_chains(double Lambda, const ChainTuningOptions& options);

/// Iterates N -> N*: measure (the pilot at max_chains on a linear ladder when there is no
/// initial guess) or tune the ladder at N (schedule_phases phases), estimate Lambda,
/// recommend N*; stop when N* is within one chain of N, after max_iterations.
/// Iteration i uses derive_seed(seed, chain_pilot, i).
ChainTuningResult tune_chains(const NrptRunner& run, double beta_min, double beta_max,
                              std::int32_t n_expl, std::uint64_t seed,
                              const ChainTuningOptions& options = {},
                              const ScheduleTuningOptions& schedule = {});

/// A ladder of n betas equally spaced in cumulative rejection (the schedule update of
/// optimize_schedule onto a different chain count); endpoints kept exactly.
std::vector<double> resample_ladder(const std::vector<double>& betas,
                                    const std::vector<double>& rejection, std::int32_t n);

// ---- tune_exploration -------------------------------------------------------------------

enum class ExplorationCost {
  wall_seconds,  // the reference: measured wall time of each probe (machine-dependent)
  sweeps,        // deterministic proxy: (burn_in + rounds) * (n_expl + 1) sweep-equivalents
};

struct ExplorationTuningOptions {
  std::vector<std::int32_t> candidates = {1, 2, 4, 8};
  std::int64_t rounds = 500;  // measured rounds per probe
  std::int64_t burn_in = 100;
  ExplorationCost cost = ExplorationCost::wall_seconds;
  /// Over MPI ranks: the probe time every rank uses (rank 0's, sent to all), so every rank
  /// picks the same n_expl. Empty: the time measured here.
  std::function<double(double)> agree_seconds;
};

struct ExplorationProbe {
  std::int32_t n_expl = 0;
  double ess = 0.0;      // of the cold chain's energy trace (0 when undefined)
  double seconds = 0.0;  // wall time of the probe
  double cost = 0.0;     // seconds, or sweep-equivalents
  double ess_per_cost = 0.0;
};

struct ExplorationTuningResult {
  std::int32_t n_expl = 1;  // the best probe (ties: the smaller n_expl)
  std::vector<ExplorationProbe> probes;
  std::int64_t rounds_run = 0;
};

/// Runs one probe per candidate on `betas` (candidate k with derive_seed(seed,
/// exploration, k)) and picks the most effective samples of the cold chain's energy per
/// unit cost.
ExplorationTuningResult tune_exploration(const NrptRunner& run, const std::vector<double>& betas,
                                         std::uint64_t seed,
                                         const ExplorationTuningOptions& options = {});

}  // namespace hamon
