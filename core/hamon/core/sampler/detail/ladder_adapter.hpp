// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sampler's ladder adapter: the current ladder (host copy of ChainState::betas) and
// the phases of the run (run_phases.hpp). At the end of each adaptation segment it moves
// the ladder on the segment's rejection rates; at the end of burn-in the counters start
// afresh. Its state is the ladder (SamplerState::betas).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/sampler/detail/round_loop.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/run_phases.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/tempering/schedule.hpp"
#include "hamon/core/tempering/swap.hpp"
#include "hamon/core/util/host_copies.hpp"

namespace hamon::detail {

template <class ExecutionSpace, class Value = std::int8_t>
struct LadderAdapter {
  using memory_space = typename ExecutionSpace::memory_space;

  RunPhases phases;
  std::vector<double> betas;

  SwapStatistics swap_stats(const ExecutionSpace& space,
                            const ChainState<ExecutionSpace, Value>& state) const {
    return swap_statistics(betas, to_host_vector<std::int64_t>(space, state.attempted),
                           to_host_vector<std::int64_t>(space, state.accepted));
  }

  void save(SamplerStateOf<Value>& s) const { s.betas = betas; }

  /// A saved ladder (of the loop's length, RoundLoop::check) that validate_ladder accepts.
  void check(const SamplerStateOf<Value>& s) const { validate_ladder(s.betas); }

  void restore(const ExecutionSpace& space, const DeviceModel<memory_space>& model,
               RoundLoop<ExecutionSpace, Value>& loop, const SamplerStateOf<Value>& s) {
    set(space, model, loop, s.betas);
  }

  /// A new ladder into the state (and the family's tables that depend on it).
  void set(const ExecutionSpace& space, const DeviceModel<memory_space>& model,
           RoundLoop<ExecutionSpace, Value>& loop, std::vector<double> ladder) {
    betas = std::move(ladder);
    copy_from_host(space, loop.state.betas, betas);
    loop.family.refresh(space, model, loop.state);
  }

  /// The end of an adaptation segment: move the ladder on its rejection rates. A pair that
  /// was never attempted has no estimate: then the counters carry over to the next segment.
  void update(const ExecutionSpace& space, const DeviceModel<memory_space>& model,
              RoundLoop<ExecutionSpace, Value>& loop) {
    const SwapStatistics stats = swap_stats(space, loop.state);
    for (std::int64_t a : stats.attempted) {
      if (a == 0) return;
    }
    set(space, model, loop, optimize_schedule(stats.rejection, betas));
    loop.reset_swap_counters(space);
  }

  /// What happens between rounds at loop.rounds_done (so a saved state is always past it).
  void after_round(const ExecutionSpace& space, const DeviceModel<memory_space>& model,
                   RoundLoop<ExecutionSpace, Value>& loop) {
    if (std::binary_search(phases.ladder_updates.begin(), phases.ladder_updates.end(),
                           loop.rounds_done)) {
      update(space, model, loop);
    }
    if (loop.rounds_done == phases.burn_in) loop.reset_swap_counters(space);
  }
};

}  // namespace hamon::detail
