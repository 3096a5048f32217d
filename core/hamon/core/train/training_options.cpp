// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/train/training_options.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace hamon {

const char* to_string(Optimiser value) {
  return name_of(kOptimiserNames, value);
}

const char* to_string(SweepPath value) {
  return name_of(kSweepPathNames, value);
}

const char* to_string(PositivePhase value) {
  return name_of(kPositivePhaseNames, value);
}

const char* to_string(RateSchedule value) {
  return name_of(kRateScheduleNames, value);
}

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

bool finite_positive(double x) {
  return std::isfinite(x) && x > 0.0;
}

}  // namespace

void validate_options(const TrainingOptions& o) {
  require(o.epochs >= 1, "train.epochs: must be at least 1, got " + std::to_string(o.epochs));
  require(o.batch >= 1 && o.batch <= (std::int64_t{1} << 20),
          "train.batch: must be in [1, 2^20], got " + std::to_string(o.batch));
  require(finite_positive(o.learning_rate),
          "train.learning_rate: must be a positive number, got " + std::to_string(o.learning_rate));
  require(o.schedule == RateSchedule::constant || finite_positive(o.final_rate_factor),
          "train.final_rate_factor: must be a positive number, got " +
              std::to_string(o.final_rate_factor));
  require(std::isfinite(o.momentum) && o.momentum >= 0.0 && o.momentum < 1.0,
          "train.momentum: must be in [0, 1), got " + std::to_string(o.momentum));
  require(std::isfinite(o.adam_beta1) && o.adam_beta1 >= 0.0 && o.adam_beta1 < 1.0,
          "train.adam.beta1: must be in [0, 1), got " + std::to_string(o.adam_beta1));
  require(std::isfinite(o.adam_beta2) && o.adam_beta2 >= 0.0 && o.adam_beta2 < 1.0,
          "train.adam.beta2: must be in [0, 1), got " + std::to_string(o.adam_beta2));
  require(finite_positive(o.adam_epsilon),
          "train.adam.epsilon: must be a positive number, got " + std::to_string(o.adam_epsilon));
  require(std::isfinite(o.weight_decay) && o.weight_decay >= 0.0,
          "train.weight_decay: must be >= 0, got " + std::to_string(o.weight_decay));
  require(o.negative_chains >= 1 && o.negative_chains <= (1 << 20),
          "train.negative_chains: must be in [1, 2^20], got " + std::to_string(o.negative_chains));
  require(o.sweeps >= 1 && o.sweeps <= 1 << 20,
          "train.sweeps: must be in [1, 2^20], got " + std::to_string(o.sweeps));
  require(
      std::isfinite(o.initial_weight_scale) && o.initial_weight_scale >= 0.0,
      "train.initial_weight_scale: must be >= 0, got " + std::to_string(o.initial_weight_scale));
  if (!o.ladder.empty()) {
    require(o.ladder.size() >= 2,
            "train.ladder: a ladder needs at least 2 betas (omit it to "
            "train without tempering)");
    require(o.ladder.back() == 1.0,
            "train.ladder: the last beta must be 1 (the model itself), "
            "got " +
                std::to_string(o.ladder.back()));
    for (std::size_t i = 0; i < o.ladder.size(); ++i) {
      require(std::isfinite(o.ladder[i]) && o.ladder[i] >= 0.0,
              "train.ladder: beta " + std::to_string(i) + " must be a number >= 0");
      require(i == 0 || o.ladder[i] > o.ladder[i - 1],
              "train.ladder: betas must be strictly ascending (beta " + std::to_string(i) + ")");
    }
    const auto machines = static_cast<std::int64_t>(o.ladder.size()) * o.negative_chains;
    require(machines <= (1 << 24),
            "train.ladder: " + std::to_string(machines) + " machines (chains x rungs) exceed 2^24");
  }
}

std::vector<double> ladder_of(const TrainingOptions& options) {
  return options.ladder.empty() ? std::vector<double>{1.0} : options.ladder;
}

}  // namespace hamon
