// The `nrpt` section: the ladder, rounds, exploration, adaptation.
#include <cstdint>
#include <limits>
#include <string>

#include "config/parse_experiment.hpp"
#include "config/parse_sections.hpp"

namespace hamon::cli::detail {

namespace {

constexpr std::int64_t kMaxRoundsTotal = std::numeric_limits<std::uint32_t>::max();

const std::string kNotYetTuning =
    "automatic tuning comes with a later version; give chains (or betas) and "
    "adapt_schedule: true";

std::string format_number(double value) {
  std::string text = std::to_string(value);
  while (text.size() > 1 && text.back() == '0' && text[text.size() - 2] != '.') text.pop_back();
  return text;
}

void reject_auto(const YamlReader& reader, const YAML::Node& node, const std::string& path,
                 const std::string& what) {
  if (reader.is_scalar_text(node, "auto")) {
    reader.fail(path, "'auto' is not supported yet (" + what + " comes with a later version); " +
                          "give a value");
  }
}

std::vector<double> read_ladder(YamlReader& reader, const YAML::Node& node) {
  const std::string path = "nrpt.betas";
  reject_auto(reader, node, path, "automatic ladder tuning");
  const std::vector<double> betas = reader.numbers(node, path);
  if (betas.empty()) reader.fail(path, "the ladder is empty; give at least one beta");
  if (betas.size() > static_cast<std::size_t>(kMaxChains)) {
    reader.fail(path, "has " + std::to_string(betas.size()) + " betas; at most " +
                          std::to_string(kMaxChains) + " chains are supported");
  }
  for (std::size_t k = 0; k < betas.size(); ++k) {
    const std::string at = path + "[" + std::to_string(k) + "]";
    if (betas[k] < 0.0) reader.fail(at, "beta " + format_number(betas[k]) + " is negative");
    if (k > 0 && !(betas[k] > betas[k - 1])) {
      reader.fail(at, "the ladder must be strictly ascending, but betas[" + std::to_string(k) +
                          "] = " + format_number(betas[k]) + " does not exceed betas[" +
                          std::to_string(k - 1) + "] = " + format_number(betas[k - 1]));
    }
  }
  return betas;
}

}  // namespace

NrptSpec parse_nrpt(YamlReader& reader, const YAML::Node& node) {
  const auto keys = reader.entries(node, "nrpt",
                                   {"chains", "beta_min", "beta_max", "spacing", "betas", "rounds",
                                    "burn_in", "explore_sweeps", "adapt_schedule"},
                                   {{"tune", kNotYetTuning},
                                    {"autotune", kNotYetTuning},
                                    {"tune_schedule", kNotYetTuning},
                                    {"tune_chains", kNotYetTuning},
                                    {"tune_exploration", kNotYetTuning},
                                    {"target_acceptance", kNotYetTuning},
                                    {"max_chains", kNotYetTuning}});
  const auto has = [&](const char* key) { return keys.count(key) != 0; };
  NrptSpec spec;

  if (has("betas")) {
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
  }
  if (has("chains")) {
    reject_auto(reader, keys.at("chains"), "nrpt.chains", "automatic chain-count tuning");
    spec.chains =
        static_cast<std::int32_t>(reader.integer(keys.at("chains"), "nrpt.chains", 1, kMaxChains));
    if (!spec.betas.empty() && static_cast<std::size_t>(spec.chains) != spec.betas.size()) {
      reader.fail("nrpt.chains", std::to_string(spec.chains) + " chains but betas has " +
                                     std::to_string(spec.betas.size()) +
                                     " entries; drop chains or make them agree");
    }
  } else if (spec.betas.empty()) {
    reader.fail("nrpt", "missing required key 'chains' (or an explicit ladder 'betas')");
  }
  if (!spec.betas.empty()) spec.chains = static_cast<std::int32_t>(spec.betas.size());

  if (spec.betas.empty()) {
    if (has("beta_min")) {
      spec.beta_min = reader.number(keys.at("beta_min"), "nrpt.beta_min", 0.0);
    }
    if (!has("beta_max")) reader.fail("nrpt", "missing required key 'beta_max' (the target beta)");
    spec.beta_max = reader.number(keys.at("beta_max"), "nrpt.beta_max", 0.0);
    if (!(spec.beta_max > spec.beta_min)) {
      reader.fail("nrpt.beta_max", "beta_max (" + format_number(spec.beta_max) +
                                       ") must be above beta_min (" + format_number(spec.beta_min) +
                                       ")");
    }
    if (has("spacing")) {
      const std::string spacing =
          reader.choice(keys.at("spacing"), "nrpt.spacing", {"linear", "geometric"});
      spec.spacing =
          spacing == "geometric" ? NrptSpec::Spacing::geometric : NrptSpec::Spacing::linear;
      if (spec.spacing == NrptSpec::Spacing::geometric && !(spec.beta_min > 0.0)) {
        reader.fail("nrpt.spacing", "geometric spacing needs beta_min > 0 (got " +
                                        format_number(spec.beta_min) +
                                        "); use spacing: linear or a positive beta_min");
      }
    }
  }

  if (!has("rounds")) reader.fail("nrpt", "missing required key 'rounds'");
  spec.rounds = reader.integer(keys.at("rounds"), "nrpt.rounds", 1, kMaxRoundsTotal);
  if (has("burn_in")) {
    spec.burn_in = reader.integer(keys.at("burn_in"), "nrpt.burn_in", 0, kMaxRoundsTotal);
  }
  if (has("explore_sweeps")) {
    reject_auto(reader, keys.at("explore_sweeps"), "nrpt.explore_sweeps",
                "automatic exploration tuning");
    spec.explore_sweeps = static_cast<std::int32_t>(
        reader.integer(keys.at("explore_sweeps"), "nrpt.explore_sweeps", 1, kMaxExploreSweeps));
  }
  if (has("adapt_schedule")) {
    spec.adapt_schedule = reader.boolean(keys.at("adapt_schedule"), "nrpt.adapt_schedule");
  }
  return spec;
}

}  // namespace hamon::cli::detail
