// SPDX-License-Identifier: Apache-2.0
// The host-side parts of training: the epoch order, the initial parameters, log-likelihoods.
#include "hamon/core/train/rbm_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "hamon/core/train/detail/train_streams.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/seeds.hpp"

namespace hamon {

namespace detail {

std::vector<std::int64_t> epoch_order(std::int64_t n_rows, std::uint64_t seed, std::int64_t epoch) {
  std::vector<std::uint64_t> key(static_cast<std::size_t>(n_rows));
  const std::uint64_t epoch_seed = splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(epoch)));
  for (std::int64_t r = 0; r < n_rows; ++r) {
    key[static_cast<std::size_t>(r)] = splitmix64(epoch_seed + static_cast<std::uint64_t>(r));
  }
  std::vector<std::int64_t> order(static_cast<std::size_t>(n_rows));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    const auto ka = key[static_cast<std::size_t>(a)];
    const auto kb = key[static_cast<std::size_t>(b)];
    return ka != kb ? ka < kb : a < b;
  });
  return order;
}

}  // namespace detail

RbmParameters initial_parameters(const TrainingData& data, std::int64_t n_hidden,
                                 const TrainingOptions& options) {
  check_training_data(data, "training data");
  validate_options(options);
  RbmParameters p;
  p.n_visible = data.n_visible;
  p.n_hidden = n_hidden;
  const auto v = static_cast<std::size_t>(p.n_visible);
  const auto h = static_cast<std::size_t>(n_hidden);
  // Box-Muller from Philox words at counter (k, 0, 0xFFFFFFF2, 0) under the chains' seed.
  const std::uint64_t seed = detail::train_seed(options.seed, detail::TrainStream::chains, 1);
  p.weights.resize(v * h);
  for (std::size_t k = 0; k < p.weights.size(); ++k) {
    const detail::Philox4 draw = detail::philox4(
        seed, static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32), 0xFFFFFFF2u, 0u);
    const double u1 = detail::to_unit_interval(draw.w[0]);
    const double u2 = detail::to_unit_interval(draw.w[1]);
    const double normal = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    p.weights[k] = options.initial_weight_scale * normal;
  }
  p.visible_bias.assign(v, 0.0);
  const std::int64_t rows = data.n_rows();
  for (std::size_t i = 0; i < v; ++i) {
    double sum = 0.0;
    for (std::int64_t r = 0; r < rows; ++r) sum += data.rows[static_cast<std::size_t>(r) * v + i];
    const double mean = rows > 0 ? std::clamp(sum / static_cast<double>(rows), -0.998, 0.998) : 0.0;
    p.visible_bias[i] = std::atanh(mean);
  }
  p.hidden_bias.assign(h, 0.0);
  return snapped_to_grid(std::move(p));
}

double mean_log_likelihood(const std::vector<double>& free_energies, double log_z) {
  if (free_energies.empty()) return 0.0;
  double sum = 0.0;
  for (const double f : free_energies) sum += -f - log_z;
  return sum / static_cast<double>(free_energies.size());
}

}  // namespace hamon
