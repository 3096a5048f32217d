// SPDX-License-Identifier: Apache-2.0
#pragma once
// The options of maximum-likelihood training of an RBM by persistent contrastive
// divergence (rbm_trainer.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/util/enum_names.hpp"

namespace hamon {

enum class Optimiser { sgd, adam };
/// How the negative chains are swept: one GEMM per layer for all chains (dense), or the
/// sampler's own block-Gibbs sweep over the RBM's CSR graph (csr). Same bits.
enum class SweepPath { dense, csr };
/// The positive phase's hidden units: their exact conditional expectation tanh(phi)
/// (rounded to 2^-24), or one heat-bath sample.
enum class PositivePhase { expectation, sample };
/// The learning rate over the run: constant, linear decay to final_factor x the initial
/// rate at the last update, or exponential (geometric) decay to the same.
enum class RateSchedule { constant, linear, exponential };

// The names a training file spells them with (and summary and checkpoint text writes),
// in the order a reader is offered them.
inline constexpr EnumNames<Optimiser, 2> kOptimiserNames{{
    {Optimiser::adam, "adam"},
    {Optimiser::sgd, "sgd"},
}};
inline constexpr EnumNames<SweepPath, 2> kSweepPathNames{{
    {SweepPath::dense, "dense"},
    {SweepPath::csr, "csr"},
}};
inline constexpr EnumNames<PositivePhase, 2> kPositivePhaseNames{{
    {PositivePhase::expectation, "expectation"},
    {PositivePhase::sample, "sample"},
}};
inline constexpr EnumNames<RateSchedule, 3> kRateScheduleNames{{
    {RateSchedule::constant, "constant"},
    {RateSchedule::linear, "linear"},
    {RateSchedule::exponential, "exponential"},
}};

const char* to_string(Optimiser value);
const char* to_string(SweepPath value);
const char* to_string(PositivePhase value);
const char* to_string(RateSchedule value);

struct TrainingOptions {
  std::int64_t epochs = 10;
  std::int64_t batch = 100;  // rows per minibatch (the last, short one of an epoch dropped)
  double learning_rate = 0.01;
  RateSchedule schedule = RateSchedule::constant;
  double final_rate_factor = 1.0;  // linear / exponential: the last update's rate factor
  Optimiser optimiser = Optimiser::adam;
  double momentum = 0.9;  // sgd (0: plain SGD)
  double adam_beta1 = 0.9;
  double adam_beta2 = 0.999;
  double adam_epsilon = 1e-8;
  double weight_decay = 0.0;  // L2 on the weights (not the biases)
  PositivePhase positive_phase = PositivePhase::expectation;
  /// Persistent negative chains; with a ladder, each is an NRPT ladder whose beta = 1 end
  /// feeds the gradient (negative_chains x ladder.size() machines in all).
  std::int32_t negative_chains = 100;
  std::int32_t sweeps = 1;  // block-Gibbs sweeps of every chain per update (k)
  /// Ascending inverse temperatures ending at 1 (empty: untempered, {1}). One DEO swap pass
  /// per update after the sweeps.
  std::vector<double> ladder;
  SweepPath sweep_path = SweepPath::dense;
  double initial_weight_scale = 0.01;  // W ~ N(0, scale^2), rounded to the grid
  std::uint64_t seed = 0;
};

/// Throws std::invalid_argument naming the offending option.
void validate_options(const TrainingOptions& options);

/// The ladder the options describe ({1} when untempered).
std::vector<double> ladder_of(const TrainingOptions& options);

}  // namespace hamon
