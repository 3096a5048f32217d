// SPDX-License-Identifier: Apache-2.0
// The runtime dispatcher (hamon/policies/dispatch.hpp): the same run routed to every
// space gives bit-identical results and a decision record that says what ran and why;
// explicit and env-forced requests; the score each call passes; nrpt_with honouring a
// given decision; nrpt_in_place running on the caller's Views without copying them.
//
// Which space actually ran is observed through Kokkos's tool callbacks: every launch of a
// hamon kernel reports a device id whose top 8 bits name the execution-space type, and
// every View allocation and deep_copy is reported with its label and pointers.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/dispatch.hpp"
#include "hamon/policies/env.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "hamon/policies/thresholds.hpp"
#include "policy_env_fixture.hpp"
#include "run_options.hpp"
#include "same_bits.hpp"

namespace {

using hamon::AcceleratorInfo;
using hamon::DecisionReason;
using hamon::DeviceDecision;
using hamon::DeviceSpec;
using hamon::HostRule;
using hamon::NrptOptions;
using hamon::NrptResult;
using hamon::Placement;
using hamon::RoutedResult;
using hamon::ScopedAcceleratorOverride;
using hamon::SpinModel;
using hamon::test::contains_all;
namespace env = hamon::env;
namespace tools = Kokkos::Tools::Experimental;

const AcceleratorInfo kCompiledOut{false, 0, ""};
const AcceleratorInfo kNoDevice{true, 0, "cudaGetDeviceCount: no CUDA-capable device"};
const AcceleratorInfo kVisible{true, 1, ""};

// ---- observing Kokkos: kernel launches, allocations, deep copies ----------------------

struct DeepCopy {
  std::string dst_label;
  const void* dst = nullptr;
  std::string src_label;
  const void* src = nullptr;
};

struct Recorded {
  std::set<std::uint32_t> kernel_device_types;  // DeviceType of every kernel launched
  std::vector<std::string> allocations;         // labels of every View allocated
  std::vector<DeepCopy> deep_copies;
  std::uint64_t next_kernel_id = 0;
};

Recorded& recorded() {
  static Recorded r;
  return r;
}

// The DeviceType is the top 8 bits of a device id in every Kokkos version (3.4: type <<
// instance_bits (24); 4.x and 5.x: type << (num_device_bits + num_instance_bits) = 7 + 17),
// but each names its shift differently.
constexpr unsigned kDeviceTypeShift = 32 - 8;

void on_kernel(const char* name, const std::uint32_t device_id, std::uint64_t* kernel_id) {
  // hamon's own kernels only: Kokkos 3.4 reports its View initialisation kernels with
  // device id 0 (Serial) whatever space runs them.
  if (std::string(name).rfind("hamon::", 0) == 0) {
    recorded().kernel_device_types.insert(device_id >> kDeviceTypeShift);
  }
  *kernel_id = recorded().next_kernel_id++;
}

void on_allocate(const Kokkos_Profiling_SpaceHandle /*space*/, const char* label,
                 const void* /*ptr*/, const std::uint64_t /*size*/) {
  recorded().allocations.emplace_back(label);
}

void on_deep_copy(Kokkos_Profiling_SpaceHandle /*dst_space*/, const char* dst_label,
                  const void* dst, Kokkos_Profiling_SpaceHandle /*src_space*/,
                  const char* src_label, const void* src, std::uint64_t /*size*/) {
  recorded().deep_copies.push_back({dst_label, dst, src_label, src});
}

// Installs the recorders for its lifetime (restoring whatever tool was there before).
class KokkosRecorder {
 public:
  KokkosRecorder() : saved_(tools::get_callbacks()) {
    recorded() = Recorded{};
    tools::set_begin_parallel_for_callback(on_kernel);
    tools::set_begin_parallel_reduce_callback(on_kernel);
    tools::set_begin_parallel_scan_callback(on_kernel);
    tools::set_allocate_data_callback(on_allocate);
    tools::set_begin_deep_copy_callback(on_deep_copy);
  }
  ~KokkosRecorder() { tools::set_callbacks(saved_); }
  KokkosRecorder(const KokkosRecorder&) = delete;
  KokkosRecorder& operator=(const KokkosRecorder&) = delete;

  const Recorded& get() const { return recorded(); }

 private:
  tools::EventSet saved_;
};

// The Kokkos device type of an execution space named as RoutedResult::execution_space.
std::uint32_t device_type_named(const std::string& name) {
  if (name == "Serial") return static_cast<std::uint32_t>(tools::DeviceType::Serial);
  if (name == "OpenMP") return static_cast<std::uint32_t>(tools::DeviceType::OpenMP);
  if (name == "Cuda") return static_cast<std::uint32_t>(tools::DeviceType::Cuda);
  ADD_FAILURE() << "unexpected execution space " << name;
  return static_cast<std::uint32_t>(tools::DeviceType::Unknown);
}

// ---- comparing results bit for bit -----------------------------------------------------

using hamon_test::same_bits;

void expect_bit_identical(const NrptResult& a, const NrptResult& b, const std::string& label) {
  SCOPED_TRACE(label);
  EXPECT_TRUE(same_bits(a.samples, b.samples, "samples"));
  EXPECT_TRUE(same_bits(a.energies, b.energies, "energies"));
  EXPECT_TRUE(same_bits(a.final_energies, b.final_energies, "final energies"));
  EXPECT_TRUE(same_bits(a.swaps.accepted, b.swaps.accepted, "accepted swaps"));
  EXPECT_TRUE(same_bits(a.swaps.attempted, b.swaps.attempted, "attempted swaps"));
  EXPECT_TRUE(same_bits(a.betas, b.betas, "betas"));
  EXPECT_TRUE(same_bits(a.round_trips, b.round_trips, "round trips"));
  EXPECT_TRUE(same_bits(a.machine_of_chain, b.machine_of_chain, "permutation"));
  EXPECT_EQ(a.spin_updates, b.spin_updates);
}

SpinModel glass(int side) {
  return hamon::make_lattice({side, side}, true, hamon::ValueDistribution::gaussian(2),
                             hamon::ValueDistribution::gaussian(3, 0.1));
}

class DispatchTest : public hamon::test::PolicyEnvTest {};

// ---- the same run on every space --------------------------------------------------------

struct Route {
  std::string name;
  DeviceSpec spec;
  Placement placement;
  DecisionReason reason;
  std::string space;  // what must run it
};

std::vector<Route> host_routes() {
  std::vector<Route> routes;
#ifdef KOKKOS_ENABLE_SERIAL
  routes.push_back({"serial", DeviceSpec::backend(hamon::Placement::serial), Placement::serial,
                    DecisionReason::explicit_request, "Serial"});
  routes.push_back({"Kokkos::Serial{}", DeviceSpec(Kokkos::Serial()), Placement::serial,
                    DecisionReason::concrete_instance, "Serial"});
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  routes.push_back({"openmp", DeviceSpec::backend(hamon::Placement::openmp), Placement::openmp,
                    DecisionReason::explicit_request, "OpenMP"});
  routes.push_back({"Kokkos::OpenMP{}", DeviceSpec(Kokkos::OpenMP()), Placement::openmp,
                    DecisionReason::concrete_instance, "OpenMP"});
#endif
  // Score 7 x 100 = 700 is below the default host threshold (16384): the host tier picks
  // Serial when both are built, else the one host backend; `auto` without an accelerator
  // goes through the same tier.
#if defined(KOKKOS_ENABLE_SERIAL)
  routes.push_back(
      {"cpu", DeviceSpec::cpu(), Placement::serial, DecisionReason::explicit_request, "Serial"});
  routes.push_back(
      {"auto", DeviceSpec::auto_(), Placement::serial, DecisionReason::no_accelerator, "Serial"});
#elif defined(KOKKOS_ENABLE_OPENMP)
  routes.push_back(
      {"cpu", DeviceSpec::cpu(), Placement::openmp, DecisionReason::explicit_request, "OpenMP"});
  routes.push_back(
      {"auto", DeviceSpec::auto_(), Placement::openmp, DecisionReason::no_accelerator, "OpenMP"});
#endif
  routes.push_back({"none", DeviceSpec::none(), Placement::leave_alone, DecisionReason::opted_out,
                    Kokkos::DefaultExecutionSpace::name()});
  return routes;
}

TEST_F(DispatchTest, same_run_on_every_space_is_bit_identical) {
  const ScopedAcceleratorOverride no_accelerator(kCompiledOut);
  const SpinModel model = glass(10);
  const NrptOptions options = hamon_test::observed_run(7);
  const std::vector<Route> routes = host_routes();
  ASSERT_GE(routes.size(), 3u);

  std::vector<RoutedResult> results;
  for (const Route& route : routes) {
    SCOPED_TRACE(route.name);
    const KokkosRecorder recorder;
    results.push_back(hamon::routed_nrpt(model, options, route.spec));
    const RoutedResult& r = results.back();
    EXPECT_EQ(r.decision.placement, route.placement) << r.decision.describe();
    EXPECT_EQ(r.decision.reason, route.reason) << r.decision.describe();
    ASSERT_TRUE(r.decision.score.has_value());
    EXPECT_EQ(*r.decision.score, 7 * 100);
    EXPECT_EQ(r.execution_space, route.space);
    // Every kernel ran in the space the record names, and nowhere else.
    EXPECT_EQ(recorder.get().kernel_device_types,
              std::set<std::uint32_t>{device_type_named(route.space)});
    EXPECT_TRUE(contains_all(r.decision.describe(), "placement=" + to_string(route.placement),
                             "reason=" + to_string(route.reason), "score=700"));
  }
  for (std::size_t i = 1; i < results.size(); ++i) {
    expect_bit_identical(results[i].result, results[0].result,
                         routes[i].name + " vs " + routes[0].name);
  }
  EXPECT_FALSE(results[0].result.samples.empty());
  EXPECT_FALSE(results[0].result.energies.empty());

  // And the same as calling the core template directly.
  const NrptResult direct = hamon::nrpt(Kokkos::DefaultHostExecutionSpace(), model, options);
  expect_bit_identical(direct, results[0].result, "core template");
}

TEST_F(DispatchTest, cpu_record_says_how_the_host_tier_chose) {
  const ScopedAcceleratorOverride no_accelerator(kCompiledOut);
  const SpinModel model = glass(6);
  NrptOptions options = hamon_test::observed_run(7);
  const RoutedResult small = hamon::routed_nrpt(model, options, DeviceSpec::cpu());
  ASSERT_TRUE(small.decision.host_tier.has_value());
#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
  EXPECT_EQ(small.decision.host_tier->rule, HostRule::score_below_threshold);
  EXPECT_EQ(small.execution_space, "Serial");
  env::set_env(hamon::kHostThresholdEnv, "252");  // score is 7 x 36 = 252
  const RoutedResult large = hamon::routed_nrpt(model, options, DeviceSpec::cpu());
  EXPECT_EQ(large.decision.placement, Placement::openmp);
  ASSERT_TRUE(large.decision.host_tier.has_value());
  EXPECT_EQ(large.decision.host_tier->rule, HostRule::score_at_or_above_threshold);
  EXPECT_EQ(large.execution_space, "OpenMP");
  EXPECT_TRUE(
      contains_all(large.decision.describe(), "host_threshold=252", "HAMON_HOST_THRESHOLD"));
  expect_bit_identical(large.result, small.result, "openmp vs serial via the host tier");
#else
  EXPECT_EQ(small.decision.host_tier->rule, HostRule::only_backend);
#endif
}

TEST_F(DispatchTest, sample_is_routed_with_one_chain) {
  const ScopedAcceleratorOverride no_accelerator(kCompiledOut);
  const SpinModel model = glass(8);
  NrptOptions options;
  options.n_rounds = 50;
  options.n_chains = 9;  // ignored by sample: one chain
  options.seed = 5;
  options.observers.samples_every = 1;
  const RoutedResult routed = hamon::sample(model, 0.7, options, DeviceSpec::cpu());
  ASSERT_TRUE(routed.decision.score.has_value());
  EXPECT_EQ(*routed.decision.score, 64);  // 1 chain x 64 free nodes
  const NrptResult direct = hamon::sample(Kokkos::DefaultHostExecutionSpace(), model, 0.7, options);
  expect_bit_identical(routed.result, direct, "routed sample vs core sample");
  EXPECT_EQ(routed.result.betas, std::vector<double>{0.7});
}

// ---- explicit gpu and the accelerator branch without Cuda ------------------------------

TEST_F(DispatchTest, explicit_gpu_without_an_accelerator_throws_device_unavailable) {
  const SpinModel model = glass(4);
  NrptOptions options;
  options.n_rounds = 5;
  {
    const ScopedAcceleratorOverride compiled_out(kCompiledOut);
    try {
      hamon::routed_nrpt(model, options, DeviceSpec::gpu());
      ADD_FAILURE() << "did not throw";
    } catch (const hamon::DeviceUnavailable& error) {
      EXPECT_TRUE(contains_all(error.what(), "gpu", "not compiled in"));
    }
  }
  {
    const ScopedAcceleratorOverride no_device(kNoDevice);
    env::set_env("CUDA_VISIBLE_DEVICES", "");
    try {
      hamon::sample(model, 0.5, options, hamon::parse_device_spec("CUDA"));
      ADD_FAILURE() << "did not throw";
    } catch (const hamon::DeviceUnavailable& error) {
      EXPECT_TRUE(contains_all(error.what(), "no CUDA device is visible", "CUDA_VISIBLE_DEVICES"));
    }
  }
#ifndef KOKKOS_ENABLE_CUDA
  // This build, unmocked.
  EXPECT_THROW(hamon::routed_nrpt(model, options, DeviceSpec::gpu()), hamon::DeviceUnavailable);
#endif
}

#ifndef KOKKOS_ENABLE_CUDA
TEST_F(DispatchTest, accelerator_branch_in_a_build_without_cuda_fails_loudly_not_silently) {
  // A probe that claims a device (as in tests of the decision table): a large score
  // resolves to cuda, which this build cannot run, so the dispatcher says so instead of
  // running somewhere else; a small score goes to the host tier and runs.
  const ScopedAcceleratorOverride visible(kVisible);
  const SpinModel model = glass(4);
  NrptOptions options;
  options.n_chains = 4;
  options.n_rounds = 5;
  env::set_env(hamon::kDeviceThresholdEnv, "64");  // score 4 x 16 = 64
  try {
    hamon::routed_nrpt(model, options);
    ADD_FAILURE() << "did not throw";
  } catch (const hamon::DeviceUnavailable& error) {
    EXPECT_TRUE(contains_all(error.what(), "cuda", "not compiled into this build"));
  }
  env::set_env(hamon::kDeviceThresholdEnv, "65");
  const RoutedResult small = hamon::routed_nrpt(model, options);
  EXPECT_EQ(small.decision.reason, DecisionReason::score_below_threshold);
  EXPECT_NE(small.decision.placement, Placement::cuda);
  EXPECT_NE(small.decision.placement, Placement::leave_alone);
  EXPECT_TRUE(small.decision.host_tier.has_value());
  ASSERT_TRUE(small.decision.threshold.has_value());
  EXPECT_EQ(small.decision.threshold->value, 65.0);
}
#endif

// ---- HAMON_DEVICE ------------------------------------------------------------------------

TEST_F(DispatchTest, hamon_device_env_forces_auto_calls) {
  const ScopedAcceleratorOverride no_accelerator(kCompiledOut);
  const SpinModel model = glass(6);
  const NrptOptions options = hamon_test::observed_run(7);
  const NrptResult reference = hamon::nrpt(Kokkos::DefaultHostExecutionSpace(), model, options);

  struct Forced {
    const char* value;
    Placement placement;
    std::string space;
  };
  std::vector<Forced> cases = {
      {"NONE", Placement::leave_alone, Kokkos::DefaultExecutionSpace::name()},
      {"off", Placement::leave_alone, Kokkos::DefaultExecutionSpace::name()}};
#ifdef KOKKOS_ENABLE_SERIAL
  cases.push_back({" Serial ", Placement::serial, "Serial"});
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  cases.push_back({"openmp", Placement::openmp, "OpenMP"});
#endif
  for (const Forced& c : cases) {
    SCOPED_TRACE(c.value);
    env::set_env(hamon::kDeviceEnv, c.value);
    const KokkosRecorder recorder;
    const RoutedResult r = hamon::routed_nrpt(model, options);
    EXPECT_EQ(r.decision.reason, DecisionReason::forced_by_env);
    EXPECT_EQ(r.decision.placement, c.placement);
    ASSERT_TRUE(r.decision.env_device.has_value());
    EXPECT_EQ(r.execution_space, c.space);
    EXPECT_EQ(recorder.get().kernel_device_types,
              std::set<std::uint32_t>{device_type_named(c.space)});
    EXPECT_TRUE(contains_all(r.decision.describe(), "HAMON_DEVICE="));
    expect_bit_identical(r.result, reference, c.value);
  }

  // HAMON_DEVICE only speaks for auto: an explicit spec wins.
#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
  env::set_env(hamon::kDeviceEnv, "openmp");
  const RoutedResult explicit_serial =
      hamon::routed_nrpt(model, options, DeviceSpec::backend(hamon::Placement::serial));
  EXPECT_EQ(explicit_serial.decision.reason, DecisionReason::explicit_request);
  EXPECT_EQ(explicit_serial.execution_space, "Serial");
#endif

  // Forcing a GPU that is not there raises, naming the variable.
  env::set_env(hamon::kDeviceEnv, "gpu");
  try {
    hamon::routed_nrpt(model, options);
    ADD_FAILURE() << "did not throw";
  } catch (const hamon::DeviceUnavailable& error) {
    EXPECT_TRUE(contains_all(error.what(), "HAMON_DEVICE=gpu", "not compiled in"));
  }
  env::set_env(hamon::kDeviceEnv, "tpu");
  try {
    hamon::routed_nrpt(model, options);
    ADD_FAILURE() << "did not throw";
  } catch (const std::invalid_argument& error) {
    EXPECT_TRUE(contains_all(error.what(), "HAMON_DEVICE", "tpu"));
  }
}

// ---- the score ----------------------------------------------------------------------------

TEST_F(DispatchTest, score_is_chains_times_free_nodes_excluding_clamped_ones) {
  // An RBM with its 6 visible units clamped to data: 5 free (hidden) nodes of 11.
  const std::vector<double> weights(6 * 5, 0.25);
  const SpinModel rbm = hamon::make_rbm({6, 5, weights, {}, {}}, {1, -1, 1, 1, -1, 1});
  ASSERT_EQ(rbm.n_nodes(), 11);
  ASSERT_EQ(rbm.n_free(), 5);
  NrptOptions options;
  options.n_chains = 8;
  options.n_rounds = 10;
  EXPECT_EQ(hamon::work_score_of(rbm, options), 8 * 5);
  EXPECT_EQ(hamon::resolve_for(rbm, options).score, std::optional<std::int64_t>(40));
  // Explicit betas set the ladder size, whatever n_chains says.
  NrptOptions ladder = options;
  ladder.betas = {0.0, 0.5, 1.0};
  EXPECT_EQ(hamon::work_score_of(rbm, ladder), 3 * 5);

  // The score is what the thresholds see: exactly 40 meets a threshold of 40 ...
  const ScopedAcceleratorOverride visible(kVisible);
  const DeviceDecision at = hamon::resolve_for(rbm, options, DeviceSpec::auto_(), 40.0);
  EXPECT_EQ(at.placement, Placement::cuda);
  EXPECT_EQ(at.reason, DecisionReason::score_at_or_above_threshold);
  // ... and falls short of 41.
  const DeviceDecision below = hamon::resolve_for(rbm, options, DeviceSpec::auto_(), 41.0);
  EXPECT_EQ(below.reason, DecisionReason::score_below_threshold);
  EXPECT_NE(below.placement, Placement::cuda);

  // The routed entry points report the same score.
  const ScopedAcceleratorOverride no_accelerator(kCompiledOut);
  const RoutedResult run = hamon::routed_nrpt(rbm, options, DeviceSpec::cpu());
  EXPECT_EQ(run.decision.score, std::optional<std::int64_t>(40));
  EXPECT_EQ(run.result.spin_updates, 40 * options.n_rounds * options.n_expl);
  const RoutedResult one = hamon::sample(rbm, 1.0, options, DeviceSpec::cpu());
  EXPECT_EQ(one.decision.score, std::optional<std::int64_t>(5));

  // Bad options are reported as option errors before any routing.
  NrptOptions bad = options;
  bad.n_chains = 0;
  EXPECT_THROW(hamon::work_score_of(rbm, bad), std::invalid_argument);
  EXPECT_THROW(hamon::routed_nrpt(rbm, bad, DeviceSpec::cpu()), std::invalid_argument);
}

// ---- nrpt_with ---------------------------------------------------------------------------

TEST_F(DispatchTest, nrpt_with_runs_where_the_decision_says) {
  const ScopedAcceleratorOverride no_accelerator(kCompiledOut);
  const SpinModel model = glass(6);
  const NrptOptions options = hamon_test::observed_run(7);
  const NrptResult reference = hamon::nrpt(Kokkos::DefaultHostExecutionSpace(), model, options);

  std::vector<std::string> host_spaces;
#ifdef KOKKOS_ENABLE_SERIAL
  host_spaces.push_back("serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  host_spaces.push_back("openmp");
#endif
  for (const std::string& word : host_spaces) {
    SCOPED_TRACE(word);
    // An orchestrator resolves once (here forced by env) ...
    env::set_env(hamon::kDeviceEnv, word);
    const DeviceDecision decision = hamon::resolve_for(model, options);
    ASSERT_EQ(decision.reason, DecisionReason::forced_by_env);
    // ... and later phases keep that space whatever the environment says by then.
    env::set_env(hamon::kDeviceEnv, word == "serial" ? "openmp" : "serial");
    const std::string expected = word == "serial" ? "Serial" : "OpenMP";
    EXPECT_EQ(hamon::execution_space_of(decision), expected);
    const KokkosRecorder recorder;
    const NrptResult result = hamon::nrpt_with(decision, model, options);
    EXPECT_EQ(recorder.get().kernel_device_types,
              std::set<std::uint32_t>{device_type_named(expected)});
    expect_bit_identical(result, reference, "nrpt_with " + word);
    const NrptResult sampled = hamon::sample_with(decision, model, 0.9, options);
    EXPECT_EQ(sampled.betas, std::vector<double>{0.9});
  }
  env::unset_env(hamon::kDeviceEnv);

  // A concrete instance in the spec is used as-is.
#ifdef KOKKOS_ENABLE_SERIAL
  DeviceDecision instance;
  instance.spec = DeviceSpec(Kokkos::Serial());
  instance.placement = Placement::serial;
  instance.reason = DecisionReason::concrete_instance;
  const KokkosRecorder recorder;
  expect_bit_identical(hamon::nrpt_with(instance, model, options), reference, "instance");
  EXPECT_EQ(recorder.get().kernel_device_types,
            std::set<std::uint32_t>{device_type_named("Serial")});
#endif

  // leave_alone is Kokkos::DefaultExecutionSpace.
  DeviceDecision alone;
  alone.placement = Placement::leave_alone;
  EXPECT_EQ(hamon::execution_space_of(alone), Kokkos::DefaultExecutionSpace::name());

#ifndef KOKKOS_ENABLE_CUDA
  DeviceDecision cuda;
  cuda.placement = Placement::cuda;
  EXPECT_THROW(hamon::nrpt_with(cuda, model, options), hamon::DeviceUnavailable);
#endif
}

// ---- nrpt_in_place ----------------------------------------------------------------------

bool is_model_label(const std::string& label) {
  for (const char* name :
       {"hamon::row_offsets", "hamon::columns", "hamon::couplings", "hamon::fields",
        "hamon::clamped", "hamon::block_nodes", "hamon::edge_i", "hamon::edge_j"}) {
    if (label == name) return true;
  }
  return false;
}

template <class MemSpace>
std::set<const void*> pointers_of(const hamon::DeviceModel<MemSpace>& m) {
  return {m.row_offsets.data(), m.columns.data(),     m.couplings.data(), m.fields.data(),
          m.clamped.data(),     m.block_nodes.data(), m.edge_i.data(),    m.edge_j.data()};
}

// The alias another space's Views get (nrpt_in_place on e.g. CudaUVMSpace data): the same
// memory, every fact of the model carried over, the lattice fast path off. Compiled on the
// host too, so a DeviceModel member that alias_model forgets fails every build.
TEST_F(DispatchTest, alias_model_shares_the_memory_and_carries_every_fact) {
  const SpinModel model = hamon::make_lattice({4, 6}, true);
  const auto original = hamon::make_device_model(Kokkos::DefaultHostExecutionSpace(), model);
  ASSERT_TRUE(original.lattice.enabled);
  const auto alias = hamon::detail::alias_model<Kokkos::HostSpace>(original);
  EXPECT_EQ(pointers_of(alias), pointers_of(original));
  EXPECT_EQ(alias.couplings.extent(0), original.couplings.extent(0));
  EXPECT_EQ(alias.block_offsets, original.block_offsets);
  EXPECT_EQ(alias.n_nodes, original.n_nodes);
  EXPECT_EQ(alias.n_free, original.n_free);
  EXPECT_EQ(alias.energy_fraction_bits, original.energy_fraction_bits);
  EXPECT_EQ(alias.integer_field_bound, original.integer_field_bound);
  EXPECT_FALSE(alias.lattice.enabled);
}

// What a Sampler's kernels copy once per launch: the same memory (lattice tables too) and
// the same facts, with no reference counted by any copy.
TEST_F(DispatchTest, view_aliases_share_the_memory_and_count_no_references) {
  const SpinModel model = hamon::make_lattice({4, 6}, true);
  const auto original = hamon::make_device_model(Kokkos::DefaultHostExecutionSpace(), model);
  ASSERT_TRUE(original.lattice.enabled);
  const long uses = original.couplings.use_count();
  const auto alias = hamon::view_aliases<Kokkos::HostSpace>(original);
  const auto copies = std::vector<hamon::DeviceModel<Kokkos::HostSpace>>(4, alias);
  EXPECT_EQ(original.couplings.use_count(), uses);
  EXPECT_EQ(original.lattice.coupling_up.use_count(), 1);
  EXPECT_EQ(pointers_of(copies.back()), pointers_of(original));
  EXPECT_TRUE(alias.lattice.enabled);
  EXPECT_EQ(alias.lattice.dims, original.lattice.dims);
  EXPECT_EQ(alias.lattice.coupling_up.data(), original.lattice.coupling_up.data());
  EXPECT_EQ(alias.lattice.coupling_up.extent(1), original.lattice.coupling_up.extent(1));
  EXPECT_EQ(alias.lattice.field.data(), original.lattice.field.data());
  EXPECT_EQ(alias.lattice.stride[0], original.lattice.stride[0]);
  EXPECT_EQ(alias.integer_field_bound, original.integer_field_bound);
}

TEST_F(DispatchTest, nrpt_in_place_runs_on_the_callers_host_views_without_copying) {
  const SpinModel model = glass(10);
  const NrptOptions options = hamon_test::observed_run(7);
  // The caller's Views, in host memory.
  const auto caller = hamon::make_device_model(Kokkos::DefaultHostExecutionSpace(), model);
  const std::set<const void*> caller_pointers = pointers_of(caller);
  const long use_count_before = caller.couplings.use_count();

  // Routing is a no-op: not even a HAMON_DEVICE asking for a GPU changes anything.
  env::set_env(hamon::kDeviceEnv, "gpu");
  RoutedResult in_place;
  {
    const KokkosRecorder recorder;
    in_place = hamon::nrpt_in_place(caller, options);
    for (const std::string& label : recorder.get().allocations) {
      EXPECT_FALSE(is_model_label(label)) << "the model was copied: " << label;
    }
    for (const DeepCopy& copy : recorder.get().deep_copies) {
      EXPECT_EQ(caller_pointers.count(copy.src), 0u) << "copied from " << copy.src_label;
      EXPECT_EQ(caller_pointers.count(copy.dst), 0u) << "copied into " << copy.dst_label;
      EXPECT_FALSE(is_model_label(copy.dst_label)) << copy.dst_label;
    }
    EXPECT_EQ(recorder.get().kernel_device_types,
              std::set<std::uint32_t>{device_type_named(in_place.execution_space)});
  }
  EXPECT_EQ(caller.couplings.use_count(), use_count_before);
  env::unset_env(hamon::kDeviceEnv);

  EXPECT_EQ(in_place.decision.reason, DecisionReason::data_resident);
  EXPECT_TRUE(contains_all(in_place.decision.describe(), "data resident", "score=700"));
  ASSERT_TRUE(in_place.decision.host_tier.has_value());
#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
  // Host memory: the host tier picks among the spaces that can reach it (700 < 16384).
  EXPECT_EQ(in_place.decision.placement, Placement::serial);
  EXPECT_EQ(in_place.execution_space, "Serial");
  const RoutedResult openmp = hamon::nrpt_in_place(caller, options, /*host_threshold=*/700.0);
  EXPECT_EQ(openmp.decision.placement, Placement::openmp);
  EXPECT_EQ(openmp.execution_space, "OpenMP");
  expect_bit_identical(openmp.result, in_place.result, "in place: openmp vs serial");
#endif

  // The same numbers as routing the SpinModel (which does copy: the control for the
  // recorder above).
  const ScopedAcceleratorOverride no_accelerator(kCompiledOut);
  const KokkosRecorder recorder;
  const RoutedResult routed = hamon::routed_nrpt(model, options, DeviceSpec::cpu());
  bool copied = false;
  for (const std::string& label : recorder.get().allocations)
    copied = copied || is_model_label(label);
  EXPECT_TRUE(copied) << "the recorder did not see the SpinModel route copy the model";
  expect_bit_identical(in_place.result, routed.result, "in place vs SpinModel route");
}

TEST_F(DispatchTest, nrpt_in_place_reads_the_callers_memory) {
  // Views made for a ferromagnet, then overwritten by the caller with antiferromagnetic
  // couplings: the in-place run must sample the antiferromagnet, i.e. read the caller's
  // buffers rather than anything derived from them earlier.
  const SpinModel ferro = hamon::make_lattice({8, 8}, true);
  const SpinModel antiferro =
      hamon::make_lattice({8, 8}, true, hamon::ValueDistribution::constant(-1.0));
  const auto caller = hamon::make_device_model(Kokkos::DefaultHostExecutionSpace(), ferro);
  ASSERT_EQ(caller.energy_fraction_bits,
            hamon::make_device_model(Kokkos::DefaultHostExecutionSpace(), antiferro)
                .energy_fraction_bits);
  NrptOptions options;
  options.n_chains = 4;
  options.beta_max = 1.0;
  options.n_rounds = 60;
  options.seed = 11;
  options.observers.samples_every = 1;
  options.observers.energies = true;

  const RoutedResult before = hamon::nrpt_in_place(caller, options);
  expect_bit_identical(before.result, hamon::routed_nrpt(ferro, options, DeviceSpec::cpu()).result,
                       "ferromagnet");
  Kokkos::deep_copy(caller.couplings, -1.0);
  const RoutedResult after = hamon::nrpt_in_place(caller, options);
  expect_bit_identical(after.result,
                       hamon::routed_nrpt(antiferro, options, DeviceSpec::cpu()).result,
                       "antiferromagnet");
  EXPECT_FALSE(same_bits(after.result.final_energies, before.result.final_energies, "energies"));
}

#ifdef KOKKOS_ENABLE_CUDA
template <class To, class T, class... P>
Kokkos::View<T*, To> copy_to(const Kokkos::View<T*, P...>& src) {
  Kokkos::View<T*, To> dst(src.label(), src.extent(0));
  Kokkos::deep_copy(dst, src);
  return dst;
}

TEST_F(DispatchTest, nrpt_in_place_runs_device_views_on_the_device) {
  if (!hamon::probe_accelerator().visible()) GTEST_SKIP() << "no CUDA device visible";
  const SpinModel model = glass(10);
  const NrptOptions options = hamon_test::observed_run(7);
  const NrptResult host = hamon::routed_nrpt(model, options, DeviceSpec::cpu()).result;
  const auto caller = hamon::make_device_model(Kokkos::Cuda(), model);
  {
    const KokkosRecorder recorder;
    const RoutedResult r = hamon::nrpt_in_place(caller, options);
    for (const std::string& label : recorder.get().allocations) {
      EXPECT_FALSE(is_model_label(label)) << "the model was copied: " << label;
    }
    EXPECT_EQ(r.decision.placement, Placement::cuda);
    EXPECT_EQ(r.decision.reason, DecisionReason::data_resident);
    EXPECT_EQ(r.execution_space, "Cuda");
    expect_bit_identical(r.result, host, "device in place vs host");
  }
  // UVM memory is reachable from Cuda without being its memory space: aliased, not copied.
  hamon::DeviceModel<Kokkos::CudaUVMSpace> uvm;
  uvm.row_offsets = copy_to<Kokkos::CudaUVMSpace>(caller.row_offsets);
  uvm.columns = copy_to<Kokkos::CudaUVMSpace>(caller.columns);
  uvm.couplings = copy_to<Kokkos::CudaUVMSpace>(caller.couplings);
  uvm.fields = copy_to<Kokkos::CudaUVMSpace>(caller.fields);
  uvm.clamped = copy_to<Kokkos::CudaUVMSpace>(caller.clamped);
  uvm.block_nodes = copy_to<Kokkos::CudaUVMSpace>(caller.block_nodes);
  uvm.edge_i = copy_to<Kokkos::CudaUVMSpace>(caller.edge_i);
  uvm.edge_j = copy_to<Kokkos::CudaUVMSpace>(caller.edge_j);
  uvm.block_offsets = caller.block_offsets;
  uvm.n_nodes = caller.n_nodes;
  uvm.n_free = caller.n_free;
  uvm.energy_fraction_bits = caller.energy_fraction_bits;
  Kokkos::fence();
  const KokkosRecorder recorder;
  const RoutedResult u = hamon::nrpt_in_place(uvm, options);
  for (const std::string& label : recorder.get().allocations) {
    EXPECT_FALSE(is_model_label(label)) << "the model was copied: " << label;
  }
  EXPECT_EQ(u.decision.reason, DecisionReason::data_resident);
  EXPECT_EQ(u.execution_space, "Cuda");
  expect_bit_identical(u.result, host, "UVM in place vs host");
}
#endif

}  // namespace
