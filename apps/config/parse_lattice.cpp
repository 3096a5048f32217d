// SPDX-License-Identifier: Apache-2.0
// model.kind: lattice, and the lattice geometry a continuous model shares (model_kinds.hpp).
#include <cstdio>
#include <string>

#include "config/model_kinds.hpp"
#include "config/model_values.hpp"

namespace hamon::cli::detail {

namespace {

/// A lattice's `shape` (2 or 3 extents, >= 3 each when periodic).
std::vector<int> parse_shape(YamlReader& reader, const ModelKeys& keys, bool periodic) {
  std::vector<int> shape;
  if (keys.count("shape") == 0)
    reader.fail("model", "missing required key 'shape' (e.g. [16, 16])");
  const auto extents = reader.elements(keys.at("shape"), "model.shape");
  if (extents.size() != 2 && extents.size() != 3) {
    reader.fail("model.shape", "a lattice is 2D or 3D: give 2 or 3 extents, got " +
                                   std::to_string(extents.size()));
  }
  const int minimum = periodic ? 3 : 1;
  double n_nodes = 1.0;
  for (std::size_t k = 0; k < extents.size(); ++k) {
    const std::string at = index_key("model.shape", k);
    const std::int64_t extent = reader.integer(extents[k], at, 1, kMaxNodes);
    if (extent < minimum) {
      reader.fail(at, "extent " + std::to_string(extent) +
                          " is below 3; periodic lattices need extents >= 3 (or set "
                          "periodic: false)");
    }
    shape.push_back(static_cast<int>(extent));
    n_nodes *= static_cast<double>(extent);
  }
  if (n_nodes > static_cast<double>(kMaxNodes)) {
    char count[32];
    std::snprintf(count, sizeof count, "%.0f", n_nodes);
    reader.fail("model.shape", std::string("the lattice has ") + count +
                                   " nodes, more than the limit of " + std::to_string(kMaxNodes));
  }
  return shape;
}

}  // namespace

void parse_lattice_geometry(YamlReader& reader, const ModelKeys& keys, bool& periodic,
                            std::vector<int>& shape, ValueDistribution& coupling) {
  if (keys.count("periodic") != 0) periodic = reader.boolean(keys.at("periodic"), "model.periodic");
  shape = parse_shape(reader, keys, periodic);
  if (keys.count("coupling") != 0) {
    coupling = parse_distribution(reader, keys.at("coupling"), "model.coupling");
  }
}

LatticeSpec parse_lattice(YamlReader& reader, const ModelKeys& keys, const std::string& base_dir) {
  LatticeSpec spec;
  // `file`: the lattice's numbers (a run directory's model/model.graph) instead of draws.
  if (keys.count("file") != 0) {
    spec.file = parse_graph_file_key(reader, keys, base_dir, {"coupling", "field"});
  }
  parse_lattice_geometry(reader, keys, spec.periodic, spec.shape, spec.coupling);
  spec.potts = parse_potts(reader, keys);
  if (keys.count("field") == 0) return spec;
  if (spec.potts == 0) {
    spec.field = parse_distribution(reader, keys.at("field"), "model.field");
  } else {
    parse_potts_lattice_field(reader, keys.at("field"), spec);
  }
  return spec;
}

}  // namespace hamon::cli::detail
