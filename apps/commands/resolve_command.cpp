// SPDX-License-Identifier: Apache-2.0
// `hamon resolve`: the routing decision for a problem size, as YAML — the same record a
// run writes into its summary's `device` section.
#include <yaml-cpp/yaml.h>

#include <iostream>
#include <limits>
#include <memory>

#include "commands/commands.hpp"
#include "commands/option_values.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "hamon/policies/thresholds.hpp"
#include "run/decision_yaml.hpp"

namespace hamon::cli {

namespace {

struct ResolveState {
  std::string device = "auto";
  std::string chains;
  std::string nodes;
  std::string threshold;
  CLI::Option* threshold_option = nullptr;
};

int resolve(const ResolveState& s) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const std::int64_t chains = parse_integer_option("--chains", s.chains, 1, kMax);
  const std::int64_t nodes = parse_integer_option("--nodes", s.nodes, 0, kMax);
  std::optional<double> threshold;
  if (s.threshold_option->count() > 0) {
    threshold = parse_number_option("--threshold", s.threshold);
    if (*threshold < 0.0) throw UsageError("--threshold: must be >= 0, got " + s.threshold);
  }
  DeviceSpec spec;
  try {
    spec = parse_device_spec(s.device);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--device: ") + e.what());
  }
  std::int64_t score = 0;
  try {
    score = work_score(chains, nodes);
  } catch (const std::exception& e) {
    throw UsageError(std::string("--chains x --nodes: ") + e.what());
  }
  DeviceDecision decision;
  try {
    decision = resolve_device(spec, score, threshold);
  } catch (const DeviceUnavailable& e) {
    const bool from_env = device_forced_by_env(spec);
    throw UsageError((from_env ? std::string() : std::string("--device: ")) + e.what());
  }
  YAML::Emitter out;
  out << YAML::BeginMap;
  emit_decision_entries(out, decision);
  out << YAML::EndMap;
  std::cout << out.c_str() << "\n";
  return 0;
}

}  // namespace

Command add_resolve_command(CLI::App& app) {
  auto state = std::make_shared<ResolveState>();
  CLI::App* sub =
      app.add_subcommand("resolve", "Where a call of this size would run, and why (YAML)");
  sub->add_option("--device", state->device, device_option_help("the device to resolve"))
      ->type_name("SPEC");
  sub->add_option("--chains", state->chains, "number of chains")->required()->type_name("N");
  sub->add_option("--nodes", state->nodes, "number of free nodes")->required()->type_name("M");
  state->threshold_option =
      sub->add_option("--threshold", state->threshold,
                      "device threshold (overrides HAMON_DEVICE_THRESHOLD and the "
                      "calibration file)")
          ->type_name("T");
  sub->footer(
      "score = chains x nodes. With --device auto and an accelerator visible, score >=\n"
      "threshold picks it; the host tier picks Serial or OpenMP by the host threshold.\n"
      "HAMON_DEVICE, HAMON_DEVICE_THRESHOLD, HAMON_HOST_THRESHOLD and the calibration file\n"
      "apply as in a run. Exit status: 0, or 2 for bad input or an unavailable device.");
  return {sub, [state] { return resolve(*state); }};
}

}  // namespace hamon::cli
