// SPDX-License-Identifier: Apache-2.0
// tune_chains, recommended_chains and resample_ladder (hamon/core/tuning/tuning.hpp).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "hamon/core/tempering/schedule.hpp"
#include "hamon/core/tuning/tuning.hpp"
#include "hamon/core/util/seeds.hpp"

namespace hamon {

namespace {

void check(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("chain tuning options: " + what);
}

void validate(const ChainTuningOptions& o) {
  check(o.target_acceptance > 0.0 && o.target_acceptance < 1.0,
        "target_acceptance must be in (0, 1), got " + std::to_string(o.target_acceptance));
  check(o.safety >= 0.0, "safety must be >= 0");
  check(o.min_chains >= 2, "min_chains must be >= 2, got " + std::to_string(o.min_chains));
  check(o.max_chains >= o.min_chains, "max_chains must be >= min_chains");
  check(o.max_iterations >= 1, "max_iterations must be >= 1");
  check(o.schedule_phases >= 1, "schedule_phases must be >= 1");
}

}  // namespace

std::int32_t recommended_chains(double Lambda, const ChainTuningOptions& options) {
  const double r_star = 1.0 - options.target_acceptance;
  const double n = std::ceil(std::max(Lambda, 0.0) * (1.0 + options.safety) / r_star) + 1.0;
  return static_cast<std::int32_t>(std::clamp(n, static_cast<double>(options.min_chains),
                                              static_cast<double>(options.max_chains)));
}

std::vector<double> resample_ladder(const std::vector<double>& betas,
                                    const std::vector<double>& rejection, std::int32_t n) {
  validate_ladder(betas);
  if (n < 1) throw std::invalid_argument("resample_ladder: n must be >= 1");
  if (rejection.size() + 1 != betas.size()) {
    throw std::invalid_argument("resample_ladder: one rejection rate per pair needed");
  }
  if (n == 1) return {betas.back()};
  if (betas.size() == 1) {
    throw std::invalid_argument("resample_ladder: a one-beta ladder has no range to resample");
  }
  const auto size = static_cast<std::size_t>(n);
  // Cumulative rejection with the floor optimize_schedule uses (keeps it invertible).
  std::vector<double> cum(betas.size(), 0.0);
  for (std::size_t k = 0; k + 1 < betas.size(); ++k) {
    cum[k + 1] = cum[k] + std::clamp(rejection[k], 1e-9, 1.0);
  }
  std::vector<double> targets(size);
  for (std::size_t k = 0; k < size; ++k) {
    targets[k] = cum.back() * static_cast<double>(k) / static_cast<double>(size - 1);
  }
  std::vector<double> out = pchip_interpolate(cum, betas, targets);
  out.front() = betas.front();
  out.back() = betas.back();
  for (std::size_t k = 1; k + 1 < size; ++k) {
    out[k] = std::max(out[k], std::nextafter(out[k - 1], betas.back()));
  }
  for (std::size_t k = size - 1; k-- > 1;) {
    out[k] = std::min(out[k], std::nextafter(out[k + 1], betas.front()));
  }
  return out;
}

ChainTuningResult tune_chains(const NrptRunner& run, double beta_min, double beta_max,
                              std::int32_t n_expl, std::uint64_t seed,
                              const ChainTuningOptions& options,
                              const ScheduleTuningOptions& schedule) {
  validate(options);
  if (!(beta_max > beta_min)) {
    throw std::invalid_argument("tune_chains: beta_max must be above beta_min");
  }
  ChainTuningResult out;
  const bool pilot = !options.initial_chains.has_value();
  std::int32_t n =
      pilot ? options.max_chains
            : std::clamp(*options.initial_chains, options.min_chains, options.max_chains);
  std::vector<double> betas = linear_ladder(beta_min, beta_max, n);
  for (std::int32_t it = 0; it < options.max_iterations; ++it) {
    const std::uint64_t s =
        derive_seed(seed, SeedStream::chain_pilot, static_cast<std::uint64_t>(it));
    ChainIteration record;
    record.n_chains = n;
    record.pilot = pilot && it == 0;
    std::vector<double> measured = betas;
    std::vector<double> rejection;
    if (record.pilot || !options.tune_betas || n < 3) {
      const LadderMeasurement m = measure_ladder(run, betas, n_expl, s, schedule);
      out.rounds_run += m.rounds_run;
      record.Lambda = m.swaps.Lambda;
      rejection = m.swaps.rejection;
    } else {
      ScheduleTuningOptions phases = schedule;
      phases.n_tune = options.schedule_phases;
      out.schedule = tune_schedule(run, betas, n_expl, s, phases);
      out.rounds_run += out.schedule.rounds_run;
      record.Lambda = out.schedule.best.swaps.Lambda;
      measured = out.schedule.betas;
      rejection = out.schedule.best.swaps.rejection;
    }
    record.recommended = recommended_chains(record.Lambda, options);
    out.iterations.push_back(record);
    out.Lambda = record.Lambda;
    const std::int32_t next = record.recommended;
    if (next == n) {
      betas = measured;
    } else if (options.tune_betas) {
      betas = resample_ladder(measured, rejection, next);
    } else {
      betas = linear_ladder(beta_min, beta_max, next);
    }
    const bool settled = std::abs(next - n) <= 1;
    n = next;
    if (settled) {
      out.converged = true;
      break;
    }
  }
  out.n_chains = n;
  out.betas = betas;
  return out;
}

}  // namespace hamon
