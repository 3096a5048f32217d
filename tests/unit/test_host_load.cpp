// SPDX-License-Identifier: Apache-2.0
// Fitting a host-tier decision to the cores other processes leave idle (host_load.hpp):
// the rule on hand-made loads (exact), the /proc/stat reader, and that only a choice the
// host tier made is ever changed.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/env.hpp"
#include "hamon/policies/host_load.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "policy_env_fixture.hpp"

namespace {

using hamon::DecisionReason;
using hamon::DeviceDecision;
using hamon::DeviceSpec;
using hamon::fit_to_idle_cores;
using hamon::HostLoad;
using hamon::HostRule;
using hamon::Placement;
using hamon::resolve_device;
namespace env = hamon::env;

const hamon::AcceleratorInfo kCompiledOut{false, 0, ""};

HostLoad load(int usable, int online, int others) {
  HostLoad l;
  l.usable_cores = usable;
  l.online_cores = online;
  l.other_runnable = others;
  return l;
}

using HostLoadTest = hamon::test::PolicyEnvTest;

TEST(HostLoad, IdleCoresAreOnlineLessOthersWithinTheAffinitySet) {
  EXPECT_EQ(hamon::idle_cores(load(2, 2, 0)), 2);
  EXPECT_EQ(hamon::idle_cores(load(2, 2, 1)), 1);
  EXPECT_EQ(hamon::idle_cores(load(2, 2, 5)), 1);  // never fewer than one
  // A container's affinity set of 2 on a 64-CPU host that others keep 10 CPUs busy of.
  EXPECT_EQ(hamon::idle_cores(load(2, 64, 10)), 2);
  EXPECT_EQ(hamon::idle_cores(load(16, 16, 4)), 12);
}

TEST(HostLoad, ParsesProcsRunning) {
  const std::string stat = "cpu  1 2 3 4\nintr 5 6\nctxt 7\nprocs_running 3\nprocs_blocked 0\n";
  EXPECT_EQ(hamon::parse_procs_running(stat), 3);
  EXPECT_EQ(hamon::parse_procs_running("cpu 1 2\n"), std::nullopt);
  EXPECT_EQ(hamon::parse_procs_running("procs_running x\n"), std::nullopt);
  EXPECT_EQ(hamon::parse_procs_running("procs_running -2\n"), std::nullopt);
#ifdef __linux__
  const auto sampled = hamon::sample_host_load();
  ASSERT_TRUE(sampled);
  EXPECT_GE(sampled->usable_cores, 1);
  EXPECT_GE(sampled->online_cores, 1);
  EXPECT_GE(sampled->other_runnable, 0);
#endif
}

TEST_F(HostLoadTest, BusyCoresTurnTheHostTiersOpenMpIntoSerial) {
  const hamon::ScopedAcceleratorOverride scoped(kCompiledOut);
  const hamon::ScopedHostBackendsOverride backends(
      hamon::HostBackends{{Placement::serial, Placement::openmp}});
  DeviceDecision d = resolve_device(DeviceSpec::auto_(), 1'000'000);
  ASSERT_EQ(d.placement, Placement::openmp);
  fit_to_idle_cores(d, load(2, 2, 0));  // idle: unchanged, Kokkos's own thread count
  EXPECT_EQ(d.placement, Placement::openmp);
  EXPECT_EQ(d.host_tier->rule, HostRule::score_at_or_above_threshold);
  EXPECT_FALSE(d.host_tier->threads);

  fit_to_idle_cores(d, load(2, 2, 1));  // one busy process beside us on two cores
  EXPECT_EQ(d.placement, Placement::serial);
  EXPECT_EQ(d.reason, DecisionReason::no_accelerator);
  EXPECT_EQ(d.host_tier->rule, HostRule::cores_busy);
  EXPECT_EQ(d.host_tier->threads, 1);

  DeviceDecision wide = resolve_device(DeviceSpec::cpu(), 1'000'000);
  fit_to_idle_cores(wide, load(16, 16, 6));  // OpenMP on the 10 idle cores
  EXPECT_EQ(wide.placement, Placement::openmp);
  EXPECT_EQ(wide.host_tier->rule, HostRule::score_at_or_above_threshold);
  EXPECT_EQ(wide.host_tier->threads, 10);
}

TEST_F(HostLoadTest, OnlyTheHostTiersOpenMpChoiceIsFitted) {
  const hamon::ScopedAcceleratorOverride scoped(kCompiledOut);
  const hamon::ScopedHostBackendsOverride backends(
      hamon::HostBackends{{Placement::serial, Placement::openmp}});
  const HostLoad busy = load(2, 2, 3);
  // none touches nothing; an explicit space or instance is the caller's; Serial stays.
  for (const DeviceSpec& spec :
       {DeviceSpec::none(), DeviceSpec::backend(Placement::openmp), DeviceSpec::auto_()}) {
    DeviceDecision d =
        resolve_device(spec, spec.kind() == DeviceSpec::Kind::auto_ ? 10 : 1'000'000);
    const DeviceDecision before = d;
    fit_to_idle_cores(d, busy);
    EXPECT_EQ(d.placement, before.placement) << hamon::to_string(spec);
    EXPECT_EQ(d.host_tier.has_value(), before.host_tier.has_value());
    if (d.host_tier) {
      EXPECT_EQ(d.host_tier->rule, before.host_tier->rule);
      EXPECT_FALSE(d.host_tier->threads);
    }
  }
  // One host backend (OpenMP only): it stays, on one thread.
  const hamon::ScopedHostBackendsOverride openmp_only(hamon::HostBackends{{Placement::openmp}});
  DeviceDecision d = resolve_device(DeviceSpec::auto_(), 1'000'000);
  fit_to_idle_cores(d, busy);
  EXPECT_EQ(d.placement, Placement::openmp);
  EXPECT_EQ(d.host_tier->rule, HostRule::only_backend);
  EXPECT_EQ(d.host_tier->threads, 1);
}

TEST(HostLoad, ThreadCountsTheUserSetAreTheUsers) {
  const auto omp = env::get_env("OMP_NUM_THREADS");
  const auto kokkos = env::get_env("KOKKOS_NUM_THREADS");
  env::unset_env("OMP_NUM_THREADS");
  env::unset_env("KOKKOS_NUM_THREADS");
  EXPECT_FALSE(hamon::host_threads_chosen_by_user());
  env::set_env("OMP_NUM_THREADS", "");
  EXPECT_FALSE(hamon::host_threads_chosen_by_user());  // empty counts as unset
  env::set_env("OMP_NUM_THREADS", "2");
  EXPECT_TRUE(hamon::host_threads_chosen_by_user());
  env::unset_env("OMP_NUM_THREADS");
  env::set_env("KOKKOS_NUM_THREADS", "1");
  EXPECT_TRUE(hamon::host_threads_chosen_by_user());
  env::restore_env("OMP_NUM_THREADS", omp);
  env::restore_env("KOKKOS_NUM_THREADS", kokkos);
}

}  // namespace
