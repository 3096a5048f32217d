// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/train/rbm_parameters.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hamon/core/model/spin_model.hpp"

namespace hamon {

namespace {

/// Calls f(name, index, value) for every parameter, named as errors say it.
template <class F>
void for_each_parameter(const RbmParameters& p, F&& f) {
  for (std::size_t k = 0; k < p.weights.size(); ++k) f("weight", k, p.weights[k]);
  for (std::size_t k = 0; k < p.visible_bias.size(); ++k) f("visible bias", k, p.visible_bias[k]);
  for (std::size_t k = 0; k < p.hidden_bias.size(); ++k) f("hidden bias", k, p.hidden_bias[k]);
}

void check_shape(const RbmParameters& p) {
  if (p.n_visible < 1 || p.n_hidden < 1) {
    throw ModelError("RBM parameters: needs at least one visible and one hidden unit, got " +
                     std::to_string(p.n_visible) + " and " + std::to_string(p.n_hidden));
  }
  const auto v = static_cast<std::size_t>(p.n_visible);
  const auto h = static_cast<std::size_t>(p.n_hidden);
  if (p.weights.size() != v * h || p.visible_bias.size() != v || p.hidden_bias.size() != h) {
    throw ModelError("RBM parameters: " + std::to_string(p.weights.size()) + " weights, " +
                     std::to_string(p.visible_bias.size()) + " visible and " +
                     std::to_string(p.hidden_bias.size()) + " hidden biases for " +
                     std::to_string(v) + " x " + std::to_string(h) + " units");
  }
}

void check_range(const char* what, std::size_t index, double value, double largest) {
  if (!std::isfinite(value)) {
    throw ModelError(std::string("RBM parameters: ") + what + " " + std::to_string(index) +
                     " is not finite");
  }
  if (std::fabs(value) > largest) {
    throw ModelError(std::string("RBM parameters: ") + what + " " + std::to_string(index) + " (" +
                     std::to_string(value) + ") exceeds " + std::to_string(largest) +
                     ", the largest magnitude whose local fields stay exact");
  }
}

}  // namespace

double largest_parameter(std::int64_t n_visible, std::int64_t n_hidden) {
  return std::ldexp(1.0, 19) / static_cast<double>(std::max(n_visible, n_hidden) + 1);
}

void check_parameters(const RbmParameters& p) {
  check_shape(p);
  const double largest = largest_parameter(p.n_visible, p.n_hidden);
  for_each_parameter(p, [&](const char* what, std::size_t k, double value) {
    check_range(what, k, value, largest);
    if (snap_to_grid(value, kParameterGridBits) != value) {
      throw ModelError(std::string("RBM parameters: ") + what + " " + std::to_string(k) +
                       " is not a multiple of 2^-" + std::to_string(kParameterGridBits));
    }
  });
}

RbmParameters snapped_to_grid(RbmParameters p) {
  check_shape(p);
  const double largest = largest_parameter(p.n_visible, p.n_hidden);
  for_each_parameter(p, [&](const char* what, std::size_t k, double value) {
    check_range(what, k, value, largest);
  });
  for (auto* values : {&p.weights, &p.visible_bias, &p.hidden_bias}) {
    for (double& x : *values) x = snap_to_grid(x, kParameterGridBits);
  }
  return p;
}

}  // namespace hamon
