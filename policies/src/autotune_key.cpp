// SPDX-License-Identifier: Apache-2.0
// The tuning-cache key of autotune (hamon/policies/autotune.hpp): every input that decides
// the plan, one line per group, doubles as exact hex floats.
#include <cstdio>
#include <string>

#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/util/text.hpp"
#include "hamon/policies/autotune.hpp"
#include "hamon/version.hpp"

namespace hamon {

namespace {

std::string flag(bool value) {
  return value ? "1" : "0";
}

}  // namespace

std::string autotune_cache_key(const SpinModel& model, const AutotuneOptions& o,
                               const std::string& execution_space) {
  const std::string n = "\n";
  std::string key = "format 1" + n;
  key += "hamon_version " + std::string(hamon::version) + n;
  key += "execution_space " + execution_space + n;
  key += "model fingerprint=" + to_hex(model_fingerprint(model)) +
         " nodes=" + std::to_string(model.n_nodes()) + " edges=" + std::to_string(model.n_edges()) +
         " free=" + std::to_string(model.n_free()) + n;
  if (o.betas.empty()) {
    key += "beta_range min=" + hex_float(o.beta_min) + " max=" + hex_float(o.beta_max) + n;
  } else {
    key += "betas_fixed";
    for (double beta : o.betas) key += " " + hex_float(beta);
    key += n;
  }
  key += "reference " + std::string(to_string(o.reference)) + n;
  // Only when not the single ladder: the keys of plans tuned before replicas could be
  // tuned stay as they were.
  if (o.n_replicas != 1 || o.cluster_moves != ClusterMoves::none) {
    key += "replicas n=" + std::to_string(o.n_replicas) +
           " cluster_moves=" + (o.cluster_moves == ClusterMoves::houdayer ? "houdayer" : "none") +
           n;
  }
  key += "tune chains=" + flag(o.tune_chains) + " betas=" + flag(o.tune_betas) +
         " exploration=" + flag(o.tune_exploration) + n;
  key += "fixed n_chains=" + std::to_string(o.n_chains) + " n_expl=" + std::to_string(o.n_expl) + n;
  const ChainTuningOptions& c = o.chains;
  key += "chains target_acceptance=" + hex_float(c.target_acceptance) +
         " safety=" + hex_float(c.safety) + " max_chains=" + std::to_string(c.max_chains) +
         " min_chains=" + std::to_string(c.min_chains) +
         " initial=" + (c.initial_chains ? std::to_string(*c.initial_chains) : "none") +
         " max_iterations=" + std::to_string(c.max_iterations) +
         " schedule_phases=" + std::to_string(c.schedule_phases) + n;
  const ScheduleTuningOptions& s = o.schedule;
  key += "schedule n_tune=" + std::to_string(s.n_tune) +
         " rounds_per_tune=" + std::to_string(s.rounds_per_tune) +
         " batch_rounds=" + std::to_string(s.batch_rounds) +
         " lambda_rtol=" + hex_float(s.lambda_rtol) +
         " max_rounds_per_tune=" + std::to_string(s.max_rounds_per_tune) +
         " burn_in=" + std::to_string(s.burn_in) +
         " equalised_rejection_std=" + hex_float(s.equalised_rejection_std) +
         " beta_move_tol=" + hex_float(s.beta_move_tol) +
         " plateau_rtol=" + hex_float(s.plateau_rtol) +
         " plateau_phases=" + std::to_string(s.plateau_phases) +
         " saturated_rejection=" + hex_float(s.saturated_rejection) +
         " barrier_max_rejection=" + hex_float(s.barrier_max_rejection) +
         " conveyor_min_efficiency=" + hex_float(s.conveyor_min_efficiency) +
         " conveyor_min_round_trips=" + hex_float(s.conveyor_min_round_trips) + n;
  const ExplorationTuningOptions& e = o.exploration;
  key += "exploration candidates=";
  for (std::size_t k = 0; k < e.candidates.size(); ++k) {
    key += (k ? "," : "") + std::to_string(e.candidates[k]);
  }
  key += " rounds=" + std::to_string(e.rounds) + " burn_in=" + std::to_string(e.burn_in) +
         " cost=" + (e.cost == ExplorationCost::wall_seconds ? "wall_seconds" : "sweeps");
  return key;
}

}  // namespace hamon
