// SPDX-License-Identifier: Apache-2.0
#pragma once
// RbmTrainer's definitions (rbm_trainer.hpp), explicitly instantiated per enabled backend
// (policies/src/train_backend.cpp.in).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/train/detail/rbm_trainer_core.hpp"
#include "hamon/core/train/rbm_trainer.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon {

template <class ExecutionSpace>
RbmTrainer<ExecutionSpace>::RbmTrainer(const ExecutionSpace& space, const TrainingData& train,
                                       const RbmParameters& initial, const TrainingOptions& options)
    : core_(std::make_unique<detail::RbmTrainerCore<ExecutionSpace>>(space, train, initial,
                                                                     options)) {}

template <class ExecutionSpace>
RbmTrainer<ExecutionSpace>::RbmTrainer(const ExecutionSpace& space, const TrainingData& train,
                                       const TrainingOptions& options,
                                       const RbmTrainingState& state)
    : core_(std::make_unique<detail::RbmTrainerCore<ExecutionSpace>>(space, train, state.parameters,
                                                                     options)) {
  core_->restore(state);
}

template <class ExecutionSpace>
RbmTrainer<ExecutionSpace>::~RbmTrainer() = default;

template <class ExecutionSpace>
std::int64_t RbmTrainer<ExecutionSpace>::train(std::int64_t n_updates,
                                               const std::function<bool()>& should_stop) {
  return core_->train(n_updates, should_stop);
}

template <class ExecutionSpace>
std::int64_t RbmTrainer<ExecutionSpace>::updates_done() const {
  return core_->updates;
}

template <class ExecutionSpace>
std::int64_t RbmTrainer<ExecutionSpace>::updates_per_epoch() const {
  return core_->updates_per_epoch;
}

template <class ExecutionSpace>
RbmParameters RbmTrainer<ExecutionSpace>::parameters() const {
  return core_->parameters();
}

template <class ExecutionSpace>
RbmTrainingState RbmTrainer<ExecutionSpace>::state() const {
  return core_->state();
}

template <class ExecutionSpace>
const TrainingOptions& RbmTrainer<ExecutionSpace>::options() const {
  return core_->options;
}

template <class ExecutionSpace>
std::string RbmTrainer<ExecutionSpace>::execution_space() const {
  return ExecutionSpace::name();
}

template <class ExecutionSpace>
std::vector<double> RbmTrainer<ExecutionSpace>::free_energies(const TrainingData& data) const {
  using views = detail::TrainViews<ExecutionSpace>;
  const auto& c = *core_;
  check_training_data(data, "data");
  if (data.n_visible != c.n_visible) {
    throw std::invalid_argument("free_energies: rows of " + std::to_string(data.n_visible) +
                                " units for an RBM of " + std::to_string(c.n_visible));
  }
  const RbmParameters p = parameters();
  constexpr std::int64_t kChunk = 1024;
  const std::int64_t n = data.n_rows();
  std::vector<double> out(static_cast<std::size_t>(n));
  auto x = views::new_matrix(c.space, "hamon::eval_visible", kChunk, c.n_visible);
  auto f = views::new_matrix(c.space, "hamon::eval_fields", kChunk, c.n_hidden);
  auto x_host = Kokkos::create_mirror_view(x);
  for (std::int64_t first = 0; first < n; first += kChunk) {
    const std::int64_t rows = std::min(kChunk, n - first);
    for (std::int64_t r = 0; r < kChunk; ++r) {
      for (std::int64_t v = 0; v < c.n_visible; ++v) {
        x_host(r, v) =
            r < rows ? data.rows[static_cast<std::size_t>((first + r) * c.n_visible + v)] : 0.0;
      }
    }
    Kokkos::deep_copy(c.space, x, x_host);
    dense_gemm(c.space, Transpose::no, Transpose::no, x, c.theta.weights(), f);
    const auto f_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
    for (std::int64_t r = 0; r < rows; ++r) {
      double sum = 0.0;
      for (std::int64_t v = 0; v < c.n_visible; ++v) {
        sum += p.visible_bias[static_cast<std::size_t>(v)] * x_host(r, v);
      }
      for (std::int64_t h = 0; h < c.n_hidden; ++h) {
        sum += detail::log_two_cosh(f_host(r, h) + p.hidden_bias[static_cast<std::size_t>(h)]);
      }
      out[static_cast<std::size_t>(first + r)] = -sum;
    }
  }
  return out;
}

template <class ExecutionSpace>
RbmEvaluation RbmTrainer<ExecutionSpace>::evaluate(const TrainingData& data) const {
  using views = detail::TrainViews<ExecutionSpace>;
  const auto& c = *core_;
  RbmEvaluation e;
  e.n_rows = data.n_rows();
  const std::vector<double> energies = free_energies(data);
  for (const double f : energies) e.mean_free_energy += f;
  if (e.n_rows > 0) e.mean_free_energy /= static_cast<double>(e.n_rows);

  if (data.n_labels > 0 && e.n_rows > 0) {
    const auto first_label = static_cast<std::size_t>(data.n_visible - data.n_labels);
    std::vector<double> best(static_cast<std::size_t>(e.n_rows), 0.0);
    std::vector<std::int32_t> predicted(static_cast<std::size_t>(e.n_rows), 0);
    TrainingData relabelled = data;
    for (std::int32_t k = 0; k < data.n_labels; ++k) {
      for (std::int64_t r = 0; r < e.n_rows; ++r) {
        relabelled.labels[static_cast<std::size_t>(r)] = k;
        for (std::int32_t l = 0; l < data.n_labels; ++l) {
          relabelled.rows[static_cast<std::size_t>(r * data.n_visible) + first_label +
                          static_cast<std::size_t>(l)] = l == k ? 1 : -1;
        }
      }
      const std::vector<double> fk = free_energies(relabelled);
      for (std::size_t r = 0; r < fk.size(); ++r) {
        if (k == 0 || fk[r] < best[r]) {
          best[r] = fk[r];
          predicted[r] = k;
        }
      }
    }
    std::int64_t right = 0;
    for (std::size_t r = 0; r < predicted.size(); ++r) right += predicted[r] == data.labels[r];
    e.accuracy = static_cast<double>(right) / static_cast<double>(e.n_rows);
  }

  // Mean-field reconstruction of up to kRows rows: <h> = tanh(c + v W), then
  // <v'> = tanh(b + W <h>) (the plain GEMM: its fixed summation order gives the same bits
  // on every backend for these real-valued products).
  constexpr std::int64_t kRows = 1000;
  const std::int64_t rows = std::min(kRows, e.n_rows);
  if (rows > 0) {
    const RbmParameters p = parameters();
    auto x = views::new_matrix(c.space, "hamon::recon_visible", rows, c.n_visible);
    auto fh = views::new_matrix(c.space, "hamon::recon_hidden", rows, c.n_hidden);
    auto fv = views::new_matrix(c.space, "hamon::recon_fields", rows, c.n_visible);
    auto x_host = Kokkos::create_mirror_view(x);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t v = 0; v < c.n_visible; ++v) {
        x_host(r, v) = data.rows[static_cast<std::size_t>(r * c.n_visible + v)];
      }
    }
    Kokkos::deep_copy(c.space, x, x_host);
    dense_gemm(c.space, Transpose::no, Transpose::no, x, c.theta.weights(), fh);
    const double* hidden_bias = c.theta.hidden_bias();
    const std::int64_t nh = c.n_hidden;
    detail::launch(
        c.space, "hamon::recon_hidden_means", rows * nh, rows * nh,
        KOKKOS_LAMBDA(const std::int64_t idx) {
          const std::int64_t r = idx / nh;
          const std::int64_t h = idx % nh;
          fh(r, h) = detail::deterministic_tanh(fh(r, h) + hidden_bias[h]);
        });
    dense_gemm(c.space, Transpose::no, Transpose::yes, fh, c.theta.weights(), fv, GemmKind::plain);
    const auto fv_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fv);
    double sum = 0.0;
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t v = 0; v < c.n_visible; ++v) {
        const double mean = std::tanh(fv_host(r, v) + p.visible_bias[static_cast<std::size_t>(v)]);
        const double d = (x_host(r, v) - mean) / 2.0;
        sum += d * d;
      }
    }
    e.reconstruction_error = sum / static_cast<double>(rows * c.n_visible);
  }
  return e;
}

template <class ExecutionSpace>
RbmLogPartition RbmTrainer<ExecutionSpace>::log_partition(const LogZOptions& options) const {
  const auto& c = *core_;
  if (options.rungs < 2 || options.rounds < 2 || options.burn_in < 0 || options.sweeps < 1) {
    throw std::invalid_argument(
        "log_partition: needs at least 2 rungs and 2 rounds, burn_in >= 0 and sweeps >= 1");
  }
  RbmLogPartition out;
  for (std::int32_t r = 0; r < options.rungs; ++r) {
    out.betas.push_back(static_cast<double>(r) / static_cast<double>(options.rungs - 1));
  }
  detail::RbmChains<ExecutionSpace> ladder(
      c.space, parameters(), 1, out.betas,
      detail::train_seed(options.seed, detail::TrainStream::log_z, 0), SweepPath::dense);
  std::vector<double> energies;
  energies.reserve(static_cast<std::size_t>(options.rounds * options.rungs));
  const auto e_host = Kokkos::create_mirror_view(ladder.energies());
  for (std::int64_t round = 0; round < options.burn_in + options.rounds; ++round) {
    ladder.sweep(c.theta, options.sweeps, static_cast<std::uint32_t>(round));
    ladder.swap_pass(c.theta, static_cast<std::uint32_t>(round));
    if (round < options.burn_in) continue;
    Kokkos::deep_copy(e_host, ladder.energies());
    energies.insert(energies.end(), e_host.data(), e_host.data() + options.rungs);
  }
  const double log_z0 = static_cast<double>(c.n_visible + c.n_hidden) * std::log(2.0);
  out.estimate = hamon::log_partition(out.betas, energies, log_z0);
  out.estimate.log_z0_exact = true;
  out.swap_acceptance = ladder.acceptance();
  return out;
}

template <class ExecutionSpace>
std::vector<std::int8_t> RbmTrainer<ExecutionSpace>::negative_samples(std::int32_t count) const {
  const auto& c = *core_;
  const auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.chains->visible());
  std::vector<std::int8_t> out;
  const std::int32_t n = std::min(count, c.chains->n_ladders());
  for (std::int32_t k = 0; k < n; ++k) {
    for (std::int64_t i = 0; i < c.n_visible; ++i) {
      out.push_back(static_cast<std::int8_t>(v(c.chains->first_target() + k, i)));
    }
  }
  return out;
}

template <class ExecutionSpace>
std::vector<double> RbmTrainer<ExecutionSpace>::swap_acceptance() const {
  return core_->chains->acceptance();
}

}  // namespace hamon
