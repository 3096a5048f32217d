// SPDX-License-Identifier: Apache-2.0
#include "run/build_model.hpp"

#include <new>
#include <stdexcept>
#include <type_traits>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/util/memory_limit.hpp"
#include "run/numbers_file.hpp"
#include "run/objective_model.hpp"

namespace hamon::cli {

namespace {

/// A list of `count` values (empty when absent: the builders read that as zeros).
std::vector<double> values_of(const ExperimentConfig& config, const ValuesSpec& spec,
                              const std::string& key, std::int64_t count, const std::string& what) {
  switch (spec.form) {
    case ValuesSpec::Form::absent:
      return {};
    case ValuesSpec::Form::scalar:
      return std::vector<double>(static_cast<std::size_t>(count), spec.scalar);
    case ValuesSpec::Form::list:
      return spec.list;
    case ValuesSpec::Form::file:
      break;
  }
  std::vector<double> values;
  try {
    values = read_numbers_file(spec.file);
  } catch (const std::runtime_error& e) {
    config.fail(key + ".file", e.what());
  }
  if (static_cast<std::int64_t>(values.size()) != count) {
    config.fail(key + ".file", spec.file + " holds " + std::to_string(values.size()) +
                                   " numbers, expected " + std::to_string(count) + " (" + what +
                                   ")");
  }
  return values;
}

/// The model of a graph file, its errors reported at model.file.
SpinModel graph_file_model(const ExperimentConfig& config, const std::string& file) {
  try {
    return read_graph_file(file);
  } catch (const ModelError& e) {
    config.fail("model.file", e.what());
  }
}

/// A lattice holding a graph file's numbers (LatticeSpec::file), its errors at model.file.
SpinModel lattice_from_file(const ExperimentConfig& config, const std::vector<int>& shape,
                            bool periodic, const std::string& file) {
  const SpinModel numbers = graph_file_model(config, file);
  try {
    return lattice_from_graph(shape, periodic, numbers);
  } catch (const ModelError& e) {
    config.fail("model.file", file + ": " + e.what());
  }
}

SpinModel build(const ExperimentConfig& config, const LatticeSpec& spec) {
  if (!spec.file.empty()) {
    SpinModel model = lattice_from_file(config, spec.shape, spec.periodic, spec.file);
    const int q = model.is_potts() ? model.n_states() : 0;
    if (model.is_continuous() || q != spec.potts) {
      config.fail("model.file", spec.file + " holds " +
                                    (model.is_continuous() ? std::string("a continuous model")
                                     : q > 0 ? "a " + std::to_string(q) + "-state Potts model"
                                             : std::string("+-1 spins")) +
                                    ", the lattice " +
                                    (spec.potts > 0 ? "potts: " + std::to_string(spec.potts)
                                                    : std::string("+-1 spins (no potts)")));
    }
    return model;
  }
  try {
    if (spec.potts > 0) {
      PottsFields fields;
      if (!spec.potts_field.empty()) {
        fields.uniform = spec.potts_field;
      } else if (spec.field.kind != ValueDistribution::Kind::constant || spec.field.value != 0.0) {
        fields.drawn = spec.field;
      }
      return make_potts_lattice(spec.shape, spec.periodic, spec.potts, spec.coupling, fields);
    }
    return make_lattice(spec.shape, spec.periodic, spec.coupling, spec.field);
  } catch (const ModelError& e) {
    config.fail("model", e.what());
  }
}

SpinModel build(const ExperimentConfig& config, const GraphSpec& spec) {
  if (!spec.file.empty()) {
    SpinModel model = graph_file_model(config, spec.file);
    // `potts: q` next to a file must agree with the file's own 'potts q' line.
    if (spec.potts > 0 && (!model.is_potts() || model.n_states() != spec.potts)) {
      config.fail("model.potts",
                  "potts: " + std::to_string(spec.potts) + " but " + spec.file +
                      (model.is_potts() ? " says 'potts " + std::to_string(model.n_states()) + "'"
                                        : " has no 'potts q' line (its nodes are +-1 spins)"));
    }
    return model;
  }
  if (spec.potts > 0) {
    const auto q = static_cast<std::int64_t>(spec.potts);
    std::vector<double> fields;
    if (!spec.potts_field.empty()) {
      fields.reserve(static_cast<std::size_t>(spec.nodes * q));
      for (std::int64_t i = 0; i < spec.nodes; ++i) {
        fields.insert(fields.end(), spec.potts_field.begin(), spec.potts_field.end());
      }
    } else {
      fields = values_of(config, spec.field, "model.field", spec.nodes * q,
                         "nodes x q, one list of q per node");
    }
    try {
      return SpinModel::potts(spec.nodes, spec.potts, spec.edges, fields, spec.clamped);
    } catch (const ModelError& e) {
      config.fail("model.edges", e.what());
    }
  }
  const std::vector<double> fields =
      values_of(config, spec.field, "model.field", spec.nodes, "one per node");
  try {
    return SpinModel::from_edges(spec.nodes, spec.edges, fields, spec.clamped);
  } catch (const ModelError& e) {
    config.fail("model.edges", e.what());
  }
}

SpinModel build(const ExperimentConfig& config, const RbmSpec& spec) {
  try {
    if (spec.random) {
      const auto& r = *spec.random;
      const ValueDistribution biases = r.bias_std > 0.0
                                           ? ValueDistribution::gaussian(r.seed, r.bias_std)
                                           : ValueDistribution::constant(0.0);
      return make_rbm(
          random_rbm(spec.visible, spec.hidden, ValueDistribution::gaussian(r.seed, r.std), biases),
          spec.clamped_visible);
    }
    RbmParameters rbm;
    rbm.n_visible = spec.visible;
    rbm.n_hidden = spec.hidden;
    rbm.weights = values_of(config, spec.weights, "model.weights", spec.visible * spec.hidden,
                            "visible x hidden");
    rbm.visible_bias = values_of(config, spec.visible_bias, "model.visible_bias", spec.visible,
                                 "one per visible node");
    rbm.hidden_bias = values_of(config, spec.hidden_bias, "model.hidden_bias", spec.hidden,
                                "one per hidden node");
    return make_rbm(rbm, spec.clamped_visible);
  } catch (const ModelError& e) {
    config.fail("model", e.what());
  }
}

/// A continuous model's per-node values: a number, a list or file of one per node, or a
/// distribution drawn node by node.
std::vector<double> node_values(const ExperimentConfig& config, const NodeValuesSpec& spec,
                                const std::string& key, std::int64_t count, NodeValueKind kind) {
  if (spec.values.form != ValuesSpec::Form::absent) {
    return values_of(config, spec.values, key, count, "one per node");
  }
  try {
    return draw_node_values(spec.distribution, kind, count);
  } catch (const ModelError& e) {
    config.fail(key, e.what());
  }
}

SpinModel build(const ExperimentConfig& config, const ContinuousSpec& spec) {
  const std::string weight_key =
      spec.kind == ContinuousKind::gaussian ? "model.diag" : "model.barrier";
  if (!spec.file.empty()) {
    SpinModel model = spec.shape.empty()
                          ? graph_file_model(config, spec.file)
                          : lattice_from_file(config, spec.shape, spec.periodic, spec.file);
    if (model.continuous_kind() != spec.kind) {
      config.fail("model.file",
                  "kind: " + std::string(to_string(spec.kind)) + " but " + spec.file + " is " +
                      (model.is_continuous()
                           ? std::string("a ") + to_string(model.continuous_kind()) + " model"
                           : std::string("a discrete model (no 'diag' or 'barrier' "
                                         "lines)")));
    }
    return model;
  }
  std::int64_t n_nodes = spec.nodes;
  if (!spec.shape.empty()) {
    n_nodes = 1;
    for (int extent : spec.shape) n_nodes *= extent;
  }
  const std::vector<double> weights =
      node_values(config, spec.weight, weight_key, n_nodes, NodeValueKind::weight);
  const std::vector<double> fields =
      node_values(config, spec.field, "model.field", n_nodes, NodeValueKind::field);
  try {
    if (!spec.shape.empty()) {
      return make_continuous_lattice(spec.kind, spec.shape, spec.periodic, spec.coupling, weights,
                                     fields);
    }
    return spec.kind == ContinuousKind::gaussian
               ? SpinModel::gaussian(spec.nodes, spec.edges, weights, fields)
               : SpinModel::double_well(spec.nodes, spec.edges, weights, fields);
  } catch (const ModelError& e) {
    config.fail("model", e.what());
  }
}

SpinModel build(const ExperimentConfig& config, const ObjectiveSpec& spec) {
  try {
    // As for a graph file's 'nodes N': refused before the n-node model is allocated (a QUBO
    // without 'variables N' takes n from its largest index).
    require_memory(64.0 * static_cast<double>(spec.terms.n),
                   "a model of " + std::to_string(spec.terms.n) + " variables",
                   "about 64 B per node", "use fewer variables");
    return objective_model(spec.terms);
  } catch (const std::invalid_argument& e) {
    config.fail("model.file", spec.file + ": " + e.what());
  }
}

}  // namespace

SpinModel build_model(const ExperimentConfig& config) {
  try {
    return std::visit([&](const auto& spec) { return build(config, spec); }, config.model);
  } catch (const std::bad_alloc&) {
    config.fail("model", "the model does not fit in memory");
  }
}

}  // namespace hamon::cli
