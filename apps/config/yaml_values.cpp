// SPDX-License-Identifier: Apache-2.0
#include "config/yaml_values.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "hamon/core/util/text.hpp"

namespace hamon::cli {

std::string yaml_float(double value) {
  if (std::isnan(value)) return ".nan";
  if (std::isinf(value)) return value > 0 ? ".inf" : "-.inf";
  std::string text = format_value(value);
  const auto exponent = text.find('e');
  const std::string mantissa = text.substr(0, exponent);
  if (mantissa.find('.') == std::string::npos) {
    if (exponent == std::string::npos) return text + ".0";
    text.insert(exponent, ".0");
  }
  return text;
}

void emit_float(YAML::Emitter& out, double value) {
  out << yaml_float(value);
}

void emit_null(YAML::Emitter& out) {
  out << YAML::Null;
}

void emit_float_entry(YAML::Emitter& out, const std::string& key, double value) {
  out << YAML::Key << key << YAML::Value;
  emit_float(out, value);
}

void emit_mean_and_stderr(YAML::Emitter& out, double mean, double standard_error) {
  out << YAML::Flow << YAML::BeginMap;
  emit_float_entry(out, "mean", mean);
  emit_float_entry(out, "stderr", standard_error);
  out << YAML::EndMap;
}

void emit_optional_float(YAML::Emitter& out, const std::optional<double>& value) {
  if (value) {
    emit_float(out, *value);
  } else {
    emit_null(out);
  }
}

void emit_float_list(YAML::Emitter& out, const std::vector<double>& values) {
  out << YAML::Flow << YAML::BeginSeq;
  for (double v : values) emit_float(out, v);
  out << YAML::EndSeq;
}

void emit_float_rows(YAML::Emitter& out, const std::vector<double>& values, int width, bool flow) {
  if (flow) out << YAML::Flow;
  out << YAML::BeginSeq;
  const auto w = static_cast<std::ptrdiff_t>(width);
  for (auto row = values.begin(); values.end() - row >= w; row += w) {
    emit_float_list(out, std::vector<double>(row, row + w));
  }
  out << YAML::EndSeq;
}

void emit_int_list(YAML::Emitter& out, const std::vector<std::int64_t>& values) {
  out << YAML::Flow << YAML::BeginSeq;
  for (auto v : values) out << v;
  out << YAML::EndSeq;
}

}  // namespace hamon::cli
