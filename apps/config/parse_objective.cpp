// SPDX-License-Identifier: Apache-2.0
// model.kind: qubo or maxcut (model_kinds.hpp): the problem file is read with the experiment,
// so `hamon validate` reports a bad line of it, and a run fails before it creates anything.
#include <string>

#include "config/model_kinds.hpp"
#include "config/model_values.hpp"
#include "config/objective_file.hpp"

namespace hamon::cli::detail {

ObjectiveSpec parse_objective(YamlReader& reader, const ModelKeys& keys, const std::string& kind,
                              const std::string& base_dir) {
  const bool qubo = kind == "qubo";
  if (keys.count("file") == 0) {
    reader.fail("model", std::string("missing required key 'file' (") +
                             (qubo ? "a QUBO file: lines 'i j Q', 0-based, i <= j"
                                   : "a MAX-CUT file in the G-set format: 'n m', then m lines "
                                     "'i j w', 1-based") +
                             ")");
  }
  ObjectiveSpec spec;
  spec.file = existing_file(reader, keys.at("file"), "model.file", base_dir,
                            qubo ? "QUBO file " : "MAX-CUT file ");
  spec.terms =
      read_objective_file(spec.file, qubo ? ObjectiveFormat::qubo : ObjectiveFormat::maxcut);
  return spec;
}

}  // namespace hamon::cli::detail
