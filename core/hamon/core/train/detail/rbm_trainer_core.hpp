// SPDX-License-Identifier: Apache-2.0
#pragma once
// The state and the update of an RbmTrainer (rbm_trainer.hpp) in one execution space:
// minibatch order, positive phase, tempered negative phase, optimiser step, and the state
// to save. rbm_trainer_impl.hpp defines the public class on it.

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/train/detail/rbm_chains.hpp"
#include "hamon/core/train/detail/rbm_views.hpp"
#include "hamon/core/train/detail/train_streams.hpp"
#include "hamon/core/train/rbm_trainer.hpp"
#include "hamon/core/util/deterministic_math.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
struct RbmTrainerCore {
  using views = TrainViews<ExecutionSpace>;
  using memory_space = typename ExecutionSpace::memory_space;

  ExecutionSpace space;
  TrainingOptions options;
  std::int64_t n_visible, n_hidden, n_rows, batch, updates_per_epoch, total_updates;
  double largest;
  Kokkos::View<std::int8_t**, Kokkos::LayoutRight, typename views::device> rows;  // training
  Kokkos::View<std::int64_t*, typename views::device> order;  // this epoch's row order
  std::int64_t order_epoch = -1;
  FlatRbm<ExecutionSpace> theta, moment1, moment2, data_stats, model_stats;
  typename views::matrix batch_visible, batch_fields, batch_hidden;
  std::unique_ptr<RbmChains<ExecutionSpace>> chains;
  std::int64_t updates = 0;

  RbmTrainerCore(const ExecutionSpace& s, const TrainingData& train, const RbmParameters& initial,
                 const TrainingOptions& o)
      : space(s), options(o) {
    validate_options(options);
    check_training_data(train, "training data");
    check_parameters(initial);
    n_visible = initial.n_visible;
    n_hidden = initial.n_hidden;
    if (train.n_visible != n_visible) {
      throw std::invalid_argument("training data: rows of " + std::to_string(train.n_visible) +
                                  " units for an RBM of " + std::to_string(n_visible) +
                                  " visible units");
    }
    n_rows = train.n_rows();
    batch = options.batch;
    if (n_rows < batch) {
      throw std::invalid_argument("train.batch: " + std::to_string(batch) +
                                  " rows per batch, but " + "the training data has only " +
                                  std::to_string(n_rows) + " rows");
    }
    updates_per_epoch = n_rows / batch;
    total_updates = updates_per_epoch * options.epochs;
    largest = largest_parameter(n_visible, n_hidden);
    rows = decltype(rows)(Kokkos::view_alloc(space, std::string("hamon::train_rows")), n_rows,
                          n_visible);
    {
      auto host = Kokkos::create_mirror_view(rows);
      std::copy(train.rows.begin(), train.rows.end(), host.data());
      Kokkos::deep_copy(space, rows, host);
    }
    order = decltype(order)(Kokkos::view_alloc(space, std::string("hamon::train_order")), n_rows);
    theta = FlatRbm<ExecutionSpace>(space, "hamon::theta", n_visible, n_hidden);
    moment1 = FlatRbm<ExecutionSpace>(space, "hamon::moment1", n_visible, n_hidden);
    moment2 = FlatRbm<ExecutionSpace>(space, "hamon::moment2", n_visible, n_hidden);
    data_stats = FlatRbm<ExecutionSpace>(space, "hamon::data_stats", n_visible, n_hidden);
    model_stats = FlatRbm<ExecutionSpace>(space, "hamon::model_stats", n_visible, n_hidden);
    copy_to(space, flatten(initial), theta.values);
    batch_visible = views::new_matrix(space, "hamon::batch_visible", batch, n_visible);
    batch_fields = views::new_matrix(space, "hamon::batch_fields", batch, n_hidden);
    batch_hidden = views::new_matrix(space, "hamon::batch_hidden", batch, n_hidden);
    chains = std::make_unique<RbmChains<ExecutionSpace>>(
        space, initial, options.negative_chains, ladder_of(options),
        train_seed(options.seed, TrainStream::chains, 0), options.sweep_path);
    space.fence();
  }

  void restore(const RbmTrainingState& state) {
    const std::int64_t p = theta.size();
    const bool adam = options.optimiser == Optimiser::adam;
    if (state.moment1.size() != static_cast<std::size_t>(p) ||
        state.moment2.size() != static_cast<std::size_t>(adam ? p : 0) ||
        state.chains.size() != static_cast<std::size_t>(chains->n_machines()) *
                                   static_cast<std::size_t>(n_visible + n_hidden) ||
        state.updates_done < 0 || state.updates_done > total_updates ||
        state.swaps_attempted.size() != chains->attempted().size() ||
        state.swaps_accepted.size() != chains->attempted().size()) {
      throw std::invalid_argument(
          "training state: its shape (moments, chains, swap counters or update count) does not "
          "fit these options and data");
    }
    copy_to(space, state.moment1, moment1.values);
    if (adam) copy_to(space, state.moment2, moment2.values);
    chains->restore(state.chains, state.swaps_attempted, state.swaps_accepted);
    updates = state.updates_done;
  }

  double rate_at(std::int64_t t) const {
    const double progress =
        total_updates > 1 ? static_cast<double>(t) / static_cast<double>(total_updates - 1) : 0.0;
    switch (options.schedule) {
      case RateSchedule::linear:
        return options.learning_rate * (1.0 - (1.0 - options.final_rate_factor) * progress);
      case RateSchedule::exponential:
        return options.learning_rate * std::pow(options.final_rate_factor, progress);
      case RateSchedule::constant:
        break;
    }
    return options.learning_rate;
  }

  void load_order(std::int64_t epoch) {
    if (epoch == order_epoch) return;
    const std::vector<std::int64_t> host =
        epoch_order(n_rows, train_seed(options.seed, TrainStream::shuffle, 0), epoch);
    Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(
        host.data(), host.size());
    Kokkos::deep_copy(space, order, h);
    space.fence();
    order_epoch = epoch;
  }

  /// data_stats = [X^T H_d | sum X | sum H_d] of minibatch `t`.
  void positive_phase(std::int64_t t) {
    const std::int64_t epoch = t / updates_per_epoch;
    load_order(epoch);
    const std::int64_t start = (t % updates_per_epoch) * batch;
    const auto x = batch_visible;
    const auto r = rows;
    const auto ord = order;
    const std::int64_t nv = n_visible;
    const std::int64_t nh = n_hidden;
    launch(
        space, "hamon::train_gather_batch", batch * nv, batch * nv,
        KOKKOS_LAMBDA(const std::int64_t idx) {
          const std::int64_t b = idx / nv;
          const std::int64_t v = idx % nv;
          x(b, v) = r(ord(start + b), v);
        });
    dense_gemm(space, Transpose::no, Transpose::no, batch_visible, theta.weights(), batch_fields);
    const auto f = batch_fields;
    const auto hd = batch_hidden;
    const double* c = theta.hidden_bias();
    if (options.positive_phase == PositivePhase::expectation) {
      launch(
          space, "hamon::train_hidden_expectation", batch * nh, batch * nh,
          KOKKOS_LAMBDA(const std::int64_t idx) {
            const std::int64_t b = idx / nh;
            const std::int64_t h = idx % nh;
            hd(b, h) = snap_to_grid(deterministic_tanh(f(b, h) + c[h]), kExpectationGridBits);
          });
    } else {
      sample_positive_hidden(t);
    }
    dense_gemm(space, Transpose::yes, Transpose::no, batch_visible, batch_hidden,
               data_stats.weights());
    column_sums(batch_visible, batch_hidden, 0, batch, data_stats);
  }

  /// The positive phase's hidden units as heat-bath samples at beta = 1 (counter: node V + h,
  /// row group, kPositivePhaseSweep, update t).
  void sample_positive_hidden(std::int64_t t) {
    const auto f = batch_fields;
    const auto hd = batch_hidden;
    const double* c = theta.hidden_bias();
    const auto boundary = chains->state().tables.field_boundary;
    const std::int64_t target_row =
        static_cast<std::int64_t>(chains->target_chain()) * kFieldBoundaries;  // beta = 1
    const std::int64_t nv = n_visible;
    const std::int64_t nh = n_hidden;
    const std::int64_t rows_in_batch = batch;
    const std::uint64_t seed = train_seed(options.seed, TrainStream::chains, 0);
    const auto round = static_cast<std::uint32_t>(t);
    const std::int64_t groups = (batch + kMachinesPerDraw - 1) / kMachinesPerDraw;
    launch(
        space, "hamon::train_hidden_sample", groups * nh, batch * nh,
        KOKKOS_LAMBDA(const std::int64_t idx) {
          const std::int64_t h = idx % nh;
          const auto group = static_cast<std::uint32_t>(idx / nh);
          const auto node = static_cast<std::uint32_t>(nv + h);
          const Philox4 draw = philox4(seed, node, group, kPositivePhaseSweep, round);
          const DecisionTables tables{nullptr, boundary.data()};
          const ChainRow chain{1.0, target_row, 0};
          for (std::int32_t lane = 0; lane < kMachinesPerDraw; ++lane) {
            const std::int64_t b = static_cast<std::int64_t>(group) * kMachinesPerDraw + lane;
            if (b >= rows_in_batch) break;
            hd(b, h) = decide_spin<DecisionRule::boundary>(
                tables, chain, draw_byte(draw, lane), f(b, h) + c[h], [&] {
                  return tie_bits(seed, node, static_cast<std::uint32_t>(b), kPositivePhaseSweep,
                                  round);
                });
          }
        });
  }

  /// out's bias parts = column sums of rows [first, first + n) of v and h (in row order).
  void column_sums(const typename views::matrix& v, const typename views::matrix& h,
                   std::int64_t first, std::int64_t n, const FlatRbm<ExecutionSpace>& out) {
    const auto values = out.values;
    const std::int64_t nv = n_visible;
    const std::int64_t offset = out.visible_offset();
    launch(
        space, "hamon::train_column_sums", nv + n_hidden, (nv + n_hidden) * n,
        KOKKOS_LAMBDA(const std::int64_t i) {
          double sum = 0.0;
          for (std::int64_t k = first; k < first + n; ++k) sum += i < nv ? v(k, i) : h(k, i - nv);
          values(offset + i) = sum;
        });
  }

  /// The chains' sweeps and swaps of update t, then model_stats from them.
  void negative_phase(std::int64_t t) {
    chains->sweep(theta, options.sweeps, static_cast<std::uint32_t>(t));
    chains->swap_pass(theta, static_cast<std::uint32_t>(t));
    model_statistics();
  }

  /// model_stats = [V^T H | sum V | sum H] over the beta = 1 chains alone: the hotter rungs
  /// of a ladder only help those mix, their states are not samples of the model.
  void model_statistics() {
    const std::pair<std::int64_t, std::int64_t> target{chains->first_target(),
                                                       chains->n_machines()};
    const auto v = Kokkos::subview(chains->visible(), target, Kokkos::ALL);
    const auto h = Kokkos::subview(chains->hidden(), target, Kokkos::ALL);
    dense_gemm(space, Transpose::yes, Transpose::no, v, h, model_stats.weights());
    column_sums(chains->visible(), chains->hidden(), target.first, chains->n_ladders(),
                model_stats);
  }

  /// One optimiser step from data_stats and model_stats; returns max |parameter|.
  double optimiser_step(std::int64_t t) {
    const auto th = theta.values;
    const auto m1 = moment1.values;
    const auto m2 = moment2.values;
    const auto gd = data_stats.values;
    const auto gm = model_stats.values;
    const double inv_batch = 1.0 / static_cast<double>(batch);
    const double inv_chains = 1.0 / static_cast<double>(chains->n_ladders());
    const std::int64_t n_weights = theta.visible_offset();
    const double decay = options.weight_decay;
    const double rate = rate_at(t);
    const bool adam = options.optimiser == Optimiser::adam;
    const double mu = adam ? options.adam_beta1 : options.momentum;
    const double beta2 = options.adam_beta2;
    const double eps = options.adam_epsilon;
    const double correction1 = 1.0 - std::pow(options.adam_beta1, static_cast<double>(t + 1));
    const double correction2 = 1.0 - std::pow(beta2, static_cast<double>(t + 1));
    double largest_seen = 0.0;
    Kokkos::parallel_reduce(
        "hamon::train_optimiser_step",
        Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0,
                                                                             theta.size()),
        KOKKOS_LAMBDA(const std::int64_t i, double& seen) {
          double g = gd(i) * inv_batch - gm(i) * inv_chains;
          if (i < n_weights) g -= decay * th(i);
          double step;
          if (adam) {
            m1(i) = mu * m1(i) + (1.0 - mu) * g;
            m2(i) = beta2 * m2(i) + (1.0 - beta2) * g * g;
            step = rate * (m1(i) / correction1) / (device_sqrt(m2(i) / correction2) + eps);
          } else {
            m1(i) = mu * m1(i) + g;
            step = rate * m1(i);
          }
          th(i) = snap_to_grid(th(i) + step, kParameterGridBits);
          const double a = th(i) < 0.0 ? -th(i) : th(i);
          if (a > seen) seen = a;
        },
        Kokkos::Max<double>(largest_seen));
    return largest_seen;
  }

  std::int64_t train(std::int64_t n, const std::function<bool()>& should_stop) {
    std::int64_t done = 0;
    while (done < n && updates < total_updates) {
      const std::int64_t t = updates;
      positive_phase(t);
      negative_phase(t);
      const double seen = optimiser_step(t);
      if (!(seen <= largest)) {
        throw std::runtime_error("training diverged at update " + std::to_string(t) +
                                 ": a parameter reached " + std::to_string(seen) +
                                 ", beyond the largest the exact arithmetic allows (" +
                                 std::to_string(largest) + "); lower train.learning_rate");
      }
      ++updates;
      ++done;
      if (should_stop && should_stop()) break;
    }
    space.fence();
    return done;
  }

  RbmParameters parameters() const {
    return unflatten(to_host_vector(theta.values), n_visible, n_hidden);
  }

  RbmTrainingState state() const {
    RbmTrainingState s;
    s.parameters = parameters();
    s.moment1 = to_host_vector(moment1.values);
    if (options.optimiser == Optimiser::adam) s.moment2 = to_host_vector(moment2.values);
    s.chains = chains->spins_by_machine();
    s.updates_done = updates;
    s.swaps_attempted = chains->attempted();
    s.swaps_accepted = chains->accepted();
    return s;
  }
};

/// log(2 cosh x), stably.
inline double log_two_cosh(double x) {
  const double a = std::fabs(x);
  return a + std::log1p(std::exp(-2.0 * a));
}

}  // namespace hamon::detail
