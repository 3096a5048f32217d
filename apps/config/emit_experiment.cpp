// SPDX-License-Identifier: Apache-2.0
#include "config/emit_experiment.hpp"

#include <filesystem>

#include "config/yaml_values.hpp"

namespace hamon::cli {

namespace {

std::string absolute(const std::string& path) {
  std::error_code ec;
  const auto p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

void emit_distribution(YAML::Emitter& out, const ValueDistribution& d) {
  out << YAML::Flow << YAML::BeginMap;
  switch (d.kind) {
    case ValueDistribution::Kind::constant:
      out << YAML::Key << "distribution" << YAML::Value << "constant";
      emit_float_entry(out, "value", d.value);
      break;
    case ValueDistribution::Kind::pm_one:
      out << YAML::Key << "distribution" << YAML::Value << "pm_one";
      emit_float_entry(out, "value", d.value);
      out << YAML::Key << "seed" << YAML::Value << d.seed;
      break;
    case ValueDistribution::Kind::gaussian:
      out << YAML::Key << "distribution" << YAML::Value << "gaussian";
      emit_float_entry(out, "std", d.value);
      emit_float_entry(out, "mean", d.mean);
      out << YAML::Key << "seed" << YAML::Value << d.seed;
      break;
  }
  out << YAML::EndMap;
}

void emit_values(YAML::Emitter& out, const char* key, const ValuesSpec& values) {
  switch (values.form) {
    case ValuesSpec::Form::absent:
      return;
    case ValuesSpec::Form::scalar:
      emit_float_entry(out, key, values.scalar);
      return;
    case ValuesSpec::Form::list:
      out << YAML::Key << key << YAML::Value;
      emit_float_list(out, values.list);
      return;
    case ValuesSpec::Form::file:
      out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "file"
          << YAML::Value << absolute(values.file) << YAML::EndMap;
      return;
  }
}

void emit_edges(YAML::Emitter& out, const std::vector<Edge>& edges) {
  out << YAML::Key << "edges" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const Edge& e : edges) {
    out << YAML::Flow << YAML::BeginSeq << e.i << e.j;
    emit_float(out, e.coupling);
    out << YAML::EndSeq;
  }
  out << YAML::EndSeq;
}

void emit_model(YAML::Emitter& out, const LatticeSpec& spec) {
  out << YAML::Key << "kind" << YAML::Value << "lattice";
  if (spec.potts > 0) out << YAML::Key << "potts" << YAML::Value << spec.potts;
  out << YAML::Key << "shape" << YAML::Value << YAML::Flow << spec.shape;
  out << YAML::Key << "periodic" << YAML::Value << spec.periodic;
  if (!spec.file.empty()) {
    out << YAML::Key << "file" << YAML::Value << absolute(spec.file);
    return;
  }
  out << YAML::Key << "coupling" << YAML::Value;
  emit_distribution(out, spec.coupling);
  out << YAML::Key << "field" << YAML::Value;
  if (!spec.potts_field.empty()) {
    emit_float_list(out, spec.potts_field);
  } else {
    emit_distribution(out, spec.field);
  }
}

void emit_model(YAML::Emitter& out, const GraphSpec& spec) {
  out << YAML::Key << "kind" << YAML::Value << "graph";
  if (spec.potts > 0) out << YAML::Key << "potts" << YAML::Value << spec.potts;
  if (!spec.file.empty()) {
    out << YAML::Key << "file" << YAML::Value << absolute(spec.file);
    return;
  }
  out << YAML::Key << "nodes" << YAML::Value << spec.nodes;
  emit_edges(out, spec.edges);
  if (!spec.potts_field.empty()) {
    out << YAML::Key << "field" << YAML::Value;
    emit_float_list(out, spec.potts_field);
  } else if (spec.potts > 0 && spec.field.form == ValuesSpec::Form::list) {
    out << YAML::Key << "field" << YAML::Value;
    emit_float_rows(out, spec.field.list, spec.potts, true);  // one list of q per node
  } else {
    emit_values(out, "field", spec.field);
  }
  if (!spec.clamped.empty()) {
    out << YAML::Key << "clamped" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const Clamp& c : spec.clamped) out << YAML::Key << c.node << YAML::Value << c.value;
    out << YAML::EndMap;
  }
}

void emit_node_values(YAML::Emitter& out, const char* key, const NodeValuesSpec& spec) {
  if (spec.values.form != ValuesSpec::Form::absent) {
    emit_values(out, key, spec.values);
    return;
  }
  out << YAML::Key << key << YAML::Value;
  emit_distribution(out, spec.distribution);
}

void emit_model(YAML::Emitter& out, const ContinuousSpec& spec) {
  out << YAML::Key << "kind" << YAML::Value << to_string(spec.kind);
  if (!spec.shape.empty()) {
    out << YAML::Key << "shape" << YAML::Value << YAML::Flow << spec.shape;
    out << YAML::Key << "periodic" << YAML::Value << spec.periodic;
  }
  if (!spec.file.empty()) {
    out << YAML::Key << "file" << YAML::Value << absolute(spec.file);
    return;
  }
  if (!spec.shape.empty()) {
    out << YAML::Key << "coupling" << YAML::Value;
    emit_distribution(out, spec.coupling);
  } else {
    out << YAML::Key << "nodes" << YAML::Value << spec.nodes;
    emit_edges(out, spec.edges);
  }
  emit_node_values(out, spec.kind == ContinuousKind::gaussian ? "diag" : "barrier", spec.weight);
  emit_node_values(out, "field", spec.field);
}

void emit_model(YAML::Emitter& out, const ObjectiveSpec& spec) {
  // The terms are read again from the file, as a graph file is.
  out << YAML::Key << "kind" << YAML::Value << kind_name(spec.terms.format);
  out << YAML::Key << "file" << YAML::Value << absolute(spec.file);
}

void emit_model(YAML::Emitter& out, const RbmSpec& spec) {
  out << YAML::Key << "kind" << YAML::Value << "rbm";
  out << YAML::Key << "visible" << YAML::Value << spec.visible;
  out << YAML::Key << "hidden" << YAML::Value << spec.hidden;
  if (spec.random) {
    out << YAML::Key << "random" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "seed" << YAML::Value << spec.random->seed;
    emit_float_entry(out, "std", spec.random->std);
    emit_float_entry(out, "bias_std", spec.random->bias_std);
    out << YAML::EndMap;
  } else {
    emit_values(out, "weights", spec.weights);
    emit_values(out, "visible_bias", spec.visible_bias);
    emit_values(out, "hidden_bias", spec.hidden_bias);
  }
  if (!spec.clamped_visible.empty()) {
    out << YAML::Key << "clamped_visible" << YAML::Value << YAML::Flow << spec.clamped_visible;
  }
}

/// `tune: auto` is written as its three per-key forms (the same experiment).
void emit_nrpt(YAML::Emitter& out, const NrptSpec& spec) {
  const TuneSpec& tune = spec.tune;
  out << YAML::BeginMap;
  if (spec.goal != Goal::sampling) {
    out << YAML::Key << "goal" << YAML::Value << name_of(kGoalNames, spec.goal);
  }
  // Left out while beta_max: auto's estimate has not chosen it (the run's config.yaml holds
  // the number).
  if (!spec.chains_from_estimate) {
    out << YAML::Key << "chains" << YAML::Value;
    if (tune.chains) {
      out << "auto";
    } else {
      out << spec.chains;
    }
  }
  if (!spec.betas.empty()) {
    out << YAML::Key << "betas" << YAML::Value;
    emit_float_list(out, spec.betas);
  } else {
    emit_float_entry(out, "beta_min", spec.beta_min);
    out << YAML::Key << "beta_max" << YAML::Value;
    if (spec.beta_max_auto) {
      out << "auto";  // not estimated yet: the run's config.yaml holds the estimate
    } else {
      emit_float(out, spec.beta_max);
    }
    if (spec.gap_tol) {
      emit_float_entry(out, "gap_tol", *spec.gap_tol);
    }
    if (tune.betas) {
      out << YAML::Key << "betas" << YAML::Value << "auto";
    } else {
      out << YAML::Key << "spacing" << YAML::Value << name_of(kSpacingNames, spec.spacing);
    }
  }
  out << YAML::Key << "rounds" << YAML::Value << spec.rounds;
  out << YAML::Key << "burn_in" << YAML::Value << spec.burn_in;
  out << YAML::Key << "explore_sweeps" << YAML::Value;
  if (tune.explore_sweeps) {
    out << "auto";
  } else {
    out << spec.explore_sweeps;
  }
  out << YAML::Key << "adapt_schedule" << YAML::Value << spec.adapt_schedule;
  // Under a goal always: a resumed run must not choose again (an MPI job, say, may differ).
  if (spec.cluster_moves != ClusterMoves::none || spec.goal != Goal::sampling) {
    out << YAML::Key << "cluster_moves" << YAML::Value
        << name_of(kClusterMoveNames, spec.cluster_moves);
  }
  if (spec.reference != AnnealingReference::automatic) {
    out << YAML::Key << "reference" << YAML::Value << name_of(kReferenceNames, spec.reference);
  }
  if (tune.chains) {
    out << YAML::Key << "max_chains" << YAML::Value << tune.max_chains;
    emit_float_entry(out, "target_acceptance", tune.target_acceptance);
  }
  if (tune.any()) out << YAML::Key << "tune_rounds" << YAML::Value << tune.rounds;
  if (spec.until.enabled) {
    out << YAML::Key << "until" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "stable_round_trips" << YAML::Value << spec.until.stable_round_trips;
    if (spec.until.stable_ratio > 0.0)
      emit_float_entry(out, "stable_ratio", spec.until.stable_ratio);
    out << YAML::Key << "max_rounds" << YAML::Value << spec.until.max_rounds;
    out << YAML::EndMap;
  }
  if (!spec.chosen.empty()) {
    // Which values above the run chose, and why; read back as given, so a resumed run's
    // files say the same.
    out << YAML::Key << "chosen" << YAML::Value << YAML::BeginSeq;
    for (const Choice& c : spec.chosen) {
      out << YAML::BeginMap << YAML::Key << "key" << YAML::Value << c.key << YAML::Key << "value"
          << YAML::Value << YAML::DoubleQuoted << c.value << YAML::Key << "reason" << YAML::Value
          << YAML::DoubleQuoted << c.reason << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

void emit_output(YAML::Emitter& out, const OutputSpec& spec) {
  out << YAML::BeginMap;
  out << YAML::Key << "dir" << YAML::Value
      << (spec.recorded_dir.empty() ? spec.dir : spec.recorded_dir);
  out << YAML::Key << "samples" << YAML::Value;
  if (spec.samples_every == 0) {
    out << false;
  } else {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "every" << YAML::Value << spec.samples_every
        << YAML::Key << "nodes" << YAML::Value;
    if (spec.sample_nodes.empty()) {
      out << "all";
    } else {
      emit_int_list(out, spec.sample_nodes);
    }
    out << YAML::EndMap;
  }
  out << YAML::Key << "moments" << YAML::Value << spec.moments;
  // Only when asked for: the resolved config of a run without it reads as before.
  if (spec.magnetization) out << YAML::Key << "magnetization" << YAML::Value << true;
  out << YAML::Key << "energies" << YAML::Value << spec.energies;
  out << YAML::Key << "index_process" << YAML::Value << spec.index_process;
  out << YAML::Key << "checkpoint" << YAML::Value;
  if (!spec.checkpoint.enabled) {
    out << false;
  } else {
    out << YAML::Flow << YAML::BeginMap;
    if (spec.checkpoint.every > 0)
      out << YAML::Key << "every" << YAML::Value << spec.checkpoint.every;
    if (spec.checkpoint.seconds > 0.0) {
      emit_float_entry(out, "seconds", spec.checkpoint.seconds);
    }
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

}  // namespace

void emit_experiment(YAML::Emitter& out, const ExperimentConfig& config) {
  out << YAML::BeginMap;
  out << YAML::Key << "seed" << YAML::Value << config.seed;
  out << YAML::Key << "device" << YAML::Value << config.device;
  if (config.replicas != 1) out << YAML::Key << "replicas" << YAML::Value << config.replicas;
  if (!config.instance_files.empty()) {
    out << YAML::Key << "instances" << YAML::Value << YAML::BeginMap << YAML::Key << "files"
        << YAML::Value << YAML::BeginSeq;
    for (const std::string& file : config.instance_files) out << absolute(file);
    out << YAML::EndSeq << YAML::EndMap;
  } else if (config.instances != 1) {
    out << YAML::Key << "instances" << YAML::Value << config.instances;
  }
  out << YAML::Key << "model" << YAML::Value << YAML::BeginMap;
  if (!config.instance_files.empty()) {
    // The instances' files give the model; the section keeps what stands beside a file.
    out << YAML::Key << "kind" << YAML::Value << kind_of(config.model);
    const auto* graph = std::get_if<GraphSpec>(&config.model);
    if (graph != nullptr && graph->potts > 0)
      out << YAML::Key << "potts" << YAML::Value << graph->potts;
  } else {
    std::visit([&](const auto& spec) { emit_model(out, spec); }, config.model);
  }
  out << YAML::EndMap;
  out << YAML::Key << "nrpt" << YAML::Value;
  emit_nrpt(out, config.nrpt);
  out << YAML::Key << "output" << YAML::Value;
  emit_output(out, config.output);
  out << YAML::EndMap;
}

std::string resolved_config(const ExperimentConfig& config) {
  YAML::Emitter out;
  emit_experiment(out, config);
  return std::string(out.c_str()) + "\n";
}

}  // namespace hamon::cli
