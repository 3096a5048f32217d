// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/model/excitation_costs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "hamon/core/util/seeds.hpp"

namespace hamon {

namespace {

// A change must lower E by more than this (relative to the model's magnitude) to count,
// so rounding cannot make a descent cycle between two equal states.
constexpr double kRelativeTolerance = 1e-12;
constexpr int kMaxSweeps = 200;
// Node-and-edge visits (times q) for all descents together, at a typical ~50 sweeps each:
// about a second of host time, so a large model runs fewer descents.
constexpr double kVisitBudget = 2e7;
constexpr double kTypicalSweeps = 50.0;

/// Values are indices 0..q-1 (Ising: 0 is -1, 1 is +1), so Ising and Potts share a descent.
class LocalEnergies {
 public:
  explicit LocalEnergies(const SpinModel& model) : m_(model), q_(model.n_states()) {}

  int q() const { return q_; }

  /// E's terms that involve node i, with node i at value a and the others at x.
  double at(const std::vector<int>& x, std::int64_t i, int a) const {
    const auto& offsets = m_.row_offsets();
    const auto& columns = m_.columns();
    const auto& couplings = m_.couplings();
    if (!m_.is_potts()) {
      const double s = a == 1 ? 1.0 : -1.0;
      double field = m_.fields()[static_cast<std::size_t>(i)];
      for (std::int64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
        field += couplings[e] * (x[static_cast<std::size_t>(columns[e])] == 1 ? 1.0 : -1.0);
      }
      return -s * field;
    }
    const auto q = static_cast<std::size_t>(q_);
    double sum = m_.state_fields()[static_cast<std::size_t>(i) * q + static_cast<std::size_t>(a)];
    const auto& matrices = m_.csr_matrices();
    for (std::int64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const int b = x[static_cast<std::size_t>(columns[e])];
      if (!matrices.empty()) {  // every entry has its matrix then
        sum += matrices[static_cast<std::size_t>(e) * q * q + static_cast<std::size_t>(a) * q +
                        static_cast<std::size_t>(b)];
      } else {
        sum += a == b ? couplings[e] : 0.0;
      }
    }
    return -sum;
  }

 private:
  const SpinModel& m_;
  int q_;
};

bool is_free(const SpinModel& model, std::int64_t i) {
  return model.is_potts() ? model.clamped_states()[static_cast<std::size_t>(i)] < 0
                          : model.clamped()[static_cast<std::size_t>(i)] == 0;
}

int clamped_value(const SpinModel& model, std::int64_t i) {
  return model.is_potts() ? model.clamped_states()[static_cast<std::size_t>(i)]
                          : (model.clamped()[static_cast<std::size_t>(i)] == 1 ? 1 : 0);
}

double energy_of(const SpinModel& model, const std::vector<int>& x) {
  std::vector<std::int8_t> bytes(x.size());
  for (std::size_t v = 0; v < x.size(); ++v) {
    bytes[v] = model.is_potts() ? static_cast<std::int8_t>(static_cast<std::uint8_t>(x[v]))
                                : static_cast<std::int8_t>(x[v] == 1 ? 1 : -1);
  }
  return model.energy(bytes);
}

/// Sweeps until no node can lower E; returns the local minimum's costs per node (the
/// cheapest change of each free node's value; 0 for a clamped node).
std::vector<double> descend(const SpinModel& model, const LocalEnergies& local, std::vector<int>& x,
                            double tolerance) {
  const std::int64_t n = model.n_nodes();
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool moved = false;
    for (std::int64_t i = 0; i < n; ++i) {
      if (!is_free(model, i)) continue;
      const int current = x[static_cast<std::size_t>(i)];
      double best = local.at(x, i, current);
      int best_value = current;
      for (int a = 0; a < local.q(); ++a) {
        const double e = local.at(x, i, a);
        if (e < best - tolerance) {
          best = e;
          best_value = a;
        }
      }
      if (best_value != current) {
        x[static_cast<std::size_t>(i)] = best_value;
        moved = true;
      }
    }
    if (!moved) break;
  }
  std::vector<double> costs(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t i = 0; i < n; ++i) {
    if (!is_free(model, i)) continue;
    const int current = x[static_cast<std::size_t>(i)];
    const double here = local.at(x, i, current);
    double cheapest = std::numeric_limits<double>::infinity();
    for (int a = 0; a < local.q(); ++a) {
      if (a != current) cheapest = std::min(cheapest, local.at(x, i, a) - here);
    }
    costs[static_cast<std::size_t>(i)] = std::max(0.0, cheapest);
  }
  return costs;
}

bool is_field_free_forest(const SpinModel& model) {
  if (model.is_potts() || model.n_free() != model.n_nodes()) return false;
  for (double h : model.fields()) {
    if (h != 0.0) return false;
  }
  std::vector<std::int64_t> parent(static_cast<std::size_t>(model.n_nodes()));
  std::iota(parent.begin(), parent.end(), 0);
  const auto up = [&](std::int64_t v) -> std::int64_t& {
    return parent[static_cast<std::size_t>(v)];
  };
  const auto root = [&](std::int64_t v) {
    while (up(v) != v) {
      up(v) = up(up(v));  // path halving
      v = up(v);
    }
    return v;
  };
  for (const Edge& e : model.edges()) {
    const std::int64_t a = root(e.i);
    const std::int64_t b = root(e.j);
    if (a == b) return false;  // a cycle
    up(a) = b;
  }
  return true;
}

std::vector<double> bond_spreads(const SpinModel& model) {
  std::vector<double> costs;
  const int q = model.n_states();
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    if (!model.is_potts()) {
      costs.push_back(2.0 * std::fabs(model.edges()[e].coupling));
      continue;
    }
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (int a = 0; a < q; ++a) {
      for (int b = 0; b < q; ++b) {
        const double w = model.edge_coupling(static_cast<std::int64_t>(e), a, b);
        lo = std::min(lo, w);
        hi = std::max(hi, w);
      }
    }
    costs.push_back(hi - lo);
  }
  return costs;
}

}  // namespace

std::string to_string(ExcitationSpectrum::Method method) {
  switch (method) {
    case ExcitationSpectrum::Method::forest_exact:
      return "forest-exact";
    case ExcitationSpectrum::Method::descent:
      return "descent";
    case ExcitationSpectrum::Method::coupling_fallback:
      return "coupling-fallback";
  }
  return "unknown";
}

ExcitationSpectrum excitation_spectrum(const SpinModel& model, std::int32_t max_descents) {
  ExcitationSpectrum out;
  if (is_field_free_forest(model)) {
    out.method = ExcitationSpectrum::Method::forest_exact;
    double sum = 0.0;
    for (const Edge& e : model.edges()) {
      out.costs.push_back(2.0 * std::fabs(e.coupling));
      sum += std::fabs(e.coupling);
    }
    out.energy_scale = sum;
    out.lowest_energy = -sum;
    return out;
  }
  const std::int64_t n = model.n_nodes();
  const double visits_per_sweep =
      static_cast<double>(n + model.row_offsets().back()) * static_cast<double>(model.n_states());
  const auto affordable = static_cast<std::int32_t>(std::clamp(
      kVisitBudget / (visits_per_sweep * kTypicalSweeps), 1.0, static_cast<double>(1 << 20)));
  out.n_descents = std::max<std::int32_t>(1, std::min(max_descents, affordable));
  const double tolerance = kRelativeTolerance * std::max(model.magnitude(), 1.0);
  const LocalEnergies local(model);
  out.costs.assign(static_cast<std::size_t>(n), std::numeric_limits<double>::infinity());
  out.lowest_energy = std::numeric_limits<double>::infinity();
  for (std::int32_t d = 0; d < out.n_descents; ++d) {
    // Starts from a fixed stream: the estimate is a property of the model, not of a run.
    std::vector<int> x(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint64_t bits =
          splitmix64(splitmix64(static_cast<std::uint64_t>(d)) ^ static_cast<std::uint64_t>(i));
      x[static_cast<std::size_t>(i)] =
          is_free(model, i) ? static_cast<int>(bits % static_cast<std::uint64_t>(local.q()))
                            : clamped_value(model, i);
    }
    const std::vector<double> costs = descend(model, local, x, tolerance);
    for (std::size_t i = 0; i < costs.size(); ++i) out.costs[i] = std::min(out.costs[i], costs[i]);
    out.lowest_energy = std::min(out.lowest_energy, energy_of(model, x));
  }
  std::vector<double> kept;
  for (std::int64_t i = 0; i < n; ++i) {
    if (is_free(model, i)) kept.push_back(out.costs[static_cast<std::size_t>(i)]);
  }
  out.costs = std::move(kept);
  out.method = ExcitationSpectrum::Method::descent;
  if (std::none_of(out.costs.begin(), out.costs.end(), [](double c) { return c > 0.0; })) {
    out.method = ExcitationSpectrum::Method::coupling_fallback;
    out.costs = bond_spreads(model);
  }
  out.energy_scale = std::fabs(out.lowest_energy);
  // A lowest state at E = 0 gives no scale to be relative to: the model's bound on |E|
  // stands in.
  if (!(out.energy_scale > 0.0)) out.energy_scale = model.magnitude();
  return out;
}

}  // namespace hamon
