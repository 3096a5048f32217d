// SPDX-License-Identifier: Apache-2.0
#include "hamon/policies/host_load.hpp"

#ifdef __linux__
#include <sched.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/env.hpp"

namespace hamon {

namespace {

[[maybe_unused]] std::optional<int> read_procs_running() {
  std::ifstream in("/proc/stat");
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_procs_running(text.str());
}

#ifdef __linux__
int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}
#endif

bool set_and_not_empty(const char* name) {
  const auto value = env::get_env(name);
  return value && !value->empty();
}

}  // namespace

int idle_cores(const HostLoad& load) {
  return std::clamp(load.online_cores - load.other_runnable, 1, std::max(1, load.usable_cores));
}

std::optional<int> parse_procs_running(const std::string& proc_stat) {
  std::istringstream lines(proc_stat);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string key;
    long value = -1;
    if (words >> key && key == "procs_running") {
      if (!(words >> value) || value < 0) return std::nullopt;
      return static_cast<int>(std::min<long>(value, 1 << 20));
    }
  }
  return std::nullopt;
}

std::optional<HostLoad> sample_host_load() {
#ifndef __linux__
  return std::nullopt;  // procs_running and the affinity set are Linux's
#else
  // A median of a few instantaneous counts: a kernel thread or a short-lived process that
  // happens to be runnable at one sample does not count, a process that computes does.
  constexpr int kSamples = 5;
  std::vector<int> counts;
  for (int i = 0; i < kSamples; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::microseconds(500));
    const auto count = read_procs_running();
    if (!count) return std::nullopt;
    counts.push_back(*count);
  }
  std::nth_element(counts.begin(), counts.begin() + kSamples / 2, counts.end());
  HostLoad load;
  load.usable_cores = usable_cores();
  load.online_cores = std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  load.other_runnable = std::max(0, counts[kSamples / 2] - 1);  // less the reading thread
  return load;
#endif
}

bool host_threads_chosen_by_user() {
  return set_and_not_empty("OMP_NUM_THREADS") || set_and_not_empty("KOKKOS_NUM_THREADS");
}

void fit_to_idle_cores(DeviceDecision& decision, const HostLoad& load) {
  if (!decision.host_tier || decision.placement != Placement::openmp) return;
  const int idle = idle_cores(load);
  if (idle >= load.usable_cores) return;
  const std::vector<Placement> hosts = host_backends().placements;
  if (idle <= 1 && hosts.size() > 1) {
    decision.placement = hosts.front();
    decision.host_tier->rule = HostRule::cores_busy;
  }
  decision.host_tier->threads = idle;
}

}  // namespace hamon
