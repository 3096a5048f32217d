// SPDX-License-Identifier: Apache-2.0
#pragma once
// nrpt.goal: ground_state's choices that need the model: whether Houdayer's cluster moves
// (and the two replicas they pair) fit the model and the run. The ladder's choices (beta_min,
// beta_max, chains) are made with the excitation costs in run/beta_max_auto.hpp.

#include "config/experiment_config.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon::cli {

/// With goal: ground_state and no nrpt.cluster_moves: Houdayer moves (two replicas unless
/// `replicas` says how many) for Ising spins in a run that can pair replicas, else none;
/// either way recorded in config.nrpt.chosen with its reason. `distributed`: the run is
/// spread over MPI ranks (a rung's replicas must share a process). A continuous model is
/// refused at nrpt.goal: it has no discrete ground state.
void choose_cluster_moves(ExperimentConfig& config, const SpinModel& model, bool distributed);

}  // namespace hamon::cli
