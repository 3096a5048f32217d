// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writing numbers and lists into YAML so that every reader (yaml-cpp, PyYAML's YAML 1.1
// rules, ruamel) reads them back as the same floats: the shortest decimal that round-trips,
// always with a '.' and a signed exponent ("0.5", "2.0", "1.0e-05"), ".nan" and ".inf".

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hamon::cli {

std::string yaml_float(double value);

/// Emitter helpers: a float, an optional float (null when absent), flow lists.
void emit_float(YAML::Emitter& out, double value);
void emit_optional_float(YAML::Emitter& out, const std::optional<double>& value);
void emit_float_list(YAML::Emitter& out, const std::vector<double>& values);
/// `values` (rows x width, row-major: a Potts model's per-node, per-state values) as a
/// list of flow lists of `width`; `flow` makes the outer list a flow list too.
void emit_float_rows(YAML::Emitter& out, const std::vector<double>& values, int width, bool flow);
void emit_int_list(YAML::Emitter& out, const std::vector<std::int64_t>& values);
void emit_null(YAML::Emitter& out);
/// `key: value` in a block or flow map, the value as emit_float writes it.
void emit_float_entry(YAML::Emitter& out, const std::string& key, double value);
/// An estimate with its standard error, as the flow map {mean: M, stderr: S}.
void emit_mean_and_stderr(YAML::Emitter& out, double mean, double standard_error);

}  // namespace hamon::cli
