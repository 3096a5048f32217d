// SPDX-License-Identifier: Apache-2.0
// tune_schedule and measure_ladder (hamon/core/tuning/tuning.hpp).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "hamon/core/analysis/swap_batches.hpp"
#include "hamon/core/tempering/schedule.hpp"
#include "hamon/core/tuning/tuning.hpp"
#include "hamon/core/util/enum_names.hpp"
#include "hamon/core/util/seeds.hpp"

namespace hamon {

namespace {

void check(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("schedule tuning options: " + what);
}

void validate(const ScheduleTuningOptions& o) {
  check(o.n_tune >= 1, "n_tune must be >= 1");
  check(o.rounds_per_tune >= 1, "rounds_per_tune must be >= 1");
  check(o.batch_rounds >= 1, "batch_rounds must be >= 1");
  check(o.max_rounds_per_tune >= o.rounds_per_tune,
        "max_rounds_per_tune must be >= rounds_per_tune");
  check(o.burn_in >= 0, "burn_in must be >= 0");
  check(o.lambda_rtol >= 0.0 && o.plateau_rtol >= 0.0, "tolerances must be >= 0");
  check(o.plateau_phases >= 1, "plateau_phases must be >= 1");
}

bool relatively_close(double now, double before, double rtol) {
  return std::abs(now - before) <= rtol * std::abs(before);
}

// Unsaturated before saturated, then the lower rejection std.
bool better(const LadderMeasurement& a, const LadderMeasurement& b) {
  if (a.saturated != b.saturated) return !a.saturated;
  return a.rejection_std < b.rejection_std;
}

double max_relative_move(const std::vector<double>& from, const std::vector<double>& to) {
  const double range = from.back() - from.front();
  double move = 0.0;
  for (std::size_t k = 0; k < from.size(); ++k) move = std::max(move, std::abs(to[k] - from[k]));
  return range > 0.0 ? move / range : 0.0;
}

}  // namespace

constexpr EnumNames<ScheduleStop, 5> kScheduleStopNames{{
    {ScheduleStop::equalised, "equalised"},
    {ScheduleStop::betas_converged, "betas converged"},
    {ScheduleStop::lambda_plateau, "Lambda plateau"},
    {ScheduleStop::max_phases, "max phases"},
    {ScheduleStop::too_few_chains, "too few chains"},
}};

std::string to_string(ScheduleStop stop) {
  return name_of(kScheduleStopNames, stop);
}

LadderMeasurement measure_ladder(const NrptRunner& run, const std::vector<double>& betas,
                                 std::int32_t n_expl, std::uint64_t seed,
                                 const ScheduleTuningOptions& options) {
  validate(options);
  validate_ladder(betas);
  const bool has_pairs = betas.size() > 1;
  LadderMeasurement m;
  m.betas = betas;
  SwapCounts pooled;
  pooled.attempted.assign(betas.size() - 1, 0);
  pooled.accepted.assign(betas.size() - 1, 0);
  for (std::uint64_t extension = 0;; ++extension) {
    NrptOptions o;
    o.betas = betas;
    o.n_rounds = options.rounds_per_tune;
    o.burn_in = options.burn_in;
    o.n_expl = n_expl;
    o.seed = extension == 0 ? seed : derive_seed(seed, SeedStream::schedule, extension);
    o.observers.index_process = has_pairs;
    const NrptResult result = run(o);
    m.rounds += result.n_rounds;
    m.rounds_run += options.burn_in + result.n_rounds;
    m.round_trips += result.total_round_trips;
    m.last_run = result.continuation;
    if (!has_pairs) break;
    for (const SwapCounts& batch :
         swap_counts_by_batch(result, options.burn_in, options.batch_rounds)) {
      accumulate(pooled, batch);
      m.lambda_by_batch.push_back(swap_statistics(betas, pooled.attempted, pooled.accepted).Lambda);
    }
    const auto& history = m.lambda_by_batch;
    m.lambda_stable =
        history.size() >= 2 &&
        relatively_close(history.back(), history[history.size() - 2], options.lambda_rtol);
    if (m.lambda_stable || m.rounds + options.rounds_per_tune > options.max_rounds_per_tune) break;
  }
  m.swaps = swap_statistics(betas, pooled.attempted, pooled.accepted);
  m.tau_observed = static_cast<double>(m.round_trips) / static_cast<double>(m.rounds);
  m.efficiency = has_pairs ? m.tau_observed / m.swaps.tau_predicted : 0.0;
  m.rejection_std = population_std(m.swaps.rejection);
  m.saturated = std::any_of(m.swaps.rejection.begin(), m.swaps.rejection.end(),
                            [&](double r) { return r >= options.saturated_rejection; });
  return m;
}

ScheduleTuningResult tune_schedule(const NrptRunner& run, const std::vector<double>& initial_betas,
                                   std::int32_t n_expl, std::uint64_t seed,
                                   const ScheduleTuningOptions& options) {
  validate(options);
  validate_ladder(initial_betas);
  ScheduleTuningResult out;
  std::vector<double> betas = initial_betas;
  std::int32_t plateau_run = 0;
  out.stop = ScheduleStop::max_phases;
  for (std::int32_t phase = 0; phase < options.n_tune; ++phase) {
    LadderMeasurement m = measure_ladder(
        run, betas, n_expl,
        derive_seed(seed, SeedStream::schedule, static_cast<std::uint64_t>(phase)), options);
    out.rounds_run += m.rounds_run;
    out.phases.push_back(m);
    if (phase == 0 || better(m, out.phases[static_cast<std::size_t>(out.best_phase)])) {
      out.best_phase = phase;
    }
    if (betas.size() < 3) {
      out.stop = ScheduleStop::too_few_chains;
      break;
    }
    // A saturated ladder can look equalised (every pair rejecting ~always): not a stop.
    if (!m.saturated && m.rejection_std <= options.equalised_rejection_std) {
      out.stop = ScheduleStop::equalised;
      break;
    }
    if (phase > 0) {
      const double before = out.phases[static_cast<std::size_t>(phase - 1)].swaps.Lambda;
      plateau_run =
          relatively_close(m.swaps.Lambda, before, options.plateau_rtol) ? plateau_run + 1 : 0;
      if (plateau_run >= options.plateau_phases) {
        out.stop = ScheduleStop::lambda_plateau;
        break;
      }
    }
    if (phase + 1 == options.n_tune) break;  // no phase left to measure an update
    std::vector<double> updated = optimize_schedule(m.swaps.rejection, betas);
    if (max_relative_move(betas, updated) < options.beta_move_tol) {
      out.stop = ScheduleStop::betas_converged;
      break;
    }
    betas = std::move(updated);
  }
  out.best = out.phases[static_cast<std::size_t>(out.best_phase)];
  out.betas = out.best.betas;
  const auto& rejection = out.best.swaps.rejection;
  out.barrier_identified =
      rejection.empty() ||
      *std::max_element(rejection.begin(), rejection.end()) < options.barrier_max_rejection;
  const double expected_trips = out.best.swaps.tau_predicted * static_cast<double>(out.best.rounds);
  if (initial_betas.size() > 1 && expected_trips >= options.conveyor_min_round_trips) {
    out.conveyor_alive = out.best.efficiency >= options.conveyor_min_efficiency;
  }
  return out;
}

}  // namespace hamon
