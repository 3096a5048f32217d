// SPDX-License-Identifier: Apache-2.0
// autotune / autosample and Plan (hamon/policies/autotune.hpp).
#include "hamon/policies/autotune.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <utility>
#include <variant>

#include "hamon/core/families/model_families.hpp"
#include "hamon/core/model/model_kind.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/tempering/schedule.hpp"
#include "hamon/core/util/seeds.hpp"
#include "hamon/policies/dispatch.hpp"
#include "hamon/policies/thresholds.hpp"
#include "hamon/policies/tuning_cache.hpp"

namespace hamon {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The result of a run so far, carrying where it stopped (Continuation).
template <class Value>
NrptResult finish(SamplerBaseOf<Value>& sampler) {
  NrptResult result = sampler.result();
  result.continuation =
      std::make_shared<const Continuation>(Continuation{sampler.state(), sampler.options()});
  return result;
}

void validate(const AutotuneOptions& o) {
  auto reject = [](const std::string& what) {
    throw std::invalid_argument("autotune options: " + what);
  };
  if (!o.betas.empty()) {
    if (o.tune_chains || o.tune_betas) {
      reject("a fixed ladder (betas) needs tune_chains = false and tune_betas = false");
    }
    validate_ladder(o.betas);
  } else if (!(o.beta_max > o.beta_min) || o.beta_min < 0.0) {
    reject("need 0 <= beta_min < beta_max, got beta_min = " + std::to_string(o.beta_min) +
           ", beta_max = " + std::to_string(o.beta_max));
  }
  if (!o.tune_chains && o.betas.empty() && o.n_chains < 1) {
    reject("n_chains must be >= 1, got " + std::to_string(o.n_chains));
  }
  if (o.n_expl < 1) reject("n_expl must be >= 1, got " + std::to_string(o.n_expl));
  if (o.n_replicas < 1) reject("n_replicas must be >= 1, got " + std::to_string(o.n_replicas));
  if (o.cluster_moves == ClusterMoves::houdayer && o.n_replicas % 2 != 0) {
    reject("houdayer cluster moves pair replicas: n_replicas must be even, got " +
           std::to_string(o.n_replicas));
  }
}

// The largest chain count any run of the flow uses.
std::int32_t flow_chains(const AutotuneOptions& o) {
  if (!o.betas.empty()) return static_cast<std::int32_t>(o.betas.size());
  return o.tune_chains ? o.chains.max_chains : o.n_chains;
}

// A cache record that the key says is ours but that contradicts the options is not used.
std::optional<std::string> contradiction(const TunedPlanRecord& r, const AutotuneOptions& o) {
  if (!o.betas.empty()) {
    if (r.betas != o.betas) return "ladder differs from the fixed one";
  } else if (r.betas.front() != o.beta_min || r.betas.back() != o.beta_max) {
    return "ladder endpoints differ from the beta range";
  }
  if (!o.tune_chains && o.betas.empty() && r.n_chains != o.n_chains) return "chain count differs";
  if (!o.tune_exploration && r.n_expl != o.n_expl) return "n_expl differs";
  return std::nullopt;
}

}  // namespace

namespace detail {

TunedFlow run_tuning_flow(const NrptRunner& run, const AutotuneOptions& o) {
  validate(o);
  TunedFlow out;
  std::vector<double>& betas = out.betas;
  if (!o.betas.empty()) {
    betas = o.betas;
  } else if (o.tune_chains) {
    ChainTuningOptions chains = o.chains;
    chains.tune_betas = o.tune_betas;
    out.details.chains =
        tune_chains(run, o.beta_min, o.beta_max, o.n_expl,
                    derive_seed(o.seed, SeedStream::chain_pilot, 0), chains, o.schedule);
    betas = out.details.chains->betas;
    out.summary.Lambda = out.details.chains->Lambda;
  } else {
    betas = linear_ladder(o.beta_min, o.beta_max, o.n_chains);
  }

  out.n_expl = o.n_expl;
  if (o.tune_exploration) {
    out.details.exploration = tune_exploration(
        run, betas, derive_seed(o.seed, SeedStream::exploration, 0), o.exploration);
    out.n_expl = out.details.exploration->n_expl;
  }

  if (o.tune_betas && betas.size() >= 3) {
    out.details.schedule = tune_schedule(
        run, betas, out.n_expl, derive_seed(o.seed, SeedStream::schedule_polish, 0), o.schedule);
    const ScheduleTuningResult& polish = *out.details.schedule;
    betas = polish.betas;
    out.summary.Lambda = polish.best.swaps.Lambda;
    out.summary.barrier_identified = polish.barrier_identified;
    out.summary.conveyor_alive = polish.conveyor_alive;
  }
  return out;
}

}  // namespace detail

std::int64_t autotune_work_score(const SpinModel& model, const AutotuneOptions& options) {
  validate(options);
  return work_score(static_cast<std::int64_t>(flow_chains(options)) * options.n_replicas,
                    model.n_free());
}

Plan autotune(const SpinModel& model, const AutotuneOptions& o, const DeviceSpec& device) {
  detail::require_kokkos_initialized("autotune");
  validate(o);
  NrptOptions flow;  // the flow's largest run, for the score
  if (o.betas.empty()) {
    flow.n_chains = flow_chains(o);
    flow.beta_min = o.beta_min;
    flow.beta_max = o.beta_max;
  } else {
    flow.betas = o.betas;
  }
  flow.n_replicas = o.n_replicas;
  return autotune(model, o, resolve_for(model, flow, device));
}

Plan autotune(const SpinModel& model, const AutotuneOptions& o, const DeviceDecision& decision) {
  const auto start = Clock::now();
  detail::require_kokkos_initialized("autotune");
  validate(o);

  Plan plan;
  plan.decision = decision;
  plan.execution_space = execution_space_of(plan.decision);
  plan.model = std::make_shared<const SpinModel>(model);
  plan.seed = o.seed;
  plan.reference = o.reference;
  plan.n_replicas = o.n_replicas;
  plan.cluster_moves = o.cluster_moves;

  const std::string key = autotune_cache_key(model, o, plan.execution_space);
  std::optional<TuningCache> cache;
  if (o.use_cache) {
    if (auto directory = tuning_cache_directory()) cache.emplace(std::move(*directory));
  }
  if (cache) {
    plan.cache_entry = cache->entry_path(key).string();
    std::optional<TunedPlanRecord> record = cache->load(key);
    if (o.exchange != nullptr) {
      // Every rank tunes, or none: the entry counts only where every rank found it.
      const bool everywhere = -o.exchange->max_over_ranks(record ? -1 : 0) == 1;
      if (!everywhere) record.reset();
    }
    if (record) {
      if (const auto why = contradiction(*record, o)) {
        std::cerr << "hamon: warning: ignoring tuning cache entry " << plan.cache_entry << ": "
                  << *why << "\n";
      } else {
        plan.n_chains = record->n_chains;
        plan.betas = record->betas;
        plan.n_expl = record->n_expl;
        plan.tuning = {record->Lambda, record->barrier_identified, record->conveyor_alive,
                       record->tuning_seconds};
        plan.cache_hit = true;
        plan.seconds = seconds_since(start);
        return plan;
      }
    }
  }

  // Each run keeps where it stopped, so the polished ladder's last run can start production.
  // Over ranks, each run is spread over them (every rank runs the same flow). Every run has
  // the annealing reference production has (o.reference): the ladder is tuned on the path
  // production samples.
  const NrptRunner run = [&decision, &model, &o](const NrptOptions& flow_run) {
    NrptOptions options = flow_run;
    options.reference = o.reference;
    options.n_replicas = o.n_replicas;
    options.cluster_moves = o.cluster_moves;
    return detail::with_storage_of(kind_of(model), [&](auto value) {
      using Value = decltype(value);
      const auto sampler =
          make_sampler_of<Value>(decision, model, options, nullptr, nullptr, o.exchange);
      sampler->run(options.burn_in + options.n_rounds);
      return finish(*sampler);
    });
  };
  AutotuneOptions flow_options = o;
  if (o.exchange != nullptr) {
    // The measured exploration cost: rank 0's, on every rank (a double's bits as the
    // largest of rank 0's non-negative word and every other rank's minimum).
    MachineExchange* ranks = o.exchange;
    flow_options.exploration.agree_seconds = [ranks](double seconds) {
      std::int64_t bits = std::numeric_limits<std::int64_t>::min();
      if (ranks->is_root()) std::memcpy(&bits, &seconds, sizeof bits);
      bits = ranks->max_over_ranks(bits);
      double agreed = 0.0;
      std::memcpy(&agreed, &bits, sizeof agreed);
      return agreed;
    };
  }
  detail::TunedFlow flow_result = detail::run_tuning_flow(run, flow_options);
  std::vector<double> betas = std::move(flow_result.betas);
  const std::int32_t n_expl = flow_result.n_expl;
  plan.tuning = flow_result.summary;
  plan.details = std::move(flow_result.details);

  plan.n_chains = static_cast<std::int32_t>(betas.size());
  plan.betas = std::move(betas);
  plan.n_expl = n_expl;
  if (plan.details.schedule) {
    const auto& last = plan.details.schedule->best.last_run;
    if (last && last->options.betas == plan.betas && last->options.n_expl == plan.n_expl) {
      plan.warm_start = std::make_shared<const AnySamplerState>(last->state);
    }
  }
  plan.seconds = seconds_since(start);
  plan.tuning.tuned_seconds = plan.seconds;
  if (cache) {
    TunedPlanRecord record;
    record.n_chains = plan.n_chains;
    record.betas = plan.betas;
    record.n_expl = plan.n_expl;
    record.Lambda = plan.tuning.Lambda;
    record.barrier_identified = plan.tuning.barrier_identified;
    record.conveyor_alive = plan.tuning.conveyor_alive;
    record.tuning_seconds = plan.tuning.tuned_seconds;
    if (o.exchange == nullptr || o.exchange->is_root()) cache->store(key, record);
  }
  return plan;
}

NrptOptions Plan::options_for(std::int64_t n_rounds, NrptOptions base) const {
  base.betas = betas;
  base.n_chains = n_chains;
  base.n_expl = n_expl;
  base.n_rounds = n_rounds;
  base.seed = derive_seed(seed, SeedStream::production, 0);
  base.reference = reference;
  base.n_replicas = n_replicas;
  base.cluster_moves = cluster_moves;
  base.adapt_schedule = false;
  return base;
}

std::int64_t Plan::default_burn_in(std::int64_t n_rounds) {
  return std::max<std::int64_t>(100, n_rounds / 10);
}

template <class Value>
std::unique_ptr<SamplerBaseOf<Value>> Plan::production_sampler_of(const NrptOptions& options,
                                                                  TraceSink* sink,
                                                                  MachineExchange* exchange) const {
  if (!model) throw std::logic_error("hamon::Plan: the plan has no model");
  auto sampler = make_sampler_of<Value>(decision, *model, options, sink, nullptr, exchange);
  const auto* start = warm_start ? std::get_if<SamplerStateOf<Value>>(warm_start.get()) : nullptr;
  if (start != nullptr && static_cast<std::size_t>(start->n_machines) == options.betas.size()) {
    sampler->start_from(*start);
  }
  return sampler;
}

template std::unique_ptr<SamplerBaseOf<std::int8_t>> Plan::production_sampler_of<std::int8_t>(
    const NrptOptions&, TraceSink*, MachineExchange*) const;
template std::unique_ptr<SamplerBaseOf<double>> Plan::production_sampler_of<double>(
    const NrptOptions&, TraceSink*, MachineExchange*) const;

NrptResult Plan::sample(std::int64_t n_rounds, NrptOptions options) const {
  if (!model) throw std::logic_error("hamon::Plan::sample: the plan has no model");
  if (options.burn_in == 0) options.burn_in = default_burn_in(n_rounds);
  const NrptOptions run = options_for(n_rounds, std::move(options));
  return detail::with_storage_of(kind_of(*model), [&](auto value) {
    const auto sampler = production_sampler_of<decltype(value)>(run);
    sampler->run(run.burn_in + run.n_rounds);
    return finish(*sampler);
  });
}

NrptResult Plan::extend(const NrptResult& previous, std::int64_t n_more,
                        NrptOptions options) const {
  if (!model) throw std::logic_error("hamon::Plan::extend: the plan has no model");
  if (!previous.continuation) {
    throw std::invalid_argument(
        "hamon::Plan::extend: the result carries no continuation (extend results of "
        "Plan::sample or Plan::extend)");
  }
  if (n_more < 0) throw std::invalid_argument("hamon::Plan::extend: n_more must be >= 0");
  NrptOptions run = previous.continuation->options;
  if (run.betas != betas || run.n_expl != n_expl ||
      run.seed != derive_seed(seed, SeedStream::production, 0)) {
    throw std::invalid_argument("hamon::Plan::extend: the result was not run on this plan");
  }
  run.n_rounds = previous.n_rounds + n_more;
  run.progress_every = options.progress_every;
  run.on_progress = std::move(options.on_progress);
  return detail::with_storage_of(kind_of(*model), [&](auto value) {
    using Value = decltype(value);
    const auto* state = std::get_if<SamplerStateOf<Value>>(&previous.continuation->state);
    if (state == nullptr) {
      throw std::invalid_argument("hamon::Plan::extend: the result was not run on this plan");
    }
    const auto sampler = make_sampler_of<Value>(decision, *model, run, nullptr, state);
    sampler->run(n_more);
    return finish(*sampler);
  });
}

AutosampleResult autosample(const SpinModel& model, std::int64_t n_rounds,
                            const AutotuneOptions& options, NrptOptions sample_options,
                            const DeviceSpec& device, const DiagnosticsOptions& diagnostics) {
  AutosampleResult out;
  out.plan = autotune(model, options, device);
  sample_options.observers.energies = true;
  out.result = out.plan.sample(n_rounds, std::move(sample_options));
  out.diagnostics = diagnose(model, out.result, diagnostics);
  return out;
}

}  // namespace hamon
