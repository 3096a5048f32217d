// SPDX-License-Identifier: Apache-2.0
#pragma once
// How many of the host's cores other processes leave free, and fitting a host-tier
// decision to them. For a program that owns Kokkos's initialisation (the CLI), before it
// starts Kokkos: OpenMP's threads wait for each other at every kernel, so on a core that
// another process keeps busy each of those waits becomes a scheduler time slice, and two
// threads on two cores beside one busy process run many times slower than one thread
// (perf/results/default_threads/). The thread count is fixed when Kokkos starts, so the
// load is sampled once, then. Results never depend on the space or its threads.

#include <optional>
#include <string>

#include "hamon/policies/placement.hpp"

namespace hamon {

struct HostLoad {
  int usable_cores = 1;    // this process's CPU affinity set (sched_getaffinity)
  int online_cores = 1;    // the machine's online CPUs, the set procs_running counts over
  int other_runnable = 0;  // runnable threads of other processes (median of a few samples)
};

/// Cores this process may use that no other runnable thread claims:
/// online - other_runnable, at least 1 and at most usable_cores.
int idle_cores(const HostLoad& load);

/// procs_running of a /proc/stat text (runnable threads, the reader included); nullopt
/// when the line is missing or malformed.
std::optional<int> parse_procs_running(const std::string& proc_stat);

/// The load now: procs_running sampled a few times over ~2 ms (the median, less the
/// calling thread), the affinity set and the online CPUs. nullopt where /proc/stat cannot
/// be read (then nothing is fitted).
std::optional<HostLoad> sample_host_load();

/// Whether the user chose the host thread count (OMP_NUM_THREADS or KOKKOS_NUM_THREADS set
/// and not empty): then it is never changed.
bool host_threads_chosen_by_user();

/// When the host tier chose OpenMP (decision.host_tier set, placement openmp): with at
/// most one idle core, Serial (rule cores_busy, threads 1); with fewer idle cores than
/// usable ones, OpenMP on the idle ones (threads set). Any other decision is left as it is:
/// an explicit space, none, an instance, the accelerator.
void fit_to_idle_cores(DeviceDecision& decision, const HostLoad& load);

}  // namespace hamon
