// SPDX-License-Identifier: Apache-2.0
// DeviceSpec parsing and printing, Placement / DecisionReason names, DeviceUnavailable.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/placement.hpp"
#include "policy_env_fixture.hpp"

namespace {

using hamon::DeviceSpec;
using hamon::parse_device_spec;
using hamon::test::contains_all;
using Kind = DeviceSpec::Kind;

std::string message_of(const std::string& text) {
  try {
    parse_device_spec(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  ADD_FAILURE() << "parse_device_spec('" << text << "') did not throw";
  return {};
}

TEST(DeviceSpecParse, AcceptsEveryWordAndAlias) {
  const std::vector<std::pair<std::string, Kind>> cases = {
      {"auto", Kind::auto_},     {"cpu", Kind::cpu},       {"gpu", Kind::gpu},
      {"cuda", Kind::gpu},       {"none", Kind::none},     {"off", Kind::none},
      {"serial", Kind::backend}, {"openmp", Kind::backend}};
  for (const auto& [text, kind] : cases) {
    EXPECT_EQ(parse_device_spec(text).kind(), kind) << text;
  }
  EXPECT_EQ(parse_device_spec("serial").backend(), hamon::Placement::serial);
  EXPECT_EQ(parse_device_spec("openmp").backend(), hamon::Placement::openmp);
}

// Every backend of the list is a device word: its name gives back its placement (a host
// backend) or gpu (an accelerator), and to_string gives the word back.
TEST(DeviceSpecParse, EveryListedBackendIsAWord) {
  for (const hamon::Backend& backend : hamon::kKnownBackends) {
    const hamon::DeviceSpec spec = parse_device_spec(backend.name);
    if (backend.tier == hamon::Tier::accelerator) {
      EXPECT_EQ(spec.kind(), Kind::gpu) << backend.name;
    } else {
      EXPECT_EQ(spec.kind(), Kind::backend) << backend.name;
      EXPECT_EQ(spec.backend(), backend.placement) << backend.name;
      EXPECT_EQ(hamon::to_string(spec), backend.name);
    }
    EXPECT_EQ(hamon::to_string(backend.placement), backend.name);
    EXPECT_NE(hamon::accepted_device_specs().find(backend.name), std::string::npos);
  }
  EXPECT_THROW(hamon::DeviceSpec::backend(hamon::Placement::leave_alone), std::invalid_argument);
}

TEST(DeviceSpecParse, IsCaseInsensitive) {
  EXPECT_EQ(parse_device_spec("AUTO").kind(), Kind::auto_);
  EXPECT_EQ(parse_device_spec("Cpu").kind(), Kind::cpu);
  EXPECT_EQ(parse_device_spec("GPU").kind(), Kind::gpu);
  EXPECT_EQ(parse_device_spec("CuDa").kind(), Kind::gpu);
  EXPECT_EQ(parse_device_spec("NONE").kind(), Kind::none);
  EXPECT_EQ(parse_device_spec("Off").kind(), Kind::none);
  EXPECT_EQ(parse_device_spec("Serial").backend(), hamon::Placement::serial);
  EXPECT_EQ(parse_device_spec("OpenMP").backend(), hamon::Placement::openmp);
}

TEST(DeviceSpecParse, TrimsWhitespace) {
  EXPECT_EQ(parse_device_spec("  gpu").kind(), Kind::gpu);
  EXPECT_EQ(parse_device_spec("cpu \n").kind(), Kind::cpu);
  EXPECT_EQ(parse_device_spec("\t OpenMP\r\n").backend(), hamon::Placement::openmp);
}

TEST(DeviceSpecParse, RejectsTpuSayingKokkosHasNoTpu) {
  for (const std::string text : {"tpu", "TPU", "  Tpu "}) {
    const std::string message = message_of(text);
    EXPECT_TRUE(contains_all(message, "TPU", "Kokkos", "auto", "cpu", "gpu", "cuda", "none",
                             "serial", "openmp"));
  }
}

TEST(DeviceSpecParse, RejectsUnknownWordsListingAcceptedValues) {
  for (const std::string text : {"rocm", "gpu0", "cpus", "host", "null"}) {
    const std::string message = message_of(text);
    EXPECT_TRUE(contains_all(message, "'" + text + "'", "accepted", "auto", "cpu", "gpu", "none",
                             "serial", "openmp"));
  }
  EXPECT_TRUE(contains_all(message_of(""), "empty", "accepted"));
  EXPECT_TRUE(contains_all(message_of("   "), "empty", "accepted"));
}

TEST(DeviceSpecParse, ToStringRoundTrips) {
  for (const DeviceSpec& spec : {DeviceSpec::auto_(), DeviceSpec::cpu(), DeviceSpec::gpu(),
                                 DeviceSpec::none(), DeviceSpec::backend(hamon::Placement::serial),
                                 DeviceSpec::backend(hamon::Placement::openmp)}) {
    EXPECT_EQ(parse_device_spec(hamon::to_string(spec)).kind(), spec.kind());
  }
  EXPECT_EQ(hamon::to_string(DeviceSpec::gpu()), "gpu");
  EXPECT_EQ(hamon::to_string(DeviceSpec::none()), "none");
}

TEST(DeviceSpecValue, DefaultIsAuto) {
  const DeviceSpec spec;
  EXPECT_EQ(spec.kind(), Kind::auto_);
  EXPECT_FALSE(spec.is_instance());
  EXPECT_TRUE(std::holds_alternative<std::monostate>(spec.instance()));
}

TEST(DeviceSpecValue, HoldsConcreteInstances) {
#ifdef KOKKOS_ENABLE_SERIAL
  const DeviceSpec serial = Kokkos::Serial();
  EXPECT_EQ(serial.kind(), Kind::instance);
  EXPECT_TRUE(serial.is_instance());
  EXPECT_TRUE(std::holds_alternative<Kokkos::Serial>(serial.instance()));
  EXPECT_EQ(hamon::to_string(serial), "instance:serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  const DeviceSpec openmp = Kokkos::OpenMP();
  EXPECT_EQ(openmp.kind(), Kind::instance);
  EXPECT_TRUE(std::holds_alternative<Kokkos::OpenMP>(openmp.instance()));
  EXPECT_EQ(hamon::to_string(openmp), "instance:openmp");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  const DeviceSpec cuda = Kokkos::Cuda();
  EXPECT_TRUE(std::holds_alternative<Kokkos::Cuda>(cuda.instance()));
  EXPECT_EQ(hamon::to_string(cuda), "instance:cuda");
#endif
}

TEST(DeviceSpecValue, DeviceUnavailableIsARuntimeError) {
  static_assert(std::is_base_of_v<std::runtime_error, hamon::DeviceUnavailable>);
  const hamon::DeviceUnavailable error("why");
  EXPECT_STREQ(error.what(), "why");
}

TEST(DeviceSpecNames, PlacementsAndReasonsHaveDistinctNames) {
  using hamon::DecisionReason;
  using hamon::Placement;
  std::set<std::string> placements;
  for (Placement p :
       {Placement::leave_alone, Placement::serial, Placement::openmp, Placement::cuda}) {
    placements.insert(hamon::to_string(p));
  }
  EXPECT_EQ(placements.size(), 4u);
  std::set<std::string> reasons;
  for (DecisionReason r : {DecisionReason::forced_by_env, DecisionReason::no_accelerator,
                           DecisionReason::score_at_or_above_threshold,
                           DecisionReason::score_below_threshold, DecisionReason::no_score,
                           DecisionReason::explicit_request, DecisionReason::concrete_instance,
                           DecisionReason::opted_out, DecisionReason::no_host_backend}) {
    reasons.insert(hamon::to_string(r));
  }
  EXPECT_EQ(reasons.size(), 9u);
  EXPECT_TRUE(contains_all(hamon::to_string(DecisionReason::forced_by_env), "HAMON_DEVICE"));
}

}  // namespace
