// SPDX-License-Identifier: Apache-2.0
#include "run/search_goal.hpp"

#include <string>

namespace hamon::cli {

void choose_cluster_moves(ExperimentConfig& config, const SpinModel& model, bool distributed) {
  NrptSpec& spec = config.nrpt;
  if (spec.goal == Goal::ground_state && model.is_continuous()) {
    config.fail("nrpt.goal", std::string("goal: ground_state searches the lowest discrete "
                                         "state; kind ") +
                                 to_string(model.continuous_kind()) +
                                 " has real values (drop goal and give the ladder)");
  }
  if (!spec.cluster_moves_auto) return;
  spec.cluster_moves_auto = false;
  const bool replicas_given = config.locations.count("replicas") != 0;
  std::string why_not;
  if (model.is_potts()) {
    why_not = "a Potts model has no two-state clusters to flip";
  } else if (distributed && config.instances == 1) {
    why_not = "the run is spread over MPI ranks, and a rung's two replicas must share a process";
  } else if (replicas_given && config.replicas % 2 != 0) {
    why_not = "replicas: " + std::to_string(config.replicas) + " is odd, and the moves pair them";
  }
  if (!why_not.empty()) {
    spec.chosen.push_back({"nrpt.cluster_moves", "none", "goal: ground_state: " + why_not});
    return;
  }
  spec.cluster_moves = ClusterMoves::houdayer;
  spec.chosen.push_back(
      {"nrpt.cluster_moves", "houdayer",
       "goal: ground_state: Ising spins with pair couplings, so Houdayer's move flips each "
       "cluster where two replicas disagree at no cost to the pair's energy, which carries a "
       "glass between minima that single-spin sweeps cannot leave"});
  if (!replicas_given) {
    config.replicas = 2;
    spec.chosen.push_back(
        {"replicas", "2", "goal: ground_state: Houdayer's moves pair two replicas of the ladder"});
  }
}

}  // namespace hamon::cli
