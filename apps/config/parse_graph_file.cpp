// SPDX-License-Identifier: Apache-2.0
// A model from a graph file (`file:`, kind graph or a continuous kind; model_kinds.hpp).
#include <string>

#include "config/model_kinds.hpp"
#include "config/model_values.hpp"

namespace hamon::cli::detail {

std::string parse_graph_file_key(YamlReader& reader, const ModelKeys& keys,
                                 const std::string& base_dir,
                                 std::initializer_list<const char*> others) {
  for (const char* other : others) {
    if (keys.count(other) != 0) {
      reader.fail(std::string("model.") + other,
                  "cannot be combined with 'file' (the graph file gives the whole model)");
    }
  }
  return existing_file(reader, keys.at("file"), "model.file", base_dir, "graph file ");
}

}  // namespace hamon::cli::detail
