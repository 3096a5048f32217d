// SPDX-License-Identifier: Apache-2.0
#pragma once
// Non-reversible parallel tempering (NRPT) with deterministic even-odd swaps, and plain
// block-Gibbs sampling as its one-chain case.
//
// Each round: n_expl block-Gibbs sweeps of every machine at its current beta; one energy
// per machine; one DEO swap pass (even pairs on even rounds, odd pairs on odd rounds);
// the index process; then the observers. The whole loop runs in the execution space it
// is given; nothing crosses to the host per round.
//
// The templates are defined in hamon/core/sampler/detail/nrpt_impl.hpp and explicitly instantiated
// by the library for every enabled backend of cmake/HamonBackends.cmake's list
// (policies/src/nrpt_backend.cpp.in); any other space is a readable compile error.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "hamon/core/families/family_abilities.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/state/observer_options.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/stats/magnetization_statistics.hpp"
#include "hamon/core/stats/moments.hpp"
#include "hamon/core/stats/overlap_statistics.hpp"
#include "hamon/core/stats/statistics.hpp"
#include "hamon/core/util/instantiated_spaces.hpp"

namespace hamon {

/// A progress report, for displays. Producing one copies the swap counters to the host,
/// so it happens only every NrptOptions::progress_every rounds.
struct Progress {
  std::int64_t rounds_done = 0;   // burn-in included
  std::int64_t rounds_total = 0;  // burn_in + n_rounds
  bool burning_in = false;
  double Lambda = 0.0;  // over the rounds since the counters were last reset
  double min_acceptance = 0.0;
};

/// Moves between replicas after the sweeps of a round (NrptOptions::cluster_moves).
enum class ClusterMoves : std::int32_t {
  none = 0,
  /// Houdayer's cluster move at every rung of replica pairs (0, 1), (2, 3), ...
  /// (families/spin/detail/houdayer.hpp): spin models, an even number of replicas, one process.
  houdayer = 1
};

/// What the bottom of the ladder (beta = 0) samples (NrptOptions::reference).
enum class AnnealingReference : std::int32_t {
  /// independent for continuous models, none for discrete ones.
  automatic = 0,
  /// The machine at beta samples exp(-beta E): beta = 0 is uniform (discrete models only;
  /// a continuous model's ladder must then start above 0).
  none = 1,
  /// The machine at beta samples exp(-beta_max E_ref - beta (E - E_ref)), E_ref the model's
  /// node terms (a continuous model's; an Ising model's fields, -sum_i h_i s_i: independent
  /// sites, exact log Z: reference_log_z), so beta = 0 is the reference at beta_max and
  /// beta_max the model; swaps and log Z use E - E_ref. Not for Potts models.
  independent = 2
};

/// "automatic", "none", "independent".
const char* to_string(AnnealingReference reference);

struct NrptOptions {
  /// The ladder: explicit ascending betas, or (when empty) n_chains betas spaced
  /// linearly from beta_min to beta_max. The last beta is the target.
  std::vector<double> betas;
  std::int32_t n_chains = 8;
  double beta_min = 0.0;
  double beta_max = 1.0;
  std::int64_t n_rounds = 1000;  // measured rounds
  std::int64_t burn_in = 0;      // rounds before measuring (state and statistics discarded)
  std::int32_t n_expl = 1;       // block-Gibbs sweeps per round
  std::uint64_t seed = 0;
  /// Tune the ladder during burn-in: up to `adapt_phases` segments of at least 50 rounds,
  /// each followed by optimize_schedule on its rejection rates, then a settling segment on
  /// the final ladder before measurement (run_phases.hpp).
  bool adapt_schedule = false;
  std::int32_t adapt_phases = 5;
  /// Independent NRPT ladders of the same model in one run (replicas, >= 1): replica r's
  /// machines are r * n_chains .. r * n_chains + n_chains - 1 of one state, each with its own
  /// permutation, index process and random streams; replica 0 is the run of one replica. Swap
  /// statistics are pooled over the replicas; the observers (traces, samples, moments) record
  /// replica 0.
  std::int32_t n_replicas = 1;
  ClusterMoves cluster_moves = ClusterMoves::none;
  AnnealingReference reference = AnnealingReference::automatic;
  ObserverOptions observers;
  /// Called every `progress_every` rounds (0 = never) from the calling thread.
  std::int64_t progress_every = 0;
  std::function<void(const Progress&)> on_progress;
};

/// Throws std::invalid_argument naming the offending option, and for a run whose variables
/// and recorded traces would not fit in this machine's physical memory (saying how much
/// it needs, for what, and how much there is) before anything is allocated. `value_bytes`
/// is the size of one variable as the sampler stores and records it (FamilyFacts::
/// value_bytes): 1 for spins and Potts states, 8 for the doubles of a continuous model.
void validate_options(const NrptOptions& options, std::int64_t n_nodes,
                      std::size_t value_bytes = 1);
/// The ladder the options describe (explicit betas or the linear default).
std::vector<double> ladder_of(const NrptOptions& options);
/// Whether a run of `options` on a model whose family has `support` (its abilities; the
/// model's name for messages, e.g. "Potts") samples the annealing path
/// (AnnealingReference::independent, or automatic where the family requires it). Throws
/// std::invalid_argument for independent where the family refuses it, and where it requires
/// it for a run without it whose ladder starts at beta <= 0 (exp(-0 E) does not normalise).
bool anneals(const NrptOptions& options, AnnealingSupport support, const std::string& model);

struct Continuation;  // below

struct NrptResult {
  std::vector<double> betas;  // the final ladder (after any adaptation)
  SwapStatistics swaps;       // over measured rounds
  std::int64_t n_rounds = 0;  // measured rounds
  double tau_observed = 0.0;  // round trips per measured round, per replica
  double efficiency = 0.0;    // tau_observed / swaps.tau_predicted (the finite ladder's)
  std::vector<std::int64_t> round_trips;  // per machine (every replica's), measured rounds
  std::vector<std::int64_t> restarts;     // per machine (every replica's), measured rounds
  std::int64_t total_round_trips = 0;
  std::vector<std::int32_t> chain_of_machine;  // final permutation (chain within the ladder)
  std::vector<std::int32_t> machine_of_chain;  // at r * n_chains + chain for replica r
  std::vector<double> final_energies;          // per chain (temperature index), replica 0
  std::int64_t spin_updates = 0;               // heat-bath updates done, burn-in included
  /// The run sampled the annealing path (AnnealingReference::independent): then
  /// `energies` and `final_energies` are E - E_ref, not E, and log Z starts from
  /// reference_log_z(model, betas.back()). The best energies are E all the same.
  bool annealed = false;

  // The best state of the run (every machine, every round, burn-in included): the lowest
  // model energy E after a round's sweeps (on the annealing path too); of equal energies the
  // earliest found, then the lowest machine's. best_round is -1 before the first round.
  double best_energy = 0.0;
  std::vector<std::int8_t> best_state;      // n_nodes variables (Potts: states, read as uint8)
  std::vector<double> best_real_state;      // the same for continuous models
  std::int64_t best_round = -1;             // the round it was found in, from 0, burn-in included
  std::int32_t best_chain = -1;             // the temperature index it was found at
  double best_beta = 0.0;                   // that chain's beta then
  std::int64_t round_trips_since_best = 0;  // round trips counted (measured) since it was found
  std::vector<double> best_energies;        // per machine

  // Observer outputs (empty unless asked for).
  std::vector<std::int64_t> sample_nodes;
  std::int64_t n_samples = 0;
  std::vector<std::int8_t> samples;  // n_samples x sample_nodes.size(), row-major (Potts: states,
                                     // read the bytes as uint8)
  std::vector<double> real_samples;  // the same for continuous models (samples stays empty)
  std::vector<double> energies;      // n_rounds x n_chains, row-major, by temperature
  std::vector<std::int32_t> index_process;  // n_rounds x n_chains, row-major, by machine
  Moments moments;
  /// With two replicas or more in one process: the replica overlaps per temperature
  /// (overlap_statistics.hpp); empty otherwise.
  OverlapStatistics overlaps;
  /// With observers.magnetization, for spins and Potts states in one process: the magnetisation per
  /// temperature (magnetization_statistics.hpp); empty otherwise.
  MagnetizationStatistics magnetization;
  /// Set by Plan::sample and Plan::extend: where the run stopped.
  std::shared_ptr<const Continuation> continuation;
};

/// The result's variables of each storage type (model/variable_kind.hpp), so that code
/// written over the storage picks its vectors by overload.
inline std::vector<std::int8_t>& stored_samples(NrptResult& r, std::int8_t) {
  return r.samples;
}
inline std::vector<double>& stored_samples(NrptResult& r, double) {
  return r.real_samples;
}
inline std::vector<std::int8_t>& stored_best_state(NrptResult& r, std::int8_t) {
  return r.best_state;
}
inline std::vector<double>& stored_best_state(NrptResult& r, double) {
  return r.best_real_state;
}

/// A sampler state of either storage of the variables (variable_kind.hpp): bytes for
/// spins and Potts states, doubles for continuous models.
using AnySamplerState = std::variant<SamplerState, SamplerStateOf<double>>;

/// A run's state and options, to continue it (Plan::extend).
struct Continuation {
  AnySamplerState state;
  NrptOptions options;
};

/// Runs NRPT for `model` in `space` (a Sampler run for burn_in + n_rounds rounds).
template <class ExecutionSpace, class = require_instantiated_t<ExecutionSpace>>
NrptResult nrpt(const ExecutionSpace& space, const SpinModel& model, const NrptOptions& options);

/// The same on a model whose Views already live in the space's memory (embedding in a
/// Kokkos code: nothing is copied).
template <class ExecutionSpace, class = require_instantiated_t<ExecutionSpace>>
NrptResult nrpt(const ExecutionSpace& space,
                const DeviceModel<typename ExecutionSpace::memory_space>& device_model,
                const NrptOptions& options);

/// Plain block-Gibbs sampling at one inverse temperature: NRPT with one chain.
template <class ExecutionSpace, class = require_instantiated_t<ExecutionSpace>>
NrptResult sample(const ExecutionSpace& space, const SpinModel& model, double beta,
                  NrptOptions options);

}  // namespace hamon
