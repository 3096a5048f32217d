// SPDX-License-Identifier: Apache-2.0
// The `nrpt` section: the ladder, rounds, exploration, adaptation, automatic tuning.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "config/parse_experiment.hpp"
#include "config/parse_sections.hpp"
#include "config/yaml_values.hpp"
#include "hamon/core/tuning/beta_max_estimate.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon::cli::detail {

namespace {

constexpr std::int64_t kMinTuneRounds = 10;
constexpr std::int64_t kMaxTuneRounds = 1000000;

std::vector<double> read_ladder(YamlReader& reader, const YAML::Node& node) {
  const std::string path = "nrpt.betas";
  const std::vector<double> betas = reader.numbers(node, path);
  if (betas.empty()) reader.fail(path, "the ladder is empty; give at least one beta");
  if (betas.size() > static_cast<std::size_t>(kMaxChains)) {
    reader.fail(path, "has " + std::to_string(betas.size()) + " betas; at most " +
                          std::to_string(kMaxChains) + " chains are supported");
  }
  for (std::size_t k = 0; k < betas.size(); ++k) {
    const std::string at = index_key(path, k);
    if (betas[k] < 0.0) reader.fail(at, "beta " + format_value(betas[k]) + " is negative");
    if (k > 0 && !(betas[k] > betas[k - 1])) {
      reader.fail(at, "the ladder must be strictly ascending, but betas[" + std::to_string(k) +
                          "] = " + format_value(betas[k]) + " does not exceed betas[" +
                          std::to_string(k - 1) + "] = " + format_value(betas[k - 1]));
    }
  }
  return betas;
}

/// `tune`: auto (true), or false / off (false). Anything else is an error.
bool read_tune(const YamlReader& reader, const YAML::Node& node) {
  const std::string path = "nrpt.tune";
  const std::string expected =
      "expected auto (tune chains, betas and explore_sweeps) or false (tune nothing)";
  if (reader.is_scalar_text(node, "auto")) return true;
  bool value = false;
  try {
    value = reader.boolean(node, path);
  } catch (const ConfigError&) {
    reader.fail(path, expected + ", got " +
                          (node.IsScalar()     ? "'" + printable(node.Scalar()) + "'"
                           : node.IsSequence() ? std::string("a list")
                           : node.IsMap()      ? std::string("a mapping")
                                               : std::string("nothing")));
  }
  if (value) reader.fail(path, expected + ", got true (write tune: auto)");
  return false;
}

/// `chosen`: what an earlier run chose and why, as its config.yaml records it; kept as
/// given (it changes nothing), so a resumed run reports the same reasons.
std::vector<Choice> read_chosen(YamlReader& reader, const YAML::Node& node) {
  std::vector<Choice> chosen;
  const std::vector<YAML::Node> items = reader.elements(node, "nrpt.chosen");
  for (std::size_t k = 0; k < items.size(); ++k) {
    const std::string path = index_key("nrpt.chosen", k);
    const auto keys = reader.entries(items[k], path, {"key", "value", "reason"});
    for (const char* key : {"key", "value", "reason"}) {
      if (keys.count(key) == 0) {
        reader.fail(path, std::string("missing required key '") + key + "'");
      }
    }
    chosen.push_back({reader.text(keys.at("key"), path + ".key"),
                      reader.text(keys.at("value"), path + ".value"),
                      reader.text(keys.at("reason"), path + ".reason")});
  }
  return chosen;
}

/// What goal: ground_state chooses at parse time for the keys the file leaves out (the
/// choices that need the model are flagged for resolve_beta_max and choose_cluster_moves).
/// beta_max and chains follow in the ladder's parse, rounds and until at the end.
void choose_for_goal(const std::map<std::string, YAML::Node>& keys, NrptSpec& spec) {
  const auto has = [&](const char* key) { return keys.count(key) != 0; };
  if (spec.betas.empty() && !has("beta_min")) {
    spec.beta_min_auto = true;
    if (!has("spacing") && !spec.tune.chains && !spec.tune.betas) {
      spec.spacing = NrptSpec::Spacing::geometric;
      spec.chosen.push_back({"nrpt.spacing", "geometric",
                             "goal: ground_state: betas in a constant ratio put as many chains "
                             "in each decade of beta, where a glass's cold end needs them"});
    }
  }
  if (!has("cluster_moves")) spec.cluster_moves_auto = true;
}

/// The tuning keys: `tune`, the per-key `auto`s and the tuning options; checks that they
/// are consistent with each other and with the fixed values given.
TuneSpec read_tuning(YamlReader& reader, const std::map<std::string, YAML::Node>& keys) {
  const auto has = [&](const char* key) { return keys.count(key) != 0; };
  const auto is_auto = [&](const char* key) {
    return has(key) && reader.is_scalar_text(keys.at(key), "auto");
  };
  TuneSpec tune;
  tune.chains = is_auto("chains");
  tune.betas = is_auto("betas");
  tune.explore_sweeps = is_auto("explore_sweeps");
  if (has("tune")) {
    const bool all = read_tune(reader, keys.at("tune"));
    const std::map<std::string, std::string> what = {
        {"chains", "the chain count"}, {"betas", "the ladder"}, {"explore_sweeps", "the sweeps"}};
    for (const auto& [key, tuned] : what) {
      if (!has(key.c_str())) continue;
      const bool key_auto = is_auto(key.c_str());
      if (all && !key_auto) {
        reader.fail("nrpt." + key, "tune: auto tunes " + tuned + "; drop " + key + " (or write " +
                                       key + ": auto)");
      }
      if (!all && key_auto) {
        reader.fail("nrpt." + key, key + ": auto asks for tuning but tune: false turns it off; " +
                                       "drop one of them");
      }
    }
    if (all) tune.chains = tune.betas = tune.explore_sweeps = true;
  }

  if (has("max_chains") || has("target_acceptance")) {
    const char* key = has("max_chains") ? "max_chains" : "target_acceptance";
    if (!tune.chains) {
      reader.fail(std::string("nrpt.") + key, std::string(key) +
                                                  " applies only when the chain count is tuned " +
                                                  "(chains: auto or tune: auto)");
    }
  }
  if (has("max_chains")) {
    tune.max_chains = static_cast<std::int32_t>(
        reader.integer(keys.at("max_chains"), "nrpt.max_chains", 2, kMaxChains));
  }
  if (has("target_acceptance")) {
    tune.target_acceptance =
        reader.number(keys.at("target_acceptance"), "nrpt.target_acceptance", 0.0, 1.0);
    if (!(tune.target_acceptance > 0.0 && tune.target_acceptance < 1.0)) {
      reader.fail("nrpt.target_acceptance",
                  format_value(tune.target_acceptance) + " is not strictly between 0 and 1");
    }
  }
  if (has("tune_rounds")) {
    if (!tune.any()) {
      reader.fail("nrpt.tune_rounds",
                  "tune_rounds applies only with tuning (tune: auto, or chains, betas or "
                  "explore_sweeps: auto)");
    }
    tune.rounds =
        reader.integer(keys.at("tune_rounds"), "nrpt.tune_rounds", kMinTuneRounds, kMaxTuneRounds);
  }
  return tune;
}

/// `beta_max`: a number, or auto (estimated from the model when it is built); `gap_tol`,
/// the estimate's relative tolerance.
void read_beta_max(YamlReader& reader, const std::map<std::string, YAML::Node>& keys,
                   NrptSpec& spec) {
  if (keys.count("beta_max") == 0) {
    // goal: ground_state: the coldest beta the model asks for.
    spec.beta_max_auto = true;
    spec.chosen.push_back({"nrpt.beta_max", "auto",
                           "goal: ground_state: beta_max: auto, the smallest beta at which "
                           "the model of the landscape predicts a thermal excess below "
                           "gap_tol |E| (search.beta_max_estimate)"});
  } else {
    spec.beta_max_auto = reader.is_scalar_text(keys.at("beta_max"), "auto");
  }
  if (!spec.beta_max_auto) {
    const YAML::Node& node = keys.at("beta_max");
    try {
      spec.beta_max = reader.number(node, "nrpt.beta_max", 0.0);
    } catch (const ConfigError& e) {
      // Not a number at all: auto is the other choice, so say so.
      const std::string what = e.what();
      const std::string not_a_number = "expected a number, got ";
      const auto at = what.find(not_a_number);
      if (at == std::string::npos) throw;
      reader.fail("nrpt.beta_max", "expected a number or auto (estimated from the model), got " +
                                       what.substr(at + not_a_number.size()));
    }
  }
  if (keys.count("gap_tol") != 0) {
    spec.gap_tol = reader.number(keys.at("gap_tol"), "nrpt.gap_tol", 0.0, 1.0);
    if (!(*spec.gap_tol > 0.0 && *spec.gap_tol < 1.0)) {
      reader.fail("nrpt.gap_tol", format_value(*spec.gap_tol) +
                                      " is not strictly between 0 and 1 (the predicted excess "
                                      "energy at beta_max, relative to |E|)");
    }
  } else if (spec.beta_max_auto) {
    spec.gap_tol = kDefaultGapTol;
  }
}

/// `until: {stable_round_trips: K, max_rounds: N}`, both required (N bounds a run whose best
/// keeps moving), and `stable_ratio: R` optional; N at least the chunk length `rounds` (1
/// when the chunk is not given).
UntilSpec read_until(YamlReader& reader, const YAML::Node& node, std::int64_t rounds) {
  const std::string path = "nrpt.until";
  const auto keys =
      reader.entries(node, path, {"stable_round_trips", "max_rounds", "stable_ratio"});
  for (const char* key : {"stable_round_trips", "max_rounds"}) {
    if (keys.count(key) == 0) {
      reader.fail(path, std::string("missing required key '") + key +
                            "' (until: {stable_round_trips: K, max_rounds: N})");
    }
  }
  UntilSpec until;
  until.enabled = true;
  until.stable_round_trips =
      reader.integer(keys.at("stable_round_trips"), path + ".stable_round_trips", 0);
  until.max_rounds = reader.integer(keys.at("max_rounds"), path + ".max_rounds", rounds,
                                    kMaxRoundsTotal, " (at least nrpt.rounds, the chunk length)");
  if (keys.count("stable_ratio") != 0) {
    until.stable_ratio =
        reader.number(keys.at("stable_ratio"), path + ".stable_ratio", 0.0, kMaxStableRatio);
  }
  if (until.stable_round_trips == 0 && until.stable_ratio <= 0.0) {
    reader.fail(path + ".stable_round_trips",
                "stable_round_trips: 0 with no stable_ratio would stop at the first chunk "
                "after any best; give stable_round_trips >= 1 or a stable_ratio > 0 beside it");
  }
  return until;
}

/// `rounds` left out beside `until`: the stop rule's chunk, kDefaultUntilChunk or max_rounds
/// when that is less. The chunk only says how often the rule is checked (and when the
/// summary of a stopped run is written), not what the chains do.
void choose_chunk(NrptSpec& spec, bool goal_until) {
  if (goal_until) {
    // The goal's rule compares the rounds since the best with the rounds to it: a chunk
    // short against the typical round of a find, so the stop comes soon after the rule holds.
    spec.rounds = std::min(kGoalUntilChunk, spec.until.max_rounds);
    spec.chosen.push_back({"nrpt.rounds", std::to_string(spec.rounds),
                           "goal: ground_state: until checks its stop rule after each chunk of "
                           "rounds, " +
                               std::to_string(kGoalUntilChunk) +
                               " so that the run ends soon after its best has held long enough"});
    return;
  }
  spec.rounds = std::min(kDefaultUntilChunk, spec.until.max_rounds);
  spec.chosen.push_back({"nrpt.rounds", std::to_string(spec.rounds),
                         "until checks its stop rule after each chunk of rounds; none given, so " +
                             std::to_string(kDefaultUntilChunk) + " (or max_rounds when less)"});
}

}  // namespace

NrptSpec parse_nrpt(YamlReader& reader, const YAML::Node& node) {
  const auto keys = reader.entries(
      node, "nrpt",
      {"chains", "beta_min", "beta_max", "spacing", "betas", "rounds", "burn_in", "explore_sweeps",
       "adapt_schedule", "cluster_moves", "reference", "tune", "max_chains", "target_acceptance",
       "tune_rounds", "gap_tol", "until", "goal", "chosen"},
      {{"autotune", "write tune: auto"},
       {"tune_chains", "write chains: auto"},
       {"tune_schedule", "write betas: auto"},
       {"tune_betas", "write betas: auto"},
       {"tune_exploration", "write explore_sweeps: auto"}});
  const auto has = [&](const char* key) { return keys.count(key) != 0; };
  NrptSpec spec;
  spec.tune = read_tuning(reader, keys);
  const TuneSpec& tune = spec.tune;
  if (has("chosen")) spec.chosen = read_chosen(reader, keys.at("chosen"));
  if (has("goal")) spec.goal = reader.choice(keys.at("goal"), "nrpt.goal", kGoalNames);
  const bool search = spec.goal == Goal::ground_state;
  const bool beta_max_auto =
      has("beta_max") ? reader.is_scalar_text(keys.at("beta_max"), "auto") : search;

  if (has("betas") && !tune.betas) {
    for (const char* other : {"beta_min", "beta_max", "spacing"}) {
      if (has(other)) {
        reader.fail(std::string("nrpt.") + other,
                    "give either betas (an explicit ladder) or beta_min/beta_max/spacing, "
                    "not both");
      }
    }
    spec.betas = read_ladder(reader, keys.at("betas"));
    spec.beta_min = spec.betas.front();
    spec.beta_max = spec.betas.back();
    if (tune.chains) {
      reader.fail("nrpt.chains",
                  "an explicit ladder (betas) fixes the chain count; for chains: auto give "
                  "beta_min/beta_max instead of betas");
    }
  }
  if (tune.chains) {
    spec.chains = 0;
  } else if (has("chains")) {
    spec.chains =
        static_cast<std::int32_t>(reader.integer(keys.at("chains"), "nrpt.chains", 1, kMaxChains));
    if (!spec.betas.empty() && static_cast<std::size_t>(spec.chains) != spec.betas.size()) {
      reader.fail("nrpt.chains", std::to_string(spec.chains) + " chains but betas has " +
                                     std::to_string(spec.betas.size()) +
                                     " entries; drop chains or make them agree");
    }
    if (tune.betas && spec.chains < 3) {
      reader.fail("nrpt.chains",
                  "betas: auto moves the betas between beta_min and beta_max, "
                  "so it needs chains >= 3 (got " +
                      std::to_string(spec.chains) + ")");
    }
  } else if (spec.betas.empty()) {
    // beta_max: auto's estimate predicts the ladder's barrier, and with it a chain count.
    if (!beta_max_auto && !search) {
      reader.fail("nrpt",
                  "missing required key 'chains' (or an explicit ladder 'betas', chains: auto, "
                  "or beta_max: auto, whose estimate gives the chain count)");
    }
    spec.chains_from_estimate = true;
  }
  if (!spec.betas.empty()) spec.chains = static_cast<std::int32_t>(spec.betas.size());

  if (search) choose_for_goal(keys, spec);
  if (spec.betas.empty()) {
    if (has("beta_min")) {
      spec.beta_min = reader.number(keys.at("beta_min"), "nrpt.beta_min", 0.0);
    }
    if (!has("beta_max") && !search) {
      reader.fail("nrpt", "missing required key 'beta_max' (the target beta)");
    }
    read_beta_max(reader, keys, spec);
    if (!spec.beta_max_auto && !spec.beta_min_auto && !(spec.beta_max > spec.beta_min)) {
      reader.fail("nrpt.beta_max", "beta_max (" + format_value(spec.beta_max) +
                                       ") must be above beta_min (" + format_value(spec.beta_min) +
                                       ")");
    }
    if (has("spacing")) {
      spec.spacing = reader.choice(keys.at("spacing"), "nrpt.spacing", kSpacingNames);
      if (spec.spacing == NrptSpec::Spacing::geometric && (tune.chains || tune.betas)) {
        reader.fail("nrpt.spacing",
                    "a tuned ladder (chains: auto or betas: auto) starts linear; geometric "
                    "spacing applies only to a ladder that is not tuned (drop spacing)");
      }
      if (spec.spacing == NrptSpec::Spacing::geometric && !spec.beta_min_auto &&
          !(spec.beta_min > 0.0)) {
        reader.fail("nrpt.spacing", "geometric spacing needs beta_min > 0 (got " +
                                        format_value(spec.beta_min) +
                                        "); use spacing: linear or a positive beta_min");
      }
    }
  }

  if (has("gap_tol") && !spec.betas.empty()) {
    reader.fail("nrpt.gap_tol",
                "gap_tol applies to an estimated beta_max (beta_max: auto), not to an explicit "
                "ladder (betas)");
  }
  if (!has("rounds") && !has("until") && !search) {
    reader.fail("nrpt",
                "missing required key 'rounds' (or until: {stable_round_trips: K, max_rounds: N}, "
                "which measures in chunks of " +
                    std::to_string(kDefaultUntilChunk) + " rounds unless rounds says otherwise)");
  }
  if (has("rounds")) {
    spec.rounds = reader.integer(keys.at("rounds"), "nrpt.rounds", 1, kMaxRoundsTotal);
  }
  if (has("burn_in")) {
    spec.burn_in = reader.integer(keys.at("burn_in"), "nrpt.burn_in", 0, kMaxRoundsTotal);
  }
  if (has("explore_sweeps") && !tune.explore_sweeps) {
    spec.explore_sweeps = static_cast<std::int32_t>(
        reader.integer(keys.at("explore_sweeps"), "nrpt.explore_sweeps", 1, kMaxExploreSweeps));
  }
  if (has("adapt_schedule")) {
    spec.adapt_schedule = reader.boolean(keys.at("adapt_schedule"), "nrpt.adapt_schedule");
    if (spec.adapt_schedule && tune.any()) {
      reader.fail("nrpt.adapt_schedule",
                  "adapt_schedule adapts an untuned ladder during burn-in; a tuned run is "
                  "tuned before it starts (betas: auto tunes the ladder), so drop "
                  "adapt_schedule");
    }
  }
  if (has("cluster_moves")) {
    spec.cluster_moves =
        reader.choice(keys.at("cluster_moves"), "nrpt.cluster_moves", kClusterMoveNames);
  }
  if (has("reference")) {
    spec.reference = reader.choice(keys.at("reference"), "nrpt.reference", kReferenceNames);
  }
  if (has("until") || search) {
    const std::int64_t least = has("rounds") ? spec.rounds : 1;
    if (has("until")) {
      spec.until = read_until(reader, keys.at("until"), least);
    } else {
      spec.until.enabled = true;
      spec.until.stable_round_trips = kGoalStableRoundTrips;
      spec.until.stable_ratio = kGoalStableRatio;
      spec.until.max_rounds = std::max(kGoalMaxRounds, least);
      spec.chosen.push_back(
          {"nrpt.until",
           "{stable_round_trips: " + std::to_string(spec.until.stable_round_trips) +
               ", stable_ratio: " + yaml_float(kGoalStableRatio) +
               ", max_rounds: " + std::to_string(spec.until.max_rounds) + "}",
           "goal: ground_state: stop once the best energy has held for " +
               yaml_float(kGoalStableRatio) +
               " times the rounds it took to find it (a search that found its best late "
               "keeps looking longer) and for " +
               std::to_string(kGoalStableRoundTrips) +
               " round trip of the ladder (a fresh state from the hot end has come down to "
               "the cold end since), or after max_rounds measured rounds"});
    }
    if (!has("rounds")) choose_chunk(spec, search && !has("until"));
  }
  return spec;
}

}  // namespace hamon::cli::detail
