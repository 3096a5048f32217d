// SPDX-License-Identifier: Apache-2.0
#pragma once
// Maximum-likelihood training of an RBM by persistent contrastive divergence (PCD).
//
// One update on a minibatch X of B rows (grad = d log-likelihood / d parameter):
//   positive phase  phi = c + X W (one GEMM); hidden H_d = tanh(phi) (exact conditional
//                   expectation, on a 2^-24 grid) or a heat-bath sample of it;
//   negative phase  every persistent chain advances `sweeps` block-Gibbs sweeps (visible,
//                   then hidden: dense = one GEMM per layer for all chains, csr = the
//                   sampler's own sweep, the same bits); with a ladder, then one DEO swap
//                   pass per ladder, and only the beta = 1 end enters the gradient;
//   gradient        dW = X^T H_d / B - V_m^T H_m / M (two GEMMs; M cold chains), the biases
//                   likewise, minus weight_decay W;
//   optimiser       SGD with momentum or Adam, then every parameter rounded to the grid.
// The statistics are exact sums (+-1 products, grid values), the optimiser is elementwise
// IEEE arithmetic without contractions, and the random numbers are counter-based: training
// gives the same bits on every execution space and thread count, dense or csr, and a run
// continued from state() gives the same bits as one that never stopped.
//
// Monitoring (real-valued, for reports, never fed back): free energies, classification by
// the label of the lowest free energy, mean-field reconstruction error, and the held-out
// log-likelihood with log Z from NRPT with stepping stone from beta = 0.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hamon/core/analysis/log_partition.hpp"
#include "hamon/core/train/rbm_parameters.hpp"
#include "hamon/core/train/training_data.hpp"
#include "hamon/core/train/training_options.hpp"
#include "hamon/core/util/instantiated_spaces.hpp"

namespace hamon {

/// Everything a run continues from.
struct RbmTrainingState {
  RbmParameters parameters;
  std::vector<double> moment1;      // SGD velocity / Adam first moment, [W | b | c]
  std::vector<double> moment2;      // Adam second moment (empty for SGD)
  std::vector<std::int8_t> chains;  // negative chains' spins, machine-major (V + H each)
  std::int64_t updates_done = 0;
  std::vector<std::int64_t> swaps_attempted;  // per rung pair (i, i+1)
  std::vector<std::int64_t> swaps_accepted;

  /// The checkpoint's order (training_checkpoint.cpp).
  template <class Self>
  static auto fields(Self& s) {
    return std::make_tuple(
        field("parameters", s.parameters), field("moment1", s.moment1), field("moment2", s.moment2),
        field("chains", s.chains), field("updates_done", s.updates_done),
        field("swaps_attempted", s.swaps_attempted), field("swaps_accepted", s.swaps_accepted));
  }
};
static_assert(field_list_is_complete<RbmTrainingState>());

struct RbmEvaluation {
  std::int64_t n_rows = 0;
  double mean_free_energy = 0.0;      // over the rows, F(v) = -log sum_h exp(-E(v, h))
  double reconstruction_error = 0.0;  // mean ((v - <v'>) / 2)^2 over units, mean field
  std::optional<double> accuracy;     // rows with labels: lowest free energy's label
};

struct LogZOptions {
  std::int32_t rungs = 64;     // betas linear from 0 to 1
  std::int64_t rounds = 1000;  // measured rounds (one energy per rung each)
  std::int64_t burn_in = 200;
  std::int32_t sweeps = 1;
  std::uint64_t seed = 0;
};

/// log Z of the current parameters, and its estimator's record.
struct RbmLogPartition {
  LogPartition estimate;
  std::vector<double> betas;
  std::vector<double> swap_acceptance;  // per rung pair
};

class RbmTrainerBase {
 public:
  virtual ~RbmTrainerBase() = default;
  /// Runs up to n more updates (stops early when should_stop says so after an update);
  /// returns the updates run. Throws std::runtime_error when a parameter leaves the range
  /// of largest_parameter (training diverged: lower the learning rate).
  virtual std::int64_t train(std::int64_t n_updates,
                             const std::function<bool()>& should_stop = {}) = 0;
  virtual std::int64_t updates_done() const = 0;
  virtual std::int64_t updates_per_epoch() const = 0;
  virtual RbmParameters parameters() const = 0;
  virtual RbmTrainingState state() const = 0;
  /// Free energies of the rows of `data` (same n_visible).
  virtual std::vector<double> free_energies(const TrainingData& data) const = 0;
  virtual RbmEvaluation evaluate(const TrainingData& data) const = 0;
  virtual RbmLogPartition log_partition(const LogZOptions& options) const = 0;
  /// The visible units of the first `count` cold negative chains, machine-major.
  virtual std::vector<std::int8_t> negative_samples(std::int32_t count) const = 0;
  /// Swap acceptance per rung pair since the start (empty when untempered).
  virtual std::vector<double> swap_acceptance() const = 0;
  virtual const TrainingOptions& options() const = 0;
  virtual std::string execution_space() const = 0;
};

/// The initial parameters for `data`: W ~ N(0, scale^2) from the seed, visible biases at
/// the data's log-odds (b = atanh(mean v), the mean clipped to +-0.998), hidden biases 0;
/// all on the grid.
RbmParameters initial_parameters(const TrainingData& data, std::int64_t n_hidden,
                                 const TrainingOptions& options);

namespace detail {
template <class ExecutionSpace>
struct RbmTrainerCore;
}

template <class ExecutionSpace>
class RbmTrainer final : public RbmTrainerBase {
  using CompiledForThisSpace = require_instantiated_t<ExecutionSpace>;

 public:
  /// A new run from `initial` (e.g. initial_parameters). Throws std::invalid_argument for
  /// bad options or data, ModelError for bad parameters.
  RbmTrainer(const ExecutionSpace& space, const TrainingData& train, const RbmParameters& initial,
             const TrainingOptions& options);
  /// Continues from `state` (made with the same data and options, on any space).
  RbmTrainer(const ExecutionSpace& space, const TrainingData& train, const TrainingOptions& options,
             const RbmTrainingState& state);
  ~RbmTrainer() override;
  RbmTrainer(const RbmTrainer&) = delete;
  RbmTrainer& operator=(const RbmTrainer&) = delete;

  std::int64_t train(std::int64_t n_updates,
                     const std::function<bool()>& should_stop = {}) override;
  std::int64_t updates_done() const override;
  std::int64_t updates_per_epoch() const override;
  RbmParameters parameters() const override;
  RbmTrainingState state() const override;
  std::vector<double> free_energies(const TrainingData& data) const override;
  RbmEvaluation evaluate(const TrainingData& data) const override;
  RbmLogPartition log_partition(const LogZOptions& options) const override;
  std::vector<std::int8_t> negative_samples(std::int32_t count) const override;
  std::vector<double> swap_acceptance() const override;
  const TrainingOptions& options() const override;
  std::string execution_space() const override;

 private:
  std::unique_ptr<detail::RbmTrainerCore<ExecutionSpace>> core_;
};

/// Mean over the rows of log p(v) = -F(v) - log Z.
double mean_log_likelihood(const std::vector<double>& free_energies, double log_z);

}  // namespace hamon
