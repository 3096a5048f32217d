// SPDX-License-Identifier: Apache-2.0
#pragma once
// autotune / autosample: the resolve-once orchestration of the tuning algorithms of
// hamon/core/tuning/tuning.hpp (docs/nrpt.md "Tuning defaults", docs/routing.md "Entry points").
//
// autotune(model, options, device):
//   1. Resolves the device ONCE for the whole flow, with the largest work score the flow
//      will use: the pilot's max_chains x free nodes when the chain count is tuned (else
//      the fixed chain count x free nodes). Every run of the flow, and every later
//      Plan::sample / Plan::extend, runs through that decision, so the space never flips
//      between tuning phases and production. A caller that resolved it already passes its
//      DeviceDecision instead of a DeviceSpec.
//   2. Looks the plan up in the tuning cache (tuning_cache.hpp). The key holds the model's
//      fingerprint (graph, couplings, fields, clamps, colouring; a continuous model's kind
//      and diag or barrier), the beta range, the annealing reference, every tuning target
//      and parameter, the fixed inputs, the execution space (n_expl is
//      tuned by wall time, which depends on it) and hamon::version. The seed is not in
//      the key: a plan is a tuning, not a sample. A hit skips tuning.
//   3. On a miss: chains (tune_chains, which tunes the ladder at every iteration), then
//      exploration (tune_exploration on that ladder), then a schedule polish
//      (tune_schedule with the chosen n_expl) -> the plan, stored in the cache.
// Continuous models (SpinModel::is_continuous) tune alike: every run of the flow and of the
// plan is a Sampler<Space, double>, on the same annealing reference and ladder ends.
// Every run gets its own seed, derived from options.seed (seeds.hpp): the chain search
// from stream chain_pilot, the exploration probes from exploration, the polish from
// schedule_polish, production from production.
//
// The CLI's partial forms map onto the flags: `chains: auto` = tune_chains, `betas: auto`
// = tune_betas, `explore_sweeps: auto` = tune_exploration (`tune: auto` = all three).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hamon/core/analysis/diagnostics.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/tuning/tuning.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/placement.hpp"

namespace hamon {

/// chains.tune_betas is ignored: autotune sets it from tune_betas.
struct AutotuneOptions {
  double beta_min = 0.0;  // the ladder's ends (used unless `betas` is given)
  double beta_max = 1.0;
  bool tune_chains = true;
  std::int32_t n_chains = 8;  // the chain count when tune_chains is false and betas is empty
  bool tune_betas = true;
  std::vector<double> betas;  // a fixed ladder: needs tune_chains = tune_betas = false
  bool tune_exploration = true;
  std::int32_t n_expl = 1;  // the fixed n_expl, and the one the chain search runs with
  ChainTuningOptions chains;
  ScheduleTuningOptions schedule;
  ExplorationTuningOptions exploration;
  std::uint64_t seed = 0;
  /// What the bottom of the ladder samples in every tuning run (NrptOptions::reference);
  /// the plan's production runs use the same (Plan::options_for). A continuous model
  /// anneals from its independent-site reference by default.
  AnnealingReference reference = AnnealingReference::automatic;
  /// The replicas of the ladder and the moves between them (NrptOptions::n_replicas,
  /// cluster_moves) in every tuning run and in the plan's production runs: the ladder is
  /// tuned on the path production samples, Houdayer moves included (they change how fast
  /// states cross the ladder). The swap statistics are pooled over the replicas.
  std::int32_t n_replicas = 1;
  ClusterMoves cluster_moves = ClusterMoves::none;
  bool use_cache = true;  // false: neither read nor write the tuning cache
  /// Over MPI ranks (every rank calls autotune with the same options): each tuning run is
  /// spread over the ranks like a production run, every rank makes the same decisions, the
  /// measured exploration cost is rank 0's (sent to all), rank 0 alone writes the cache,
  /// and a cache entry counts only when every rank finds it. The plan is the one-process
  /// plan wherever that does not depend on measured wall time; its warm_start is complete
  /// on rank 0 only.
  MachineExchange* exchange = nullptr;
};

/// What tuning found (from the cache entry on a hit).
struct TuningSummary {
  double Lambda = 0.0;                     // global barrier on the final ladder
  std::optional<bool> barrier_identified;  // unknown when the ladder was not tuned
  std::optional<bool> conveyor_alive;
  double tuned_seconds = 0.0;  // what the tuning took when it ran (a hit: the earlier run)
};

/// The tuning runs themselves (empty on a cache hit, and for the parts not tuned).
struct TuningDetails {
  std::optional<ChainTuningResult> chains;
  std::optional<ExplorationTuningResult> exploration;
  std::optional<ScheduleTuningResult> schedule;  // the polish
};

struct Plan {
  std::int32_t n_chains = 0;
  std::vector<double> betas;
  std::int32_t n_expl = 1;
  DeviceDecision decision;      // resolved once; every run of the plan uses it
  std::string execution_space;  // "Serial", "OpenMP", "Cuda"
  double seconds = 0.0;         // wall time of autotune (a hit: the lookup)
  bool cache_hit = false;
  std::string cache_entry;  // the entry read or written; empty when the cache is off
  TuningSummary tuning;
  TuningDetails details;
  std::uint64_t seed = 0;  // the flow's seed (production seeds derive from it)
  AnnealingReference reference = AnnealingReference::automatic;  // the tuning runs'
  std::int32_t n_replicas = 1;                                   // the tuning runs'
  ClusterMoves cluster_moves = ClusterMoves::none;               // the tuning runs'
  std::shared_ptr<const SpinModel> model;
  /// The variables and permutation at the end of the last tuning run on the plan's ladder
  /// (the polish's best measurement), when tuning ran and its sweeps are the plan's:
  /// production starts there instead of from a random start. A SamplerState for discrete
  /// models, a SamplerStateOf<double> for continuous ones. Empty on a cache hit (a cold
  /// start, with the same burn-in); reset it for the bits a plan from the cache gives.
  std::shared_ptr<const AnySamplerState> warm_start;

  /// `base` with the plan's ladder, n_expl, n_rounds, annealing reference, replicas and
  /// cluster moves and the production seed (burn-in, observers and progress are the caller's).
  NrptOptions options_for(std::int64_t n_rounds, NrptOptions base = {}) const;
  /// A production sampler (not yet run) for `options` (from options_for), on the plan's
  /// decision, started from warm_start when there is one. `sink` and `exchange` as
  /// make_sampler's. Value: std::int8_t for discrete models, double for continuous ones
  /// (make_sampler_of); production_sampler is the discrete one.
  template <class Value>
  std::unique_ptr<SamplerBaseOf<Value>> production_sampler_of(
      const NrptOptions& options, TraceSink* sink = nullptr,
      MachineExchange* exchange = nullptr) const;
  std::unique_ptr<SamplerBase> production_sampler(const NrptOptions& options,
                                                  TraceSink* sink = nullptr,
                                                  MachineExchange* exchange = nullptr) const {
    return production_sampler_of<std::int8_t>(options, sink, exchange);
  }
  /// A production run of n_rounds measured rounds (options.seed is ignored: the seed
  /// derives from the plan's) after options.burn_in rounds, or when that is 0 after
  /// default_burn_in(n_rounds): production never measures from its start. It starts from
  /// warm_start when the plan has one. The result carries its continuation.
  NrptResult sample(std::int64_t n_rounds, NrptOptions options = {}) const;
  /// `previous` (a result of sample or extend on this plan) continued by n_more measured
  /// rounds: the same bits as sample(previous.n_rounds + n_more) with the same options.
  /// `options` only contributes its progress callback. Throws std::invalid_argument when
  /// `previous` carries no continuation or was not run on this plan.
  NrptResult extend(const NrptResult& previous, std::int64_t n_more,
                    NrptOptions options = {}) const;
  /// The burn-in sample() uses when the caller gives none: max(100, n_rounds / 10).
  static std::int64_t default_burn_in(std::int64_t n_rounds);
};

/// The key under which autotune caches its plan (see the top of this file).
std::string autotune_cache_key(const SpinModel& model, const AutotuneOptions& options,
                               const std::string& execution_space);

/// The work score the flow resolves the device with: its largest chain count x free nodes.
std::int64_t autotune_work_score(const SpinModel& model, const AutotuneOptions& options);

/// Tunes (or loads) a plan. Throws std::invalid_argument for inconsistent options (a fixed
/// ladder with tune_chains or tune_betas, bad counts), and what resolve_device throws.
Plan autotune(const SpinModel& model, const AutotuneOptions& options = {},
              const DeviceSpec& device = DeviceSpec::auto_());
/// The same where the caller already resolved the device (with autotune_work_score, as the
/// CLI does once for its whole flow): every run of the flow and of the plan uses
/// `decision`.
Plan autotune(const SpinModel& model, const AutotuneOptions& options,
              const DeviceDecision& decision);

struct AutosampleResult {
  Plan plan;
  NrptResult result;
  RunDiagnostics diagnostics;  // health report, log Z, cold-chain ESS
};

/// autotune, then plan.sample(n_rounds, sample_options) with per-chain energies recorded
/// (log Z and the ESS need them), then diagnose. What the CLI calls for `tune: auto`.
AutosampleResult autosample(const SpinModel& model, std::int64_t n_rounds,
                            const AutotuneOptions& options = {}, NrptOptions sample_options = {},
                            const DeviceSpec& device = DeviceSpec::auto_(),
                            const DiagnosticsOptions& diagnostics = {});

namespace detail {

/// The tuning part of autotune (step 3 at the top of this file) on any runner: what
/// autotune runs through nrpt_with(decision, model, .), exposed so tests can watch every
/// run of the flow (e.g. its seeds).
struct TunedFlow {
  std::vector<double> betas;
  std::int32_t n_expl = 1;
  TuningSummary summary;  // tuned_seconds left 0
  TuningDetails details;
};
TunedFlow run_tuning_flow(const NrptRunner& run, const AutotuneOptions& options);

}  // namespace detail

}  // namespace hamon
