// SPDX-License-Identifier: Apache-2.0
// The forms of value every model kind reads (model_values.hpp).
#include "config/model_values.hpp"

#include <filesystem>
#include <limits>

#include "config/yaml_document.hpp"

namespace hamon::cli::detail {

ValueDistribution parse_distribution(YamlReader& reader, const YAML::Node& node,
                                     const std::string& path) {
  if (node.IsScalar()) return ValueDistribution::constant(reader.number(node, path));
  const auto keys = reader.entries(node, path, {"distribution", "value", "std", "mean", "seed"});
  if (keys.count("distribution") == 0) {
    reader.fail(path, "missing required key 'distribution' (constant, pm_one or gaussian)");
  }
  const std::string kind = reader.choice(keys.at("distribution"), path + ".distribution",
                                         {"constant", "pm_one", "gaussian"});
  const auto only_for = [&](const char* key, const std::string& kinds) {
    if (keys.count(key) != 0) {
      reader.fail(join_key(path, key), std::string("'") + key + "' applies to " + kinds +
                                           ", not to distribution " + kind);
    }
  };
  const auto number_or = [&](const char* key, double fallback, double min) {
    return keys.count(key) != 0 ? reader.number(keys.at(key), join_key(path, key), min) : fallback;
  };
  const std::uint64_t seed =
      keys.count("seed") != 0 ? reader.seed(keys.at("seed"), join_key(path, "seed")) : 0;
  if (kind == "constant") {
    only_for("std", "gaussian");
    only_for("mean", "gaussian");
    only_for("seed", "pm_one and gaussian");
    if (keys.count("value") == 0) reader.fail(path, "missing required key 'value'");
    return ValueDistribution::constant(reader.number(keys.at("value"), path + ".value"));
  }
  if (kind == "pm_one") {
    only_for("std", "gaussian");
    only_for("mean", "gaussian");
    return ValueDistribution::pm_one(seed, number_or("value", 1.0, 0.0));
  }
  only_for("value", "constant and pm_one (gaussian takes std and mean)");
  return ValueDistribution::gaussian(seed, number_or("std", 1.0, 0.0),
                                     number_or("mean", 0.0, -std::numeric_limits<double>::max()));
}

ValuesSpec parse_values(YamlReader& reader, const YAML::Node& node, const std::string& path,
                        const std::string& base_dir, bool nested_rows) {
  ValuesSpec spec;
  if (node.IsScalar()) {
    spec.form = ValuesSpec::Form::scalar;
    spec.scalar = reader.number(node, path);
    return spec;
  }
  if (node.IsMap()) {
    const auto keys = reader.entries(node, path, {"file"});
    if (keys.count("file") == 0) reader.fail(path, "missing required key 'file'");
    spec.form = ValuesSpec::Form::file;
    spec.file = existing_file(reader, keys.at("file"), path + ".file", base_dir, "");
    return spec;
  }
  spec.form = ValuesSpec::Form::list;
  const auto items = reader.elements(node, path);
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (nested_rows && items[k].IsSequence()) {
      for (double v : reader.numbers(items[k], index_key(path, k))) spec.list.push_back(v);
    } else {
      spec.list.push_back(reader.number(items[k], index_key(path, k)));
    }
  }
  return spec;
}

void check_count(const YamlReader& reader, const ValuesSpec& values, const std::string& path,
                 std::int64_t expected, const std::string& what) {
  if (values.form == ValuesSpec::Form::list &&
      static_cast<std::int64_t>(values.list.size()) != expected) {
    reader.fail(path, "has " + std::to_string(values.list.size()) + " values, expected " +
                          std::to_string(expected) + " (" + what + ")");
  }
}

std::string existing_file(YamlReader& reader, const YAML::Node& node, const std::string& path,
                          const std::string& base_dir, const std::string& what) {
  std::string file = resolve_path(base_dir, reader.text(node, path));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    reader.fail(path, "cannot open " + what + "'" + file +
                          "' (relative paths are resolved against the experiment file's "
                          "directory)");
  }
  return file;
}

}  // namespace hamon::cli::detail
