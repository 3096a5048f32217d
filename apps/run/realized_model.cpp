// SPDX-License-Identifier: Apache-2.0
#include "run/realized_model.hpp"

#include <yaml-cpp/yaml.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/model/graph_file.hpp"
#include "output/atomic_file.hpp"
#include "output/npy.hpp"
#include "output/run_directory.hpp"
#include "output/run_files.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

/// An RBM's layers from its bipartite model (make_rbm: visible 0..V-1, hidden V..V+H-1).
void write_rbm(const fs::path& dir, const SpinModel& model, const RbmSpec& spec,
               YAML::Emitter& yaml) {
  const auto n_v = static_cast<std::size_t>(spec.visible);
  const auto n_h = static_cast<std::size_t>(spec.hidden);
  std::vector<double> weights(n_v * n_h, 0.0);
  for (const Edge& e : model.edges()) {
    weights[static_cast<std::size_t>(e.i) * n_h + static_cast<std::size_t>(e.j) - n_v] = e.coupling;
  }
  const std::vector<double>& fields = model.fields();
  const std::vector<double> visible(fields.begin(), fields.begin() + static_cast<long>(n_v));
  const std::vector<double> hidden(fields.begin() + static_cast<long>(n_v), fields.end());
  write_atomically(dir / kWeightsFile, [&](std::ostream& out) {
    write_npy(out, weights, {n_v, n_h});
  });
  write_atomically(dir / kVisibleBiasFile,
                   [&](std::ostream& out) { write_npy(out, visible, {n_v}); });
  write_atomically(dir / kHiddenBiasFile,
                   [&](std::ostream& out) { write_npy(out, hidden, {n_h}); });
  yaml << YAML::Key << "kind" << YAML::Value << "rbm";
  yaml << YAML::Key << "visible" << YAML::Value << spec.visible;
  yaml << YAML::Key << "hidden" << YAML::Value << spec.hidden;
  for (const char* key : {"weights", "visible_bias", "hidden_bias"}) {
    yaml << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "file"
         << YAML::Value << std::string(key) + ".npy" << YAML::EndMap;
  }
  if (model.n_free() < model.n_nodes()) {  // make_rbm clamps the whole visible layer
    std::vector<int> clamped(model.clamped().begin(),
                             model.clamped().begin() + static_cast<long>(n_v));
    yaml << YAML::Key << "clamped_visible" << YAML::Value << YAML::Flow << clamped;
  }
}

/// Any other model: model.graph, and a model section reading it as the run did.
void write_graph(const fs::path& dir, const SpinModel& model, YAML::Emitter& yaml) {
  write_atomically(dir / kModelGraphFile, [&](std::ostream& out) { write_graph_file(out, model); });
  const char* kind = model.is_continuous()   ? to_string(model.continuous_kind())
                     : model.lattice_shape() ? "lattice"
                                             : "graph";
  yaml << YAML::Key << "kind" << YAML::Value << kind;
  if (model.is_potts()) yaml << YAML::Key << "potts" << YAML::Value << model.n_states();
  if (const auto& shape = model.lattice_shape()) {
    yaml << YAML::Key << "shape" << YAML::Value << YAML::Flow << shape->extents;
    yaml << YAML::Key << "periodic" << YAML::Value << shape->periodic;
  }
  yaml << YAML::Key << "file" << YAML::Value << kModelGraphFile;
}

void write_files(const fs::path& dir, const SpinModel& model, const ModelSpec& spec) {
  YAML::Emitter yaml;
  yaml << YAML::BeginMap << YAML::Key << "model" << YAML::Value << YAML::BeginMap;
  if (const auto* rbm = std::get_if<RbmSpec>(&spec)) {
    write_rbm(dir, model, *rbm, yaml);
  } else {
    write_graph(dir, model, yaml);
  }
  yaml << YAML::EndMap << YAML::EndMap;
  // Last: a model.yaml names files that are all there.
  write_atomically(dir / kModelFile, [&](std::ostream& out) {
    out << "# The model this run sampled, every drawn number written out. An experiment with\n"
           "# `model: PATH-TO-THIS-FILE` (and the run's seed and nrpt) samples it again,\n"
           "# bit for bit; the files named here are relative to this file.\n"
        << yaml.c_str() << "\n";
  });
}

}  // namespace

void write_realized_model(const fs::path& run_dir, const SpinModel& model, const ModelSpec& spec) {
  const fs::path target = run_dir / kModelDir;
  fs::path temporary;
  try {
    temporary = make_sibling_directory(target, ".partial-");
    write_files(temporary, model, spec);
    // A run started again (an unstarted DIR.partial) wrote one before: the new one replaces it.
    remove_model_dir(target);
    std::error_code ec;
    fs::rename(temporary, target, ec);
    if (ec)
      throw std::runtime_error("cannot rename it to " + target.string() + ": " + ec.message());
  } catch (const std::exception& e) {
    if (!temporary.empty()) remove_model_dir(temporary);
    throw std::runtime_error("cannot write the realized model into " + target.string() + ": " +
                             e.what());
  }
}

}  // namespace hamon::cli
