// SPDX-License-Identifier: Apache-2.0
// The tuning cache (hamon/policies/tuning_cache.hpp) and autotune's use of it: directory
// rules, exact round trip of an entry, a hit on repeat that skips tuning, a miss whenever a
// fingerprinted input changes, corrupt / truncated / mismatched entries ignored with a
// warning, atomic writes, and the cache switched off. HAMON_CACHE_DIR and the XDG variables
// point into a fresh temporary directory (PolicyEnvTest restores them afterwards).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/policies/autotune.hpp"
#include "hamon/policies/env.hpp"
#include "hamon/policies/tuning_cache.hpp"
#include "hamon/version.hpp"
#include "policy_env_fixture.hpp"

namespace {

namespace fs = std::filesystem;
namespace env = hamon::env;
using hamon::AutotuneOptions;
using hamon::SpinModel;
using hamon::TunedPlanRecord;
using hamon::TuningCache;

// A cheap flow: a 4x4 lattice, short runs, deterministic exploration cost.
AutotuneOptions quick_options() {
  AutotuneOptions o;
  o.beta_max = 0.5;
  o.chains.max_chains = 8;
  o.chains.max_iterations = 2;
  o.chains.schedule_phases = 1;
  o.schedule.n_tune = 2;
  o.schedule.rounds_per_tune = 100;
  o.schedule.max_rounds_per_tune = 100;
  o.schedule.burn_in = 20;
  o.exploration.candidates = {1, 2};
  o.exploration.rounds = 100;
  o.exploration.burn_in = 20;
  o.exploration.cost = hamon::ExplorationCost::sweeps;
  o.seed = 3;
  return o;
}

const SpinModel& small_model() {
  static const SpinModel model = hamon::make_lattice({4, 4}, true);
  return model;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_raw(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) out.push_back(entry.path());
  return out;
}

class TuningCacheTest : public hamon::test::PolicyEnvTest {
 protected:
  fs::path cache_dir() const { return dir() / "tuning-cache"; }
  void SetUp() override {
    PolicyEnvTest::SetUp();
    env::set_env(hamon::kTuningCacheDirEnv, cache_dir().string());
  }
  hamon::Plan tune(const AutotuneOptions& o, const SpinModel& model = small_model()) {
    return hamon::autotune(model, o, hamon::DeviceSpec::backend(hamon::Placement::serial));
  }
  std::string key_of(const AutotuneOptions& o, const SpinModel& model = small_model()) {
    return hamon::autotune_cache_key(model, o, "Serial");
  }
};

TEST_F(TuningCacheTest, directory_rules) {
  EXPECT_EQ(hamon::tuning_cache_directory(), cache_dir());
  env::set_env(hamon::kTuningCacheDirEnv, "");
  EXPECT_FALSE(hamon::tuning_cache_directory().has_value());  // empty: off
  env::unset_env(hamon::kTuningCacheDirEnv);
  EXPECT_EQ(hamon::tuning_cache_directory(), dir() / "cache" / "hamon" / "tuning");  // XDG
  env::unset_env("XDG_CACHE_HOME");
  env::set_env("HOME", (dir() / "home").string());
  EXPECT_EQ(hamon::tuning_cache_directory(), dir() / "home" / ".cache" / "hamon" / "tuning");
  env::set_env("XDG_CACHE_HOME", "");  // empty counts as unset
  EXPECT_EQ(hamon::tuning_cache_directory(), dir() / "home" / ".cache" / "hamon" / "tuning");
}

TEST_F(TuningCacheTest, an_entry_round_trips_exactly) {
  TuningCache cache(cache_dir());
  TunedPlanRecord record;
  record.betas = {0.0, 0.1, 1.0 / 3.0, std::nextafter(0.5, 1.0), 0.7};
  record.n_chains = 5;
  record.n_expl = 4;
  record.Lambda = 2.0 / 7.0;
  record.barrier_identified = true;
  record.conveyor_alive = std::nullopt;
  record.tuning_seconds = 12.25;
  const std::string key = "line one\nline two = 0x1p-3";
  ASSERT_TRUE(cache.store(key, record));
  const auto loaded = cache.load(key);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->betas, record.betas);  // bit for bit
  EXPECT_EQ(loaded->n_chains, 5);
  EXPECT_EQ(loaded->n_expl, 4);
  EXPECT_EQ(loaded->Lambda, record.Lambda);
  EXPECT_EQ(loaded->barrier_identified, std::optional<bool>(true));
  EXPECT_FALSE(loaded->conveyor_alive.has_value());
  EXPECT_EQ(loaded->tuning_seconds, 12.25);
  // The file: a header, the key echoed, a checksum last; nothing else left in the directory.
  const std::string text = read_text(cache.entry_path(key));
  EXPECT_EQ(text.rfind("hamon-tuning-plan 1\n", 0), 0u);
  EXPECT_NE(text.find("key line one\nkey line two = 0x1p-3\n"), std::string::npos);
  EXPECT_EQ(files_in(cache_dir()), std::vector<fs::path>{cache.entry_path(key)});
  EXPECT_FALSE(cache.load("another key").has_value());  // a plain miss, silently
}

TEST_F(TuningCacheTest, a_repeat_run_hits_and_skips_tuning) {
  const AutotuneOptions o = quick_options();
  const hamon::Plan first = tune(o);
  EXPECT_FALSE(first.cache_hit);
  EXPECT_TRUE(first.details.chains.has_value());
  ASSERT_FALSE(first.cache_entry.empty());
  EXPECT_TRUE(fs::exists(first.cache_entry));
  EXPECT_EQ(fs::path(first.cache_entry).parent_path(), cache_dir());

  const hamon::Plan second = tune(o);
  EXPECT_TRUE(second.cache_hit);
  EXPECT_FALSE(second.details.chains.has_value());  // nothing ran
  EXPECT_FALSE(second.details.exploration.has_value());
  EXPECT_FALSE(second.details.schedule.has_value());
  EXPECT_EQ(second.betas, first.betas);
  EXPECT_EQ(second.n_chains, first.n_chains);
  EXPECT_EQ(second.n_expl, first.n_expl);
  EXPECT_EQ(second.tuning.Lambda, first.tuning.Lambda);
  EXPECT_EQ(second.tuning.barrier_identified, first.tuning.barrier_identified);
  EXPECT_EQ(second.tuning.tuned_seconds, first.tuning.tuned_seconds);
  EXPECT_EQ(second.decision.placement, hamon::Placement::serial);
  // A different seed is not a different tuning problem: still a hit.
  AutotuneOptions reseeded = o;
  reseeded.seed = 77;
  EXPECT_TRUE(tune(reseeded).cache_hit);
  // And the cached plan samples like the tuned one started cold: the tuned plan carries
  // the warm start its tuning left, the cached one cannot.
  EXPECT_TRUE(first.warm_start);
  EXPECT_FALSE(second.warm_start);
  hamon::Plan cold = first;
  cold.warm_start.reset();
  hamon::NrptOptions record_energies;
  record_energies.observers.energies = true;
  const auto from_cache = second.sample(50, record_energies);
  EXPECT_EQ(from_cache.energies.size(), 50u * static_cast<std::size_t>(second.n_chains));
  EXPECT_EQ(from_cache.energies, cold.sample(50, record_energies).energies);
  EXPECT_NE(from_cache.energies, first.sample(50, record_energies).energies);
}

TEST_F(TuningCacheTest, any_fingerprinted_input_changes_the_key) {
  const AutotuneOptions base = quick_options();
  const std::string key = key_of(base);
  EXPECT_NE(key.find(std::string("hamon_version ") + hamon::version), std::string::npos);
  EXPECT_NE(key.find("execution_space Serial"), std::string::npos);
  EXPECT_NE(hamon::autotune_cache_key(small_model(), base, "OpenMP"), key);

  // The model: a coupling, a field, a clamp, the graph.
  auto edges = small_model().edges();
  const auto n = small_model().n_nodes();
  EXPECT_EQ(key_of(base, SpinModel::from_edges(n, edges)), key);  // same model, rebuilt
  auto changed = edges;
  changed[3].coupling = std::nextafter(changed[3].coupling, 2.0);  // one ulp
  EXPECT_NE(key_of(base, SpinModel::from_edges(n, changed)), key);
  std::vector<double> fields(static_cast<std::size_t>(n), 0.0);
  fields[5] = 0.25;
  EXPECT_NE(key_of(base, SpinModel::from_edges(n, edges, fields)), key);
  EXPECT_NE(key_of(base, SpinModel::from_edges(n, edges, {}, {{2, 1}})), key);
  EXPECT_NE(key_of(base, SpinModel::from_edges(n, edges, {}, {{2, -1}})),
            key_of(base, SpinModel::from_edges(n, edges, {}, {{2, 1}})));
  changed = edges;
  changed.pop_back();
  EXPECT_NE(key_of(base, SpinModel::from_edges(n, changed)), key);
  // A continuous model on the same graph (weights above the 4 unit couplings of a node, so
  // the Gaussian is positive definite): its kind and each weight are in the key.
  const std::vector<double> weights(static_cast<std::size_t>(n), 5.0);
  const std::string gaussian = key_of(base, SpinModel::gaussian(n, edges, weights));
  EXPECT_NE(gaussian, key);
  EXPECT_NE(key_of(base, SpinModel::double_well(n, edges, weights)), gaussian);
  auto other = weights;
  other[7] = 5.25;
  EXPECT_NE(key_of(base, SpinModel::gaussian(n, edges, other)), gaussian);
  EXPECT_NE(key_of(base, SpinModel::double_well(n, edges, other)),
            key_of(base, SpinModel::double_well(n, edges, weights)));

  // The beta range, the targets and every tuning parameter.
  std::vector<AutotuneOptions> variants(15, base);
  variants[0].beta_max = 0.55;
  variants[1].beta_min = 0.05;
  variants[2].chains.target_acceptance = 0.6;
  variants[3].chains.max_chains = 9;
  variants[4].schedule.rounds_per_tune = 120;
  variants[5].schedule.lambda_rtol = 0.1;
  variants[6].exploration.candidates = {1, 2, 4};
  variants[7].exploration.cost = hamon::ExplorationCost::wall_seconds;
  variants[8].tune_exploration = false;
  variants[9].n_expl = 2;
  variants[10].tune_chains = false;
  variants[11].chains.initial_chains = 6;
  variants[12].reference = hamon::AnnealingReference::none;
  variants[13].n_replicas = 2;  // replicas and moves: tuned on the production path
  variants[14].n_replicas = 2;
  variants[14].cluster_moves = hamon::ClusterMoves::houdayer;
  EXPECT_NE(key_of(variants[13]), key_of(variants[14]));
  // The single ladder's key is the one written before replicas could be tuned.
  EXPECT_EQ(key.find("replicas"), std::string::npos);
  for (std::size_t k = 0; k < variants.size(); ++k) {
    EXPECT_NE(key_of(variants[k]), key) << "variant " << k;
    EXPECT_NE(TuningCache::fingerprint(key_of(variants[k])), TuningCache::fingerprint(key))
        << "variant " << k;
  }
  // The seed and use_cache are not part of the problem.
  AutotuneOptions reseeded = base;
  reseeded.seed = 1234;
  EXPECT_EQ(key_of(reseeded), key);
}

TEST_F(TuningCacheTest, a_changed_input_misses_end_to_end) {
  const AutotuneOptions o = quick_options();
  EXPECT_FALSE(tune(o).cache_hit);
  AutotuneOptions hotter = o;
  hotter.beta_max = 0.45;
  const hamon::Plan other = tune(hotter);
  EXPECT_FALSE(other.cache_hit);
  EXPECT_EQ(other.betas.back(), 0.45);
  auto fields = std::vector<double>(16, 0.0);
  fields[0] = 0.5;
  EXPECT_FALSE(tune(o, SpinModel::from_edges(16, small_model().edges(), fields)).cache_hit);
  EXPECT_EQ(files_in(cache_dir()).size(), 3u);
  EXPECT_TRUE(tune(o).cache_hit);
  EXPECT_TRUE(tune(hotter).cache_hit);
}

TEST_F(TuningCacheTest, corrupt_truncated_or_foreign_entries_are_ignored_with_a_warning) {
  const AutotuneOptions o = quick_options();
  const hamon::Plan tuned = tune(o);
  const fs::path entry = tuned.cache_entry;
  const std::string good = read_text(entry);
  TuningCache cache(cache_dir());
  const std::string key = key_of(o);

  auto expect_ignored = [&](const std::string& text, const std::string& reason) {
    SCOPED_TRACE(reason);
    write_raw(entry, text);
    testing::internal::CaptureStderr();
    const auto loaded = cache.load(key);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_FALSE(loaded.has_value());
    EXPECT_TRUE(hamon::test::contains_all(err, "warning", "ignoring tuning cache entry",
                                          entry.string(), reason));
  };
  // One flipped digit in the betas.
  std::string flipped = good;
  const auto at = flipped.find("betas 0x0p+0 0x1.");
  ASSERT_NE(at, std::string::npos);
  flipped[at + 17] = flipped[at + 17] == '8' ? '9' : '8';
  expect_ignored(flipped, "checksum");
  expect_ignored(good.substr(0, good.size() / 2), "");           // truncated
  expect_ignored(good.substr(0, good.size() - 1), "truncated");  // no final newline
  expect_ignored("", "truncated");
  expect_ignored("garbage\n", "checksum");
  // A valid entry of another key copied over this one: the echoed key differs.
  AutotuneOptions other = o;
  other.beta_max = 0.4;
  TunedPlanRecord record;
  record.n_chains = 3;
  record.betas = {0.0, 0.2, 0.4};
  expect_ignored(TuningCache::serialize(key_of(other), record), "fingerprint");
  // Self-consistent but invalid: a descending ladder.
  record.betas = {0.0, 0.3, 0.2};
  expect_ignored(TuningCache::serialize(key, record), "invalid ladder");

  // autotune then re-tunes, says so, and rewrites a good entry.
  write_raw(entry, flipped);
  testing::internal::CaptureStderr();
  const hamon::Plan retuned = tune(o);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("ignoring tuning cache entry"),
            std::string::npos);
  EXPECT_FALSE(retuned.cache_hit);
  EXPECT_EQ(retuned.betas, tuned.betas);  // same seed, same tuning
  EXPECT_TRUE(tune(o).cache_hit);
  EXPECT_EQ(files_in(cache_dir()).size(), 1u);  // no temporary files left behind
}

TEST_F(TuningCacheTest, entries_whose_plan_contradicts_the_options_are_not_used) {
  const AutotuneOptions o = quick_options();
  TunedPlanRecord record;
  record.n_chains = 3;
  record.betas = {0.0, 0.2, 0.45};  // a valid entry under this key, but the wrong beta_max
  TuningCache(cache_dir()).store(key_of(o), record);
  testing::internal::CaptureStderr();
  const hamon::Plan plan = tune(o);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("endpoints"), std::string::npos);
  EXPECT_FALSE(plan.cache_hit);
  EXPECT_EQ(plan.betas.back(), 0.5);
}

TEST_F(TuningCacheTest, off_when_the_variable_is_empty_or_use_cache_is_false) {
  env::set_env(hamon::kTuningCacheDirEnv, "");
  const hamon::Plan a = tune(quick_options());
  EXPECT_TRUE(a.cache_entry.empty());
  EXPECT_FALSE(tune(quick_options()).cache_hit);
  env::set_env(hamon::kTuningCacheDirEnv, cache_dir().string());
  AutotuneOptions no_cache = quick_options();
  no_cache.use_cache = false;
  EXPECT_FALSE(tune(no_cache).cache_hit);
  EXPECT_TRUE(files_in(cache_dir()).empty());
  EXPECT_TRUE(files_in(dir() / "cache").empty());  // the XDG default was not touched either
}

TEST_F(TuningCacheTest, an_unwritable_directory_warns_and_tuning_still_succeeds) {
  const fs::path blocker = dir() / "a-file";
  write_raw(blocker, "not a directory");
  env::set_env(hamon::kTuningCacheDirEnv, (blocker / "sub").string());
  testing::internal::CaptureStderr();
  const hamon::Plan plan = tune(quick_options());
  EXPECT_NE(testing::internal::GetCapturedStderr().find("cannot write tuning cache entry"),
            std::string::npos);
  EXPECT_FALSE(plan.cache_hit);
  EXPECT_GE(plan.n_chains, 2);
}

}  // namespace
