// SPDX-License-Identifier: Apache-2.0
#pragma once
// A run of a Gaussian model against its closed forms (continuous_oracles.hpp), estimate by
// estimate: each error is the run's batch-means standard error (32 batches) and each |z|
// must lie below 4.5 (a calibrated error exceeds it with probability about 7e-6, about
// 1e-4 for a t with 31 degrees of freedom; tests/backend/tstContinuous.hpp shows the
// errors are calibrated).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "continuous_oracles.hpp"
#include "hamon/core/analysis/log_partition.hpp"
#include "hamon/core/sampler/nrpt.hpp"

namespace hamon_test {

inline double z_of(double estimate, double exact, double error) {
  return (estimate - exact) / error;
}

/// Every |z| of the node means and variances, the energy and log Z below 4.5.
inline void expect_gaussian_exact(const hamon::SpinModel& model, const hamon::NrptResult& r,
                                  double beta) {
  const auto exact = gaussian_exact(model, beta);
  const hamon::Moments& m = r.moments;
  ASSERT_EQ(m.node_means.size(), exact.means.size());
  ASSERT_EQ(m.node_variances.size(), exact.means.size());
  double largest = 0.0;
  for (std::size_t i = 0; i < exact.means.size(); ++i) {
    const double zm = z_of(m.node_means[i], exact.means[i], m.node_means_stderr[i]);
    const double zv = z_of(m.node_variances[i], exact.variances[i], m.node_variances_stderr[i]);
    EXPECT_LT(std::abs(zm), 4.5) << "node " << i << " mean " << m.node_means[i] << " vs "
                                 << exact.means[i];
    EXPECT_LT(std::abs(zv), 4.5) << "node " << i << " variance " << m.node_variances[i] << " vs "
                                 << exact.variances[i];
    largest = std::max({largest, std::abs(zm), std::abs(zv)});
  }
  const double n = static_cast<double>(model.n_nodes());
  const double ze =
      z_of(m.energy_per_node.mean, exact.energy / n, m.energy_per_node.standard_error);
  EXPECT_LT(std::abs(ze), 4.5) << "energy per node " << m.energy_per_node.mean << " vs "
                               << exact.energy / n;
  const auto log_z = hamon::log_partition(model, r);
  ASSERT_TRUE(log_z.has_value());
  EXPECT_TRUE(log_z->log_z0_exact);
  const hamon::LogZEstimate& ss = log_z->stepping_stone;
  const double zz = z_of(ss.value, exact.log_z, ss.error());
  EXPECT_LT(std::abs(zz), 4.5) << "log Z " << ss.value << " +- " << ss.error() << " vs "
                               << exact.log_z;
  std::printf(
      "  [gaussian n=%lld] largest |z| of means and variances %.2f, energy z %.2f, "
      "log Z %.4f +- %.4f vs %.4f (z %.2f)\n",
      static_cast<long long>(model.n_nodes()), largest, ze, ss.value, ss.error(), exact.log_z, zz);
}

}  // namespace hamon_test
