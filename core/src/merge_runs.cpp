#include "hamon/core/merge_runs.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace hamon {

namespace {

template <class T>
std::vector<T> concatenated(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

template <class T>
std::vector<T> summed(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("merge_runs: counters differ in size");
  std::vector<T> out = a;
  for (std::size_t k = 0; k < out.size(); ++k) out[k] += b[k];
  return out;
}

MeanWithError pooled(const MeanWithError& a, double wa, const MeanWithError& b, double wb) {
  return {wa * a.mean + wb * b.mean, std::sqrt(wa * wa * a.standard_error * a.standard_error +
                                               wb * wb * b.standard_error * b.standard_error)};
}

Moments merged_moments(const Moments& a, const Moments& b) {
  if (a.n_samples == 0) return b;
  if (b.n_samples == 0) return a;
  if (a.node_means.size() != b.node_means.size() || a.edge_means.size() != b.edge_means.size()) {
    throw std::invalid_argument("merge_runs: moments of different models");
  }
  const double n = static_cast<double>(a.n_samples + b.n_samples);
  const double wa = static_cast<double>(a.n_samples) / n;
  const double wb = static_cast<double>(b.n_samples) / n;
  Moments out;
  out.n_samples = a.n_samples + b.n_samples;
  auto combine = [&](const std::vector<double>& ma, const std::vector<double>& ea,
                     const std::vector<double>& mb, const std::vector<double>& eb,
                     std::vector<double>& means, std::vector<double>& errors) {
    for (std::size_t k = 0; k < ma.size(); ++k) {
      const MeanWithError m = pooled({ma[k], ea[k]}, wa, {mb[k], eb[k]}, wb);
      means.push_back(m.mean);
      errors.push_back(m.standard_error);
    }
  };
  combine(a.node_means, a.node_means_stderr, b.node_means, b.node_means_stderr, out.node_means,
          out.node_means_stderr);
  combine(a.edge_means, a.edge_means_stderr, b.edge_means, b.edge_means_stderr, out.edge_means,
          out.edge_means_stderr);
  out.energy_per_node = pooled(a.energy_per_node, wa, b.energy_per_node, wb);
  out.abs_magnetization_per_node =
      pooled(a.abs_magnetization_per_node, wa, b.abs_magnetization_per_node, wb);
  return out;
}

}  // namespace

NrptResult merge_runs(const NrptResult& earlier, const NrptResult& later) {
  if (earlier.betas != later.betas) {
    throw std::invalid_argument("merge_runs: the runs used different ladders");
  }
  if (earlier.sample_nodes != later.sample_nodes ||
      earlier.energies.empty() != later.energies.empty() ||
      earlier.index_process.empty() != later.index_process.empty() ||
      (earlier.n_samples > 0) != (later.n_samples > 0)) {
    throw std::invalid_argument("merge_runs: the runs recorded different observers");
  }
  NrptResult out = later;  // final state: the later run's
  out.n_rounds = earlier.n_rounds + later.n_rounds;
  out.swaps = swap_statistics(out.betas, summed(earlier.swaps.attempted, later.swaps.attempted),
                              summed(earlier.swaps.accepted, later.swaps.accepted));
  out.round_trips = summed(earlier.round_trips, later.round_trips);
  out.restarts = summed(earlier.restarts, later.restarts);
  out.total_round_trips = earlier.total_round_trips + later.total_round_trips;
  out.tau_observed = static_cast<double>(out.total_round_trips) / static_cast<double>(out.n_rounds);
  out.efficiency = out.betas.size() > 1 ? out.tau_observed / out.swaps.tau_predicted : 0.0;
  out.spin_updates = earlier.spin_updates + later.spin_updates;
  out.n_samples = earlier.n_samples + later.n_samples;
  out.samples = concatenated(earlier.samples, later.samples);
  out.energies = concatenated(earlier.energies, later.energies);
  out.index_process = concatenated(earlier.index_process, later.index_process);
  out.moments = merged_moments(earlier.moments, later.moments);
  return out;
}

}  // namespace hamon
