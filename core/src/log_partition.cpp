#include "hamon/core/log_partition.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hamon {

namespace {

std::size_t rows_of(const std::vector<double>& betas, const std::vector<double>& energies) {
  const std::size_t n_chains = betas.size();
  if (n_chains == 0 || energies.size() % n_chains != 0) {
    throw std::invalid_argument("log Z: energies must hold n_rounds rows of " +
                                std::to_string(n_chains) + " chains, got " +
                                std::to_string(energies.size()) + " values");
  }
  return energies.size() / n_chains;
}

// The rows [first, last) of an n_rounds x n_chains matrix.
std::vector<double> row_slice(const std::vector<double>& energies, std::size_t n_chains,
                              std::size_t first, std::size_t last) {
  return std::vector<double>(energies.begin() + static_cast<std::ptrdiff_t>(first * n_chains),
                             energies.begin() + static_cast<std::ptrdiff_t>(last * n_chains));
}

std::vector<double> column_means(const std::vector<double>& energies, std::size_t n_chains) {
  std::vector<double> means(n_chains, 0.0);
  const std::size_t rows = energies.size() / n_chains;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < n_chains; ++c) means[c] += energies[r * n_chains + c];
  }
  for (double& m : means) m /= static_cast<double>(rows);
  return means;
}

double ti_of(const std::vector<double>& betas, const std::vector<double>& energies) {
  return thermodynamic_integration(betas, column_means(energies, betas.size()));
}

double standard_error(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  double mean = 0.0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double ss = 0.0;
  for (double v : values) ss += (v - mean) * (v - mean);
  return std::sqrt(ss / static_cast<double>(values.size() - 1) /
                   static_cast<double>(values.size()));
}

}  // namespace

double thermodynamic_integration(const std::vector<double>& betas,
                                 const std::vector<double>& mean_energies) {
  if (betas.size() != mean_energies.size()) {
    throw std::invalid_argument("thermodynamic_integration: one mean energy per beta needed");
  }
  double integral = 0.0;
  for (std::size_t i = 0; i + 1 < betas.size(); ++i) {
    integral += 0.5 * (betas[i + 1] - betas[i]) * (mean_energies[i] + mean_energies[i + 1]);
  }
  return -integral;
}

double stepping_stone(const std::vector<double>& betas, const std::vector<double>& energies) {
  const std::size_t rows = rows_of(betas, energies);
  if (rows == 0) throw std::invalid_argument("stepping_stone: no energies");
  const std::size_t n_chains = betas.size();
  double total = 0.0;
  std::vector<double> a(rows);
  for (std::size_t i = 0; i + 1 < n_chains; ++i) {
    const double step = betas[i + 1] - betas[i];
    for (std::size_t r = 0; r < rows; ++r) a[r] = -step * energies[r * n_chains + i];
    const double shift = *std::max_element(a.begin(), a.end());
    double sum = 0.0;
    for (double v : a) sum += std::exp(v - shift);
    total += shift + std::log(sum / static_cast<double>(rows));
  }
  return total;
}

LogPartition log_partition(const std::vector<double>& betas, const std::vector<double>& energies,
                           double log_z0, int n_batches) {
  const std::size_t rows = rows_of(betas, energies);
  if (rows < 2) throw std::invalid_argument("log Z: at least 2 recorded rounds are needed");
  const std::size_t n_chains = betas.size();
  LogPartition out;
  out.log_z0 = log_z0;
  out.thermodynamic_integration.value = log_z0 + ti_of(betas, energies);
  out.stepping_stone.value = log_z0 + stepping_stone(betas, energies);

  const std::size_t batches = std::min(static_cast<std::size_t>(std::max(n_batches, 1)), rows / 2);
  std::vector<double> ti_batches;
  std::vector<double> ss_batches;
  for (std::size_t b = 0; b < batches; ++b) {
    const auto slice = row_slice(energies, n_chains, rows * b / batches, rows * (b + 1) / batches);
    ti_batches.push_back(ti_of(betas, slice));
    ss_batches.push_back(stepping_stone(betas, slice));
  }
  out.thermodynamic_integration.standard_error = standard_error(ti_batches);
  out.stepping_stone.standard_error = standard_error(ss_batches);
  return out;
}

std::optional<LogPartition> log_partition(const SpinModel& model, const NrptResult& result,
                                          std::optional<double> reference_log_z0, int n_batches) {
  if (result.betas.empty() || result.energies.size() < 2 * result.betas.size()) {
    return std::nullopt;
  }
  const bool from_zero = result.betas.front() == 0.0;
  if (!from_zero && !reference_log_z0) return std::nullopt;
  const double log_z0 =
      from_zero ? static_cast<double>(model.n_free()) * std::log(2.0) : *reference_log_z0;
  LogPartition out = log_partition(result.betas, result.energies, log_z0, n_batches);
  out.log_z0_exact = from_zero;
  return out;
}

}  // namespace hamon
