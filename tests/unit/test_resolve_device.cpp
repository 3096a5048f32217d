// SPDX-License-Identifier: Apache-2.0
// resolve_device: the whole decision table of docs/routing.md, the host tier, the
// error messages, the accelerator probe and its overrides, the decision record.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/env.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "policy_env_fixture.hpp"

namespace {

using hamon::AcceleratorInfo;
using hamon::DecisionReason;
using hamon::DeviceDecision;
using hamon::DeviceSpec;
using hamon::HostRule;
using hamon::Placement;
using hamon::resolve_device;
using hamon::ScopedAcceleratorOverride;
using hamon::ScopedHostBackendsOverride;
using hamon::ThresholdSource;
using hamon::test::contains_all;
namespace env = hamon::env;

const AcceleratorInfo kVisible{true, 1, ""};
const AcceleratorInfo kNoDevice{true, 0, "cudaGetDeviceCount: no CUDA-capable device"};
const AcceleratorInfo kCompiledOut{false, 0, ""};

template <typename Error, typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& error) {
    return error.what();
  } catch (const std::exception& other) {
    ADD_FAILURE() << "threw the wrong type: " << other.what();
    return {};
  }
  ADD_FAILURE() << "did not throw";
  return {};
}

// ---- the whole table, against an oracle written from routing.md ----------------------

struct SpecCase {
  std::string name;
  DeviceSpec spec;
};

std::vector<SpecCase> all_specs() {
  std::vector<SpecCase> specs = {{"auto", DeviceSpec::auto_()},
                                 {"cpu", DeviceSpec::cpu()},
                                 {"gpu", DeviceSpec::gpu()},
                                 {"cuda", hamon::parse_device_spec("cuda")},
                                 {"none", DeviceSpec::none()},
                                 {"serial", DeviceSpec::backend(hamon::Placement::serial)},
                                 {"openmp", DeviceSpec::backend(hamon::Placement::openmp)}};
#ifdef KOKKOS_ENABLE_SERIAL
  specs.push_back({"instance:serial", DeviceSpec(Kokkos::Serial())});
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  specs.push_back({"instance:openmp", DeviceSpec(Kokkos::OpenMP())});
#endif
  return specs;
}

struct Expected {
  enum class Outcome { decision, unavailable, invalid } outcome = Outcome::decision;
  Placement placement = Placement::leave_alone;
  DecisionReason reason = DecisionReason::opted_out;
  bool device_threshold_consulted = false;
  bool host_tier = false;
  std::string message_word;  // for errors
};

Expected host_tier(std::optional<std::int64_t> score, double host_threshold, Expected e) {
  const hamon::HostBackends backends = hamon::host_backends();
  e.host_tier = true;
  if (backends.has(Placement::serial) && backends.has(Placement::openmp)) {
    e.placement = !score ? Placement::openmp
                         : (static_cast<double>(*score) < host_threshold ? Placement::serial
                                                                         : Placement::openmp);
  } else {
    e.placement = backends.has(Placement::openmp) ? Placement::openmp : Placement::serial;
  }
  return e;
}

Expected oracle(const SpecCase& spec, const std::optional<std::string>& hamon_device,
                const AcceleratorInfo& accelerator, std::optional<std::int64_t> score,
                double threshold, double host_threshold) {
  Expected e;
  std::string word = spec.name;
  // An invalid HAMON_DEVICE is an error whatever the spec (used or not).
  if (hamon_device && (*hamon_device == "bogus" || *hamon_device == "tpu")) {
    e.outcome = Expected::Outcome::invalid;
    e.message_word = "HAMON_DEVICE";
    return e;
  }
  if (word == "none") return e;  // leave alone, opted out
  if (word == "instance:serial") {
    e.placement = Placement::serial;
    e.reason = DecisionReason::concrete_instance;
    return e;
  }
  if (word == "instance:openmp") {
    e.placement = Placement::openmp;
    e.reason = DecisionReason::concrete_instance;
    return e;
  }
  e.reason = DecisionReason::explicit_request;
  if (word == "auto") {
    if (hamon_device && *hamon_device != "auto") {
      e.reason = DecisionReason::forced_by_env;
      if (*hamon_device == "none" || *hamon_device == "off") return e;
      word = *hamon_device;
    } else {
      if (!accelerator.visible()) {
        // The host tier by the score; without one, placement left alone.
        e.reason = DecisionReason::no_accelerator;
        return score ? host_tier(score, host_threshold, e) : e;
      }
      if (score) {
        e.device_threshold_consulted = true;
        if (static_cast<double>(*score) >= threshold) {
          e.placement = Placement::cuda;
          e.reason = DecisionReason::score_at_or_above_threshold;
          return e;
        }
        e.reason = DecisionReason::score_below_threshold;
      } else {
        e.reason = DecisionReason::no_score;
      }
      return host_tier(score, host_threshold, e);
    }
  }
  if (word == "cpu") return host_tier(score, host_threshold, e);
  if (word == "gpu" || word == "cuda") {
    if (!accelerator.compiled_in) {
      e.outcome = Expected::Outcome::unavailable;
      e.message_word = "not compiled in";
    } else if (accelerator.visible_devices == 0) {
      e.outcome = Expected::Outcome::unavailable;
      e.message_word = "CUDA_VISIBLE_DEVICES";
    } else {
      e.placement = Placement::cuda;
    }
    return e;
  }
  if (word == "serial") e.placement = Placement::serial;
  if (word == "openmp") e.placement = Placement::openmp;
  return e;
}

using ResolveDeviceTable = hamon::test::PolicyEnvTest;

TEST_F(ResolveDeviceTable, EverySpecEnvAcceleratorScoreAndThresholdSource) {
  const std::vector<std::optional<std::string>> envs = {
      std::nullopt, "auto", "cpu", "gpu", "none", "off", "bogus", "tpu", "serial", "openmp"};
  const std::vector<std::pair<std::string, AcceleratorInfo>> accelerators = {
      {"visible", kVisible}, {"absent", kNoDevice}, {"compiled out", kCompiledOut}};
  enum class Source { argument, environment, file, default_value };
  const double host_threshold = 250.0;  // passed as an argument throughout

  int checked = 0;
  for (const SpecCase& spec : all_specs()) {
    for (const auto& hamon_device : envs) {
      for (const auto& [accelerator_name, accelerator] : accelerators) {
        for (Source source :
             {Source::argument, Source::environment, Source::file, Source::default_value}) {
          std::optional<double> threshold_arg;
          double threshold = 4096.0;
          ThresholdSource expected_source = ThresholdSource::default_value;
          env::unset_env("HAMON_DEVICE_THRESHOLD");
          std::filesystem::remove(calibration_path());
          switch (source) {
            case Source::argument:
              threshold = 100.0;
              threshold_arg = threshold;
              expected_source = ThresholdSource::argument;
              break;
            case Source::environment:
              threshold = 200.0;
              env::set_env("HAMON_DEVICE_THRESHOLD", "200");
              expected_source = ThresholdSource::environment;
              break;
            case Source::file:
              threshold = 300.0;
              write_text(calibration_path(), "device_threshold: 300\n");
              expected_source = ThresholdSource::calibration_file;
              break;
            case Source::default_value:
              break;
          }
          const auto t = static_cast<std::int64_t>(threshold);
          for (std::optional<std::int64_t> score :
               {std::optional<std::int64_t>{}, std::optional<std::int64_t>{t - 1},
                std::optional<std::int64_t>{t}, std::optional<std::int64_t>{t + 1}}) {
            if (hamon_device) {
              env::set_env("HAMON_DEVICE", *hamon_device);
            } else {
              env::unset_env("HAMON_DEVICE");
            }
            const ScopedAcceleratorOverride scoped(accelerator);
            SCOPED_TRACE("spec=" + spec.name + " HAMON_DEVICE=" + hamon_device.value_or("<unset>") +
                         " accelerator=" + accelerator_name +
                         " score=" + (score ? std::to_string(*score) : "none") +
                         " threshold=" + std::to_string(threshold));
            const Expected e =
                oracle(spec, hamon_device, accelerator, score, threshold, host_threshold);
            auto call = [&] {
              return resolve_device(spec.spec, score, threshold_arg, host_threshold);
            };
            ++checked;
            switch (e.outcome) {
              case Expected::Outcome::invalid:
                EXPECT_TRUE(contains_all(error_of<std::invalid_argument>(call), e.message_word));
                continue;
              case Expected::Outcome::unavailable:
                EXPECT_TRUE(contains_all(error_of<hamon::DeviceUnavailable>(call), e.message_word));
                continue;
              case Expected::Outcome::decision:
                break;
            }
            const DeviceDecision d = call();
            EXPECT_EQ(d.placement, e.placement);
            EXPECT_EQ(d.reason, e.reason);
            EXPECT_EQ(d.score, score);
            EXPECT_EQ(d.spec.kind(), spec.spec.kind());
            EXPECT_EQ(d.threshold.has_value(), e.device_threshold_consulted);
            if (d.threshold) {
              EXPECT_EQ(d.threshold->value, threshold);
              EXPECT_EQ(d.threshold->source, expected_source);
            }
            EXPECT_EQ(d.host_tier.has_value(), e.host_tier);
            EXPECT_EQ(d.env_device.has_value(), e.reason == DecisionReason::forced_by_env);
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 3000);
}

// ---- the rules one by one, readable ----------------------------------------------------

using ResolveDeviceRules = hamon::test::PolicyEnvTest;

TEST_F(ResolveDeviceRules, DefaultArgumentsAreAutoWithoutScore) {
  {
    const ScopedAcceleratorOverride scoped(kCompiledOut);
    const DeviceDecision d = resolve_device();
    EXPECT_EQ(d.spec.kind(), DeviceSpec::Kind::auto_);
    EXPECT_EQ(d.placement, Placement::leave_alone);
    EXPECT_EQ(d.reason, DecisionReason::no_accelerator);
  }
  {
    const ScopedAcceleratorOverride scoped(kVisible);
    const DeviceDecision d = resolve_device();
    EXPECT_EQ(d.reason, DecisionReason::no_score);
    EXPECT_NE(d.placement, Placement::cuda);  // no score: the host
  }
}

TEST_F(ResolveDeviceRules, NoneLeavesPlacementAloneWhateverTheEnvironment) {
  env::set_env("HAMON_DEVICE", "gpu");
  env::set_env("HAMON_DEVICE_THRESHOLD", "1");
  write_text(calibration_path(), "garbage\n");
  for (const AcceleratorInfo& accelerator : {kVisible, kNoDevice, kCompiledOut}) {
    const ScopedAcceleratorOverride scoped(accelerator);
    const DeviceDecision d = resolve_device(DeviceSpec::none(), 1'000'000);
    EXPECT_EQ(d.placement, Placement::leave_alone);
    EXPECT_EQ(d.reason, DecisionReason::opted_out);
    EXPECT_FALSE(d.threshold);
  }
}

TEST_F(ResolveDeviceRules, InvalidEnvironmentIsAnErrorWhateverTheSpec) {
  // Used or not: a laptop without a GPU refuses what a cluster would.
  const ScopedAcceleratorOverride scoped(kNoDevice);
  const std::vector<DeviceSpec> specs = {DeviceSpec::none(), DeviceSpec::auto_(),
                                         DeviceSpec::cpu()};
  for (const char* name : {"HAMON_DEVICE", "HAMON_DEVICE_THRESHOLD", "HAMON_HOST_THRESHOLD"}) {
    env::set_env(name, "bogus");
    for (const DeviceSpec& spec : specs) {
      EXPECT_TRUE(contains_all(error_of<std::invalid_argument>([&] { resolve_device(spec, 1); }),
                               name, "bogus"))
          << name;
    }
    EXPECT_THROW(hamon::check_environment(), std::invalid_argument) << name;
    env::unset_env(name);
  }
  env::set_env("HAMON_DEVICE_THRESHOLD", "-1");
  EXPECT_THROW(resolve_device(DeviceSpec::none()), std::invalid_argument);
  env::unset_env("HAMON_DEVICE_THRESHOLD");
  EXPECT_NO_THROW(hamon::check_environment());
}

TEST_F(ResolveDeviceRules, InstanceIsUsedAsIsAndIgnoresEnv) {
  env::set_env("HAMON_DEVICE", "cpu");
  const ScopedAcceleratorOverride scoped(kVisible);
#ifdef KOKKOS_ENABLE_SERIAL
  {
    const DeviceDecision d = resolve_device(Kokkos::Serial(), 1'000'000);
    EXPECT_EQ(d.placement, Placement::serial);
    EXPECT_EQ(d.reason, DecisionReason::concrete_instance);
    EXPECT_TRUE(std::holds_alternative<Kokkos::Serial>(d.spec.instance()));
  }
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  {
    const DeviceDecision d = resolve_device(Kokkos::OpenMP(), 1);
    EXPECT_EQ(d.placement, Placement::openmp);
    EXPECT_EQ(d.reason, DecisionReason::concrete_instance);
  }
#endif
#ifdef KOKKOS_ENABLE_CUDA
  {
    const DeviceDecision d = resolve_device(Kokkos::Cuda(), 1);
    EXPECT_EQ(d.placement, Placement::cuda);
  }
#endif
}

TEST_F(ResolveDeviceRules, AutoWithoutAcceleratorNeverReadsTheDeviceThreshold) {
  env::set_env("HAMON_DEVICE_THRESHOLD", "1");
  const ScopedHostBackendsOverride backends(
      hamon::HostBackends{{hamon::Placement::serial, hamon::Placement::openmp}});
  for (const AcceleratorInfo& accelerator : {kNoDevice, kCompiledOut}) {
    const ScopedAcceleratorOverride scoped(accelerator);
    // The host tier decides by the score: Serial for small work, OpenMP for large.
    DeviceDecision d = resolve_device(DeviceSpec::auto_(), 1'000'000);
    EXPECT_EQ(d.placement, Placement::openmp);
    EXPECT_EQ(d.reason, DecisionReason::no_accelerator);
    EXPECT_FALSE(d.threshold);
    ASSERT_TRUE(d.host_tier);
    EXPECT_EQ(d.host_tier->rule, HostRule::score_at_or_above_threshold);
    d = resolve_device(DeviceSpec::auto_(), 100);
    EXPECT_EQ(d.placement, Placement::serial);
    EXPECT_EQ(d.reason, DecisionReason::no_accelerator);
    ASSERT_TRUE(d.host_tier);
    EXPECT_EQ(d.host_tier->rule, HostRule::score_below_threshold);
    // Without a score nothing is compared: placement stays Kokkos's own.
    d = resolve_device(DeviceSpec::auto_());
    EXPECT_EQ(d.placement, Placement::leave_alone);
    EXPECT_FALSE(d.host_tier);
  }
  // The host threshold is read (argument > environment > file), the device one is not.
  const ScopedAcceleratorOverride none_visible(kNoDevice);
  env::set_env("HAMON_HOST_THRESHOLD", "50");
  EXPECT_EQ(resolve_device(DeviceSpec::auto_(), 100).placement, Placement::openmp);
  EXPECT_EQ(resolve_device(DeviceSpec::auto_(), 100, {}, 200.0).placement, Placement::serial);
  env::unset_env("HAMON_HOST_THRESHOLD");
  write_text(calibration_path(), "garbage\n");
  EXPECT_ANY_THROW(resolve_device(DeviceSpec::auto_(), 1'000'000));
  EXPECT_EQ(resolve_device(DeviceSpec::auto_()).placement, Placement::leave_alone);
  // With an accelerator and a score the bad calibration file is read too: an error.
  const ScopedAcceleratorOverride scoped(kVisible);
  env::unset_env("HAMON_DEVICE_THRESHOLD");
  EXPECT_ANY_THROW(resolve_device(DeviceSpec::auto_(), 1'000'000));
}

TEST_F(ResolveDeviceRules, AutoComparesScoreWithThresholdInclusively) {
  const ScopedAcceleratorOverride scoped(kVisible);
  EXPECT_EQ(resolve_device(DeviceSpec::auto_(), 4095).placement == Placement::cuda, false);
  EXPECT_EQ(resolve_device(DeviceSpec::auto_(), 4096).placement, Placement::cuda);
  EXPECT_EQ(resolve_device(DeviceSpec::auto_(), 4097).placement, Placement::cuda);
  EXPECT_EQ(resolve_device(DeviceSpec::auto_(), 0, 0.0).placement, Placement::cuda);
  const DeviceDecision d = resolve_device(DeviceSpec::auto_(), 4096);
  EXPECT_EQ(d.reason, DecisionReason::score_at_or_above_threshold);
  ASSERT_TRUE(d.threshold);
  EXPECT_EQ(d.threshold->value, 4096.0);
  EXPECT_EQ(d.threshold->source, ThresholdSource::default_value);
}

TEST_F(ResolveDeviceRules, HamonDeviceAutoAndEmptyMeanUnset) {
  const ScopedAcceleratorOverride scoped(kVisible);
  for (const char* value : {"auto", "AUTO", " auto ", "", "  "}) {
    env::set_env("HAMON_DEVICE", value);
    const DeviceDecision d = resolve_device(DeviceSpec::auto_(), 1 << 20);
    EXPECT_EQ(d.placement, Placement::cuda) << "'" << value << "'";
    EXPECT_EQ(d.reason, DecisionReason::score_at_or_above_threshold);
    EXPECT_FALSE(d.env_device);
  }
}

TEST_F(ResolveDeviceRules, HamonDeviceForcesAutoOnly) {
  const ScopedAcceleratorOverride scoped(kVisible);
  env::set_env("HAMON_DEVICE", " CPU ");
  DeviceDecision d = resolve_device(DeviceSpec::auto_(), 1 << 20);
  EXPECT_NE(d.placement, Placement::cuda);
  EXPECT_EQ(d.reason, DecisionReason::forced_by_env);
  EXPECT_EQ(d.env_device, "CPU");
  ASSERT_TRUE(d.host_tier);

  // An explicit spec is not overridden by the environment.
  d = resolve_device(DeviceSpec::gpu(), 1);
  EXPECT_EQ(d.placement, Placement::cuda);
  EXPECT_EQ(d.reason, DecisionReason::explicit_request);

  env::set_env("HAMON_DEVICE", "Cuda");
  d = resolve_device(DeviceSpec::auto_(), 1);  // tiny score, still forced onto the device
  EXPECT_EQ(d.placement, Placement::cuda);
  EXPECT_EQ(d.reason, DecisionReason::forced_by_env);
  EXPECT_FALSE(d.threshold);

  env::set_env("HAMON_DEVICE", "OFF");
  d = resolve_device(DeviceSpec::auto_(), 1 << 20);
  EXPECT_EQ(d.placement, Placement::leave_alone);
  EXPECT_EQ(d.reason, DecisionReason::forced_by_env);
  d = resolve_device(DeviceSpec::cpu(), 1 << 20);  // explicit cpu ignores the env
  EXPECT_EQ(d.reason, DecisionReason::explicit_request);
}

TEST_F(ResolveDeviceRules, HamonDeviceGpuWithoutGpuRaises) {
  env::set_env("HAMON_DEVICE", "gpu");
  {
    const ScopedAcceleratorOverride scoped(kNoDevice);
    EXPECT_TRUE(contains_all(error_of<hamon::DeviceUnavailable>([] { resolve_device(); }),
                             "HAMON_DEVICE=gpu", "no CUDA device is visible",
                             "CUDA_VISIBLE_DEVICES"));
  }
  {
    const ScopedAcceleratorOverride scoped(kCompiledOut);
    EXPECT_TRUE(contains_all(error_of<hamon::DeviceUnavailable>([] { resolve_device(); }),
                             "HAMON_DEVICE=gpu", "Cuda", "not compiled in"));
  }
}

TEST_F(ResolveDeviceRules, InvalidHamonDeviceNamesTheVariable) {
  const ScopedAcceleratorOverride scoped(kCompiledOut);
  env::set_env("HAMON_DEVICE", "quantum");
  EXPECT_TRUE(contains_all(error_of<std::invalid_argument>([] { resolve_device(); }),
                           "HAMON_DEVICE", "quantum", "accepted", "auto", "cpu", "gpu", "none"));
  env::set_env("HAMON_DEVICE", "tpu");
  EXPECT_TRUE(contains_all(error_of<std::invalid_argument>([] { resolve_device(); }),
                           "HAMON_DEVICE", "TPU", "Kokkos"));
  // Not used for explicit specs, but still an error there.
  EXPECT_THROW(resolve_device(DeviceSpec::none()), std::invalid_argument);
  env::set_env("HAMON_DEVICE", "gpu");
  EXPECT_EQ(resolve_device(DeviceSpec::none()).placement, Placement::leave_alone);
}

TEST_F(ResolveDeviceRules, GpuErrorsSayWhy) {
  {
    const ScopedAcceleratorOverride scoped(kCompiledOut);
    const std::string message =
        error_of<hamon::DeviceUnavailable>([] { resolve_device(DeviceSpec::gpu()); });
    EXPECT_TRUE(contains_all(message, "gpu", "Cuda", "not compiled in"));
    EXPECT_EQ(message.find("HAMON_DEVICE"), std::string::npos);
  }
  {
    const ScopedAcceleratorOverride scoped(kNoDevice);
    env::unset_env("CUDA_VISIBLE_DEVICES");
    EXPECT_TRUE(contains_all(
        error_of<hamon::DeviceUnavailable>([] { resolve_device(DeviceSpec::gpu()); }),
        "no CUDA device is visible", "CUDA_VISIBLE_DEVICES is unset", "no CUDA-capable device"));
    env::set_env("CUDA_VISIBLE_DEVICES", "");
    EXPECT_TRUE(
        contains_all(error_of<hamon::DeviceUnavailable>([] { resolve_device(DeviceSpec::gpu()); }),
                     "CUDA_VISIBLE_DEVICES is ''"));
  }
}

TEST_F(ResolveDeviceRules, ExplicitHostSpacesNeedTheirBackend) {
  const ScopedAcceleratorOverride scoped(kVisible);
  {
    const ScopedHostBackendsOverride backends(hamon::HostBackends{{hamon::Placement::openmp}});
    EXPECT_TRUE(contains_all(error_of<hamon::DeviceUnavailable>([] {
                               resolve_device(DeviceSpec::backend(hamon::Placement::serial));
                             }),
                             "Serial", "not compiled in"));
    EXPECT_EQ(resolve_device(DeviceSpec::backend(hamon::Placement::openmp)).placement,
              Placement::openmp);
  }
  {
    const ScopedHostBackendsOverride backends(hamon::HostBackends{{hamon::Placement::serial}});
    EXPECT_TRUE(contains_all(error_of<hamon::DeviceUnavailable>([] {
                               resolve_device(DeviceSpec::backend(hamon::Placement::openmp));
                             }),
                             "OpenMP", "not compiled in"));
    EXPECT_EQ(resolve_device(DeviceSpec::backend(hamon::Placement::serial)).placement,
              Placement::serial);
    env::set_env("HAMON_DEVICE", "openmp");
    EXPECT_TRUE(contains_all(error_of<hamon::DeviceUnavailable>([] { resolve_device(); }),
                             "HAMON_DEVICE=openmp", "OpenMP"));
  }
}

TEST_F(ResolveDeviceRules, NegativeScoreIsRejected) {
  const ScopedAcceleratorOverride scoped(kVisible);
  EXPECT_THROW(resolve_device(DeviceSpec::auto_(), -1), std::invalid_argument);
}

// ---- the host tier -----------------------------------------------------------------------

using ResolveDeviceHostTier = hamon::test::PolicyEnvTest;

TEST_F(ResolveDeviceHostTier, BothBackendsSplitAtTheHostThreshold) {
  const ScopedAcceleratorOverride scoped(kCompiledOut);
  const ScopedHostBackendsOverride backends(
      hamon::HostBackends{{hamon::Placement::serial, hamon::Placement::openmp}});
  const auto at = static_cast<std::int64_t>(hamon::kDefaultHostThreshold);
  DeviceDecision d = resolve_device(DeviceSpec::cpu(), at - 1);
  EXPECT_EQ(d.placement, Placement::serial);
  ASSERT_TRUE(d.host_tier);
  EXPECT_EQ(d.host_tier->rule, HostRule::score_below_threshold);
  ASSERT_TRUE(d.host_tier->threshold);
  EXPECT_EQ(d.host_tier->threshold->value, hamon::kDefaultHostThreshold);
  EXPECT_EQ(d.host_tier->threshold->source, ThresholdSource::default_value);

  d = resolve_device(DeviceSpec::cpu(), at);
  EXPECT_EQ(d.placement, Placement::openmp);
  EXPECT_EQ(d.host_tier->rule, HostRule::score_at_or_above_threshold);
  d = resolve_device(DeviceSpec::cpu(), at + 1);
  EXPECT_EQ(d.placement, Placement::openmp);
}

TEST_F(ResolveDeviceHostTier, NoScoreUsesTheDefaultHostSpace) {
  const ScopedAcceleratorOverride scoped(kCompiledOut);
  env::set_env("HAMON_HOST_THRESHOLD", "1");  // valid, but not read without a score
  const ScopedHostBackendsOverride backends(
      hamon::HostBackends{{hamon::Placement::serial, hamon::Placement::openmp}});
  const DeviceDecision d = resolve_device(DeviceSpec::cpu());
  EXPECT_EQ(d.placement, Placement::openmp);
  ASSERT_TRUE(d.host_tier);
  EXPECT_EQ(d.host_tier->rule, HostRule::no_score_default);
  EXPECT_FALSE(d.host_tier->threshold);
}

#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
TEST(ResolveDeviceHostTierDefault, MatchesKokkosDefaultHostExecutionSpace) {
  // With both compiled in, Kokkos prefers OpenMP as the default host space, as we do.
  static_assert(std::is_same_v<Kokkos::DefaultHostExecutionSpace, Kokkos::OpenMP>);
}
#endif

TEST_F(ResolveDeviceHostTier, HostThresholdPrecedence) {
  const ScopedAcceleratorOverride scoped(kCompiledOut);
  const ScopedHostBackendsOverride backends(
      hamon::HostBackends{{hamon::Placement::serial, hamon::Placement::openmp}});
  write_text(calibration_path(), "host_threshold: 300\n");
  env::set_env("HAMON_HOST_THRESHOLD", "200");

  DeviceDecision d = resolve_device(DeviceSpec::cpu(), 150, std::nullopt, 100.0);
  EXPECT_EQ(d.placement, Placement::openmp);
  EXPECT_EQ(d.host_tier->threshold->source, ThresholdSource::argument);

  d = resolve_device(DeviceSpec::cpu(), 150);
  EXPECT_EQ(d.placement, Placement::serial);
  EXPECT_EQ(d.host_tier->threshold->value, 200.0);
  EXPECT_EQ(d.host_tier->threshold->source, ThresholdSource::environment);

  env::unset_env("HAMON_HOST_THRESHOLD");
  d = resolve_device(DeviceSpec::cpu(), 250);
  EXPECT_EQ(d.placement, Placement::serial);
  EXPECT_EQ(d.host_tier->threshold->value, 300.0);
  EXPECT_EQ(d.host_tier->threshold->source, ThresholdSource::calibration_file);

  std::filesystem::remove(calibration_path());
  d = resolve_device(DeviceSpec::cpu(), 250);
  EXPECT_EQ(d.host_tier->threshold->source, ThresholdSource::default_value);
}

TEST_F(ResolveDeviceHostTier, OneBackendIsUsedWhateverTheScore) {
  const ScopedAcceleratorOverride scoped(kVisible);
  env::set_env("HAMON_HOST_THRESHOLD", "1e9");  // valid, but not read with one backend
  for (const std::optional<std::int64_t> score :
       {std::optional<std::int64_t>{}, std::optional<std::int64_t>{1},
        std::optional<std::int64_t>{1 << 12}}) {
    {
      const ScopedHostBackendsOverride backends(hamon::HostBackends{{hamon::Placement::serial}});
      const DeviceDecision d = resolve_device(DeviceSpec::cpu(), score);
      EXPECT_EQ(d.placement, Placement::serial);
      EXPECT_EQ(d.host_tier->rule, HostRule::only_backend);
      EXPECT_EQ(resolve_device(DeviceSpec::auto_(), score, 1e9).placement, Placement::serial);
    }
    {
      const ScopedHostBackendsOverride backends(hamon::HostBackends{{hamon::Placement::openmp}});
      const DeviceDecision d = resolve_device(DeviceSpec::cpu(), score);
      EXPECT_EQ(d.placement, Placement::openmp);
      EXPECT_EQ(d.host_tier->rule, HostRule::only_backend);
    }
  }
}

TEST_F(ResolveDeviceHostTier, NoHostBackend) {
  const ScopedAcceleratorOverride scoped(kVisible);
  const ScopedHostBackendsOverride backends(hamon::HostBackends{{}});
  EXPECT_TRUE(
      contains_all(error_of<hamon::DeviceUnavailable>([] { resolve_device(DeviceSpec::cpu(), 1); }),
                   "cpu", "Serial", "OpenMP"));
  const DeviceDecision d = resolve_device(DeviceSpec::auto_(), 1);
  EXPECT_EQ(d.placement, Placement::leave_alone);
  EXPECT_EQ(d.reason, DecisionReason::no_host_backend);
  EXPECT_EQ(resolve_device(DeviceSpec::auto_(), 1 << 20).placement, Placement::cuda);
}

TEST_F(ResolveDeviceHostTier, AutoBelowDeviceThresholdUsesTheHostTier) {
  const ScopedAcceleratorOverride scoped(kVisible);
  const ScopedHostBackendsOverride backends(
      hamon::HostBackends{{hamon::Placement::serial, hamon::Placement::openmp}});
  DeviceDecision d = resolve_device(DeviceSpec::auto_(), 100, 4096.0, 512.0);
  EXPECT_EQ(d.placement, Placement::serial);
  EXPECT_EQ(d.reason, DecisionReason::score_below_threshold);
  d = resolve_device(DeviceSpec::auto_(), 1000, 4096.0, 512.0);
  EXPECT_EQ(d.placement, Placement::openmp);
  EXPECT_EQ(d.reason, DecisionReason::score_below_threshold);
}

// ---- the decision record -----------------------------------------------------------------

using ResolveDeviceDescribe = hamon::test::PolicyEnvTest;

TEST_F(ResolveDeviceDescribe, NamesEverythingThatDecided) {
  const ScopedAcceleratorOverride scoped(kVisible);
  const ScopedHostBackendsOverride backends(
      hamon::HostBackends{{hamon::Placement::serial, hamon::Placement::openmp}});
  env::set_env("HAMON_DEVICE_THRESHOLD", "8192");
  write_text(calibration_path(), "host_threshold: 64\n");
  const std::string text = resolve_device(DeviceSpec::auto_(), 128).describe();
  EXPECT_TRUE(contains_all(text, "spec=auto", "placement=openmp", "score below threshold",
                           "score=128", "threshold=8192", "HAMON_DEVICE_THRESHOLD",
                           "score >= host threshold", "host_threshold=64", calibration_path()));

  env::set_env("HAMON_DEVICE", "none");
  EXPECT_TRUE(contains_all(resolve_device().describe(), "HAMON_DEVICE=none",
                           "placement=leave_alone", "forced by env", "score=none"));
}

// ---- the probe ---------------------------------------------------------------------------

TEST(ResolveDeviceProbe, RealProbeMatchesTheBuild) {
  const AcceleratorInfo info = hamon::probe_accelerator();
#ifdef KOKKOS_ENABLE_CUDA
  EXPECT_TRUE(info.compiled_in);
  EXPECT_TRUE(hamon::accelerator_compiled_in());
#else
  EXPECT_FALSE(info.compiled_in);
  EXPECT_FALSE(info.visible());
  EXPECT_EQ(info.visible_devices, 0);
  EXPECT_FALSE(hamon::accelerator_compiled_in());
#endif
  const hamon::HostBackends backends = hamon::host_backends();
#ifdef KOKKOS_ENABLE_SERIAL
  EXPECT_TRUE(backends.has(Placement::serial));
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  EXPECT_TRUE(backends.has(Placement::openmp));
#endif
  // In the list's order, lightest first: the host tier's rule depends on it.
  EXPECT_TRUE(std::is_sorted(backends.placements.begin(), backends.placements.end()));
}

TEST(ResolveDeviceProbe, OverridesNestAndRestore) {
  const AcceleratorInfo real = hamon::probe_accelerator();
  {
    const ScopedAcceleratorOverride outer(kVisible);
    EXPECT_TRUE(hamon::probe_accelerator().visible());
    EXPECT_TRUE(hamon::accelerator_compiled_in());
    {
      const ScopedAcceleratorOverride inner(kCompiledOut);
      EXPECT_FALSE(hamon::probe_accelerator().compiled_in);
      EXPECT_FALSE(hamon::accelerator_compiled_in());
    }
    EXPECT_EQ(hamon::probe_accelerator().visible_devices, 1);
  }
  EXPECT_EQ(hamon::probe_accelerator().compiled_in, real.compiled_in);
  EXPECT_EQ(hamon::probe_accelerator().visible_devices, real.visible_devices);

  const hamon::HostBackends before = hamon::host_backends();
  {
    const ScopedHostBackendsOverride scoped(hamon::HostBackends{});
    EXPECT_TRUE(hamon::host_backends().placements.empty());
  }
  EXPECT_EQ(hamon::host_backends().placements, before.placements);
}

}  // namespace
