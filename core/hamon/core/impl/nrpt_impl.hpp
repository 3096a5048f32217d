#pragma once
// Definitions of hamon::nrpt and hamon::sample (declared in hamon/core/nrpt.hpp).
// Include this only to instantiate the round loop for an execution space the library
// does not already provide.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/energy.hpp"
#include "hamon/core/gibbs_sweep.hpp"
#include "hamon/core/impl/counter_rng.hpp"
#include "hamon/core/nrpt.hpp"
#include "hamon/core/observers.hpp"
#include "hamon/core/schedule.hpp"
#include "hamon/core/statistics.hpp"
#include "hamon/core/swap.hpp"

namespace hamon {

namespace detail {

template <class T, class View>
std::vector<T> to_host_vector(const View& view) {
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  return std::vector<T>(mirror.data(), mirror.data() + mirror.size());
}

template <class ExecutionSpace>
ChainState<ExecutionSpace> make_chain_state(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const std::vector<double>& betas, std::uint64_t seed) {
  using state_type = ChainState<ExecutionSpace>;
  const auto n = static_cast<std::int32_t>(betas.size());
  state_type s;
  s.spins = typename state_type::spin_view(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::spins")), n,
      model.n_nodes);
  s.betas = to_view(space, betas, "hamon::betas");
  if (model.integer_field_bound >= 0) {
    s.up_limit =
        Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space>(
            Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::up_limit")),
            n, 2 * model.integer_field_bound + 1);
    s.up_floor = typename state_type::template view<std::int32_t>(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::up_floor")), n);
  }
  std::vector<std::int32_t> identity(static_cast<std::size_t>(n));
  for (std::int32_t k = 0; k < n; ++k) identity[static_cast<std::size_t>(k)] = k;
  s.chain_of_machine = to_view(space, identity, "hamon::chain_of_machine");
  s.machine_of_chain = to_view(space, identity, "hamon::machine_of_chain");
  auto zeros = [&](const char* label, std::int64_t size) {
    return typename state_type::template view<std::int64_t>(
        Kokkos::view_alloc(space, std::string(label)), size);
  };
  s.energy_fixed = zeros("hamon::energy_fixed", n);
  s.attempted = zeros("hamon::attempted", n > 1 ? n - 1 : 0);
  s.accepted = zeros("hamon::accepted", n > 1 ? n - 1 : 0);
  s.round_trips = zeros("hamon::round_trips", n);
  s.restarts = zeros("hamon::restarts", n);
  s.visited_top = typename state_type::template view<std::int8_t>(
      Kokkos::view_alloc(space, std::string("hamon::visited_top")), n);

  // Uniform random start for free nodes; clamped nodes hold their value. One Philox call
  // draws the start of 4 machines (word m % 4 of counter (node, m / 4)).
  const auto spins = s.spins;
  const auto clamped = model.clamped;
  const std::int64_t n_nodes = model.n_nodes;
  const std::int64_t n_groups = (n + 3) / 4;
  Kokkos::parallel_for(
      "hamon::initial_state",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0,
                                                                           n_nodes * n_groups),
      KOKKOS_LAMBDA(const std::int64_t idx) {
        const std::int64_t i = idx % n_nodes;
        const auto group = static_cast<std::int32_t>(idx / n_nodes);
        const Philox4 draw =
            philox4(seed, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(group),
                    static_cast<std::uint32_t>(Stream::initial_state), 0u);
        for (std::int32_t k = 0; k < 4 && 4 * group + k < n; ++k) {
          const std::int32_t m = 4 * group + k;
          spins(m, i) =
              clamped(i) != 0 ? clamped(i) : ((draw.w[k] >> 31) ? std::int8_t(1) : std::int8_t(-1));
        }
      });
  refresh_acceptance_thresholds(space, model, s);
  return s;
}

template <class ExecutionSpace>
void reset_counters(const ExecutionSpace& space, const ChainState<ExecutionSpace>& s) {
  Kokkos::deep_copy(space, s.attempted, 0);
  Kokkos::deep_copy(space, s.accepted, 0);
  Kokkos::deep_copy(space, s.round_trips, 0);
  Kokkos::deep_copy(space, s.restarts, 0);
}

template <class ExecutionSpace>
void report_progress(const ChainState<ExecutionSpace>& state, const NrptOptions& options,
                     const std::vector<double>& betas, std::int64_t rounds_done) {
  Progress p;
  p.rounds_done = rounds_done;
  p.rounds_total = options.burn_in + options.n_rounds;
  p.burning_in = rounds_done <= options.burn_in;
  const auto stats = swap_statistics(betas, to_host_vector<std::int64_t>(state.attempted),
                                     to_host_vector<std::int64_t>(state.accepted));
  p.Lambda = stats.Lambda;
  p.min_acceptance = stats.acceptance.empty()
                         ? 1.0
                         : *std::min_element(stats.acceptance.begin(), stats.acceptance.end());
  options.on_progress(p);
}

/// The rounds of one phase, [first, first + count). Observers only in measured rounds.
template <class ExecutionSpace>
void run_rounds(const ExecutionSpace& space,
                const DeviceModel<typename ExecutionSpace::memory_space>& model,
                const ChainState<ExecutionSpace>& state, const NrptOptions& options,
                const std::vector<double>& betas, std::int64_t first, std::int64_t count,
                const ObserverBuffers<ExecutionSpace>* observers, std::int64_t measured_offset) {
  const bool has_pairs = state.betas.extent(0) > 1;
  for (std::int64_t r = first; r < first + count; ++r) {
    const auto round = static_cast<std::uint32_t>(r);
    for (std::int32_t sweep = 0; sweep < options.n_expl; ++sweep) {
      gibbs_sweep(space, model, state, options.seed, round, static_cast<std::uint32_t>(sweep));
    }
    const bool need_energies = has_pairs || observers != nullptr;
    if (need_energies) compute_energies(space, model, state);
    if (has_pairs) {
      deo_swap_pass(space, state, options.seed, round, model.energy_fraction_bits);
      update_index_process(space, state);
    }
    if (observers != nullptr) {
      observe_round(space, model, state, *observers, r - measured_offset, options.n_rounds);
    }
    if (options.progress_every > 0 && options.on_progress &&
        (r + 1) % options.progress_every == 0) {
      report_progress(state, options, betas, r + 1);
    }
  }
}

template <class ExecutionSpace>
Moments collect_moments(const ObserverBuffers<ExecutionSpace>& b, std::int64_t n_nodes) {
  Moments out;
  const auto counts = to_host_vector<std::int64_t>(b.counts);
  for (auto c : counts) out.n_samples += c;
  const auto node_sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.node_sums);
  const auto edge_sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.edge_sums);
  auto column_stats = [&](const auto& sums, std::int64_t col) {
    std::vector<double> s(counts.size());
    for (std::size_t k = 0; k < counts.size(); ++k) s[k] = static_cast<double>(sums(k, col));
    return batch_means(s, counts);
  };
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(node_sums.extent(1)); ++i) {
    const MeanWithError m = column_stats(node_sums, i);
    out.node_means.push_back(m.mean);
    out.node_means_stderr.push_back(m.standard_error);
  }
  for (std::int64_t e = 0; e < static_cast<std::int64_t>(edge_sums.extent(1)); ++e) {
    const MeanWithError m = column_stats(edge_sums, e);
    out.edge_means.push_back(m.mean);
    out.edge_means_stderr.push_back(m.standard_error);
  }
  const double per_node = 1.0 / static_cast<double>(n_nodes);
  std::vector<double> energy = to_host_vector<double>(b.energy_sums);
  std::vector<double> magnetization;
  for (auto v : to_host_vector<std::int64_t>(b.abs_magnetization_sums)) {
    magnetization.push_back(static_cast<double>(v) * per_node);
  }
  for (auto& v : energy) v *= per_node;
  out.energy_per_node = batch_means(energy, counts);
  out.abs_magnetization_per_node = batch_means(magnetization, counts);
  return out;
}

}  // namespace detail

template <class ExecutionSpace>
NrptResult nrpt(const ExecutionSpace& space,
                const DeviceModel<typename ExecutionSpace::memory_space>& model,
                const NrptOptions& options) {
  validate_options(options, model.n_nodes);
  std::vector<double> betas = ladder_of(options);
  const auto n_chains = static_cast<std::int32_t>(betas.size());
  auto state = detail::make_chain_state(space, model, betas, options.seed);

  // Burn-in, optionally split into adaptation phases that retune the ladder.
  const std::int32_t phases =
      options.adapt_schedule && n_chains >= 3 && options.burn_in > 0
          ? static_cast<std::int32_t>(std::min<std::int64_t>(options.adapt_phases, options.burn_in))
          : 1;
  std::int64_t done = 0;
  for (std::int32_t phase = 0; phase < phases; ++phase) {
    const std::int64_t length = options.burn_in * (phase + 1) / phases - done;
    detail::run_rounds(space, model, state, options, betas, done, length,
                       static_cast<const detail::ObserverBuffers<ExecutionSpace>*>(nullptr), 0);
    done += length;
    if (phases > 1) {
      const auto stats =
          swap_statistics(betas, detail::to_host_vector<std::int64_t>(state.attempted),
                          detail::to_host_vector<std::int64_t>(state.accepted));
      betas = optimize_schedule(stats.rejection, betas);
      Kokkos::deep_copy(
          space, state.betas,
          Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
              betas.data(), betas.size()));
      refresh_acceptance_thresholds(space, model, state);
      detail::reset_counters(space, state);
    }
  }
  detail::reset_counters(space, state);

  const bool observing = options.observers.samples_every > 0 || options.observers.energies ||
                         options.observers.index_process || options.observers.moments;
  detail::ObserverBuffers<ExecutionSpace> buffers;
  if (observing) {
    buffers =
        detail::make_observer_buffers(space, model, options.observers, options.n_rounds, n_chains);
  }
  detail::run_rounds(space, model, state, options, betas, options.burn_in, options.n_rounds,
                     observing ? &buffers : nullptr, options.burn_in);
  compute_energies(space, model, state);
  space.fence();

  NrptResult result;
  result.betas = betas;
  result.n_rounds = options.n_rounds;
  result.swaps = swap_statistics(betas, detail::to_host_vector<std::int64_t>(state.attempted),
                                 detail::to_host_vector<std::int64_t>(state.accepted));
  result.round_trips = detail::to_host_vector<std::int64_t>(state.round_trips);
  result.restarts = detail::to_host_vector<std::int64_t>(state.restarts);
  for (auto t : result.round_trips) result.total_round_trips += t;
  result.tau_observed =
      static_cast<double>(result.total_round_trips) / static_cast<double>(options.n_rounds);
  result.efficiency = n_chains > 1 ? result.tau_observed / result.swaps.tau_predicted : 0.0;
  result.chain_of_machine = detail::to_host_vector<std::int32_t>(state.chain_of_machine);
  result.machine_of_chain = detail::to_host_vector<std::int32_t>(state.machine_of_chain);
  const auto energy_fixed = detail::to_host_vector<std::int64_t>(state.energy_fixed);
  for (std::int32_t c = 0; c < n_chains; ++c) {
    result.final_energies.push_back(
        fixed_point_energy(energy_fixed[static_cast<std::size_t>(
                               result.machine_of_chain[static_cast<std::size_t>(c)])],
                           model.energy_fraction_bits));
  }
  result.spin_updates =
      model.n_free * n_chains * options.n_expl * (options.burn_in + options.n_rounds);

  if (buffers.samples_every > 0) {
    result.sample_nodes.clear();
    for (auto v : detail::to_host_vector<std::int32_t>(buffers.sample_nodes)) {
      result.sample_nodes.push_back(v);
    }
    result.n_samples = static_cast<std::int64_t>(buffers.samples.extent(0));
    result.samples = detail::to_host_vector<std::int8_t>(buffers.samples);
  }
  if (buffers.energies.extent(0) > 0) {
    result.energies = detail::to_host_vector<double>(buffers.energies);
  }
  if (buffers.index_process.extent(0) > 0) {
    result.index_process = detail::to_host_vector<std::int32_t>(buffers.index_process);
  }
  if (buffers.n_batches > 0) result.moments = detail::collect_moments(buffers, model.n_nodes);
  return result;
}

template <class ExecutionSpace>
NrptResult nrpt(const ExecutionSpace& space, const SpinModel& model, const NrptOptions& options) {
  validate_options(options, model.n_nodes());
  return nrpt(space, make_device_model(space, model), options);
}

template <class ExecutionSpace>
NrptResult sample(const ExecutionSpace& space, const SpinModel& model, double beta,
                  NrptOptions options) {
  options.betas = {beta};
  options.adapt_schedule = false;
  return nrpt(space, model, options);
}

}  // namespace hamon
