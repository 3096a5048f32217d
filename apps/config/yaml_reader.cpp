// SPDX-License-Identifier: Apache-2.0
#include "config/yaml_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <string_view>
#include <utility>

#include "hamon/core/util/text.hpp"

namespace hamon::cli {

namespace {

/// Every key of every section, to say "it belongs in nrpt" for a key in the wrong place.
const std::map<std::string, std::string>& home_of_keys() {
  static const std::map<std::string, std::string> homes = {
      {"seed", "the top level"},
      {"device", "the top level"},
      {"replicas", "the top level"},
      {"kind", "model"},
      {"shape", "model (lattice)"},
      {"periodic", "model (lattice)"},
      {"coupling", "model (lattice)"},
      {"nodes", "model (graph)"},
      {"edges", "model (graph)"},
      {"clamped", "model (graph)"},
      {"visible", "model (rbm)"},
      {"hidden", "model (rbm)"},
      {"weights", "model (rbm)"},
      {"chains", "nrpt"},
      {"beta_min", "nrpt"},
      {"beta_max", "nrpt"},
      {"spacing", "nrpt"},
      {"betas", "nrpt"},
      {"rounds", "nrpt"},
      {"burn_in", "nrpt"},
      {"explore_sweeps", "nrpt"},
      {"adapt_schedule", "nrpt"},
      {"cluster_moves", "nrpt"},
      {"tune", "nrpt"},
      {"max_chains", "nrpt"},
      {"target_acceptance", "nrpt"},
      {"tune_rounds", "nrpt"},
      {"dir", "output"},
      {"samples", "output"},
      {"moments", "output"},
      {"energies", "output"},
      {"index_process", "output"},
  };
  return homes;
}

std::string_view without_plus(std::string_view text) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '+' && text[1] != '-') text.remove_prefix(1);
  return text;
}

bool parse_int64(const std::string& text, std::int64_t& value) {
  const std::string_view view = without_plus(text);
  const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  return error == std::errc() && end == view.data() + view.size();
}

bool parse_double(const std::string& text, double& value) {
  const std::optional<double> parsed = parse_real(text);
  if (parsed) value = *parsed;
  return parsed.has_value();
}

std::string quoted(const std::string& text) {
  return "'" + printable(text) + "'";
}

}  // namespace

std::string printable(const std::string& text) {
  constexpr std::size_t kMax = 40;
  std::string shown;
  for (char c : text.substr(0, kMax)) {
    const auto u = static_cast<unsigned char>(c);
    shown += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (text.size() > kMax) shown += "...";
  return shown;
}

std::string join_key(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string index_key(const std::string& path, std::size_t k) {
  return path + "[" + std::to_string(k) + "]";
}

YamlReader::YamlReader(std::string file, std::map<std::string, Location>& locations)
    : file_(std::move(file)), locations_(locations) {}

void YamlReader::record(const std::string& path, const YAML::Node& node,
                        const YAML::Node& fallback) {
  // An empty value ("shape:") has no place of its own worth showing: point at its key.
  YAML::Mark mark = node.IsNull() ? fallback.Mark() : node.Mark();
  if (mark.is_null() || mark.line < 0) mark = fallback.Mark();
  Location at{file_, 0, 0, path};
  if (!mark.is_null() && mark.line >= 0) {
    at.line = mark.line + 1;
    at.column = mark.column + 1;
  }
  locations_[path] = at;
}

Location YamlReader::where(const std::string& path) const {
  return locate(locations_, path, Location{file_, 1, 1, ""});
}

void YamlReader::fail(const std::string& path, const std::string& message) const {
  throw ConfigError(where(path), message);
}

std::string YamlReader::what_is(const YAML::Node& node) const {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Scalar:
      return node.Tag() == "!" ? "the string " + quoted(node.Scalar()) : quoted(node.Scalar());
    default:
      return "nothing";
  }
}

std::map<std::string, YAML::Node> YamlReader::entries(
    const YAML::Node& node, const std::string& path, const std::vector<std::string>& allowed,
    const std::map<std::string, std::string>& hints) {
  const std::string where_text = path.empty() ? "at the top level" : "in " + path;
  if (!node.IsMap()) {
    fail(path, "expected a mapping with keys " + join(allowed) + ", got " + what_is(node));
  }
  std::map<std::string, YAML::Node> found;
  std::map<std::string, int> first_line;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key_node = it->first;
    if (!key_node.IsScalar()) {
      record(path + ".?", key_node, node);
      fail(path + ".?", "keys must be plain words, got " + what_is(key_node));
    }
    const std::string key = key_node.Scalar();
    const std::string key_path = join_key(path, printable(key));
    // Point unknown / duplicate keys at the key itself.
    record(key_path, key_node, node);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string message = "unknown key " + quoted(key) + " " + where_text;
      if (const auto hint = hints.find(key); hint != hints.end()) {
        message += " (" + hint->second + ")";
      } else if (const auto match = closest_match(key, allowed)) {
        message += " (did you mean '" + *match + "'?)";
      } else {
        const auto home = home_of_keys().find(key);
        if (home != home_of_keys().end()) {
          message += " (it belongs in " + home->second + ")";
        } else {
          message += "; expected one of: " + join(allowed);
        }
      }
      fail(key_path, message);
    }
    if (found.count(key) != 0) {
      fail(key_path, "key given twice (first on line " + std::to_string(first_line[key]) + ")");
    }
    first_line[key] = locations_[key_path].line;
    found[key] = it->second;
    // Values are located at the value (falling back on the key for an empty value).
    record(key_path, it->second, key_node);
  }
  return found;
}

std::vector<YAML::Node> YamlReader::elements(const YAML::Node& node, const std::string& path) {
  if (!node.IsSequence()) fail(path, "expected a list, got " + what_is(node));
  std::vector<YAML::Node> items;
  std::size_t k = 0;
  for (auto it = node.begin(); it != node.end(); ++it, ++k) {
    record(index_key(path, k), *it, node);
    items.push_back(*it);
  }
  return items;
}

std::string YamlReader::scalar_of(const YAML::Node& node, const std::string& path,
                                  const std::string& expected) const {
  if (!node.IsScalar() || node.Tag() == "!") {
    fail(path, "expected " + expected + ", got " + what_is(node));
  }
  return node.Scalar();
}

std::int64_t YamlReader::integer(const YAML::Node& node, const std::string& path, std::int64_t min,
                                 std::int64_t max, const std::string& hint) const {
  const std::string text = scalar_of(node, path, "an integer");
  std::int64_t value = 0;
  if (!parse_int64(text, value)) {
    // 1e6 is a fine way to write a million; 2.5 is not an integer.
    double real = 0.0;
    if (!parse_double(text, real) || !std::isfinite(real)) {
      fail(path, "expected an integer, got " + what_is(node));
    }
    if (std::trunc(real) != real) fail(path, "expected an integer, got " + text);
    if (std::fabs(real) >= 9.2e18) {
      fail(path, text + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) +
                     "]" + hint);
    }
    value = static_cast<std::int64_t>(real);
  }
  if (value < min || value > max) {
    fail(path, text + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) +
                   "]" + hint);
  }
  return value;
}

std::uint64_t YamlReader::seed(const YAML::Node& node, const std::string& path) const {
  const std::string text = scalar_of(node, path, "a non-negative integer seed");
  std::uint64_t value = 0;
  const std::string_view view = without_plus(text);
  const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  if (error != std::errc() || end != view.data() + view.size()) {
    fail(path, "expected an integer in [0, 2^64 - 1], got " + what_is(node));
  }
  return value;
}

double YamlReader::number(const YAML::Node& node, const std::string& path, double min,
                          double max) const {
  const std::string text = scalar_of(node, path, "a number");
  double value = 0.0;
  if (!parse_double(text, value)) fail(path, "expected a number, got " + what_is(node));
  // Worded as the graph and weights files word it, whatever the spelling (nan, .nan).
  if (!std::isfinite(value)) fail(path, quoted(text) + " is not finite");
  if (value < min) fail(path, text + " is below the minimum " + format_value(min));
  if (value > max) fail(path, text + " is above the maximum " + format_value(max));
  return value;
}

bool YamlReader::boolean(const YAML::Node& node, const std::string& path) const {
  const std::string text = scalar_of(node, path, "true or false");
  static const std::set<std::string> yes = {"true", "True", "TRUE", "yes", "Yes", "on", "On"};
  static const std::set<std::string> no = {"false", "False", "FALSE", "no", "No", "off", "Off"};
  if (yes.count(text) != 0) return true;
  if (no.count(text) != 0) return false;
  fail(path, "expected true or false, got " + what_is(node));
}

std::string YamlReader::text(const YAML::Node& node, const std::string& path) const {
  if (!node.IsScalar() || node.Scalar().empty()) {
    fail(path, "expected a word or path, got " + what_is(node));
  }
  return node.Scalar();
}

std::string YamlReader::choice(const YAML::Node& node, const std::string& path,
                               const std::vector<std::string>& choices) const {
  if (!node.IsScalar()) fail(path, "expected one of " + join(choices) + ", got " + what_is(node));
  const std::string value = node.Scalar();
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return value;
  std::string message = "expected one of " + join(choices) + ", got " + quoted(value);
  if (const auto match = closest_match(value, choices))
    message += " (did you mean '" + *match + "'?)";
  fail(path, message);
}

std::vector<double> YamlReader::numbers(const YAML::Node& node, const std::string& path) {
  std::vector<double> values;
  const auto items = elements(node, path);
  values.reserve(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) {
    values.push_back(number(items[k], index_key(path, k)));
  }
  return values;
}

bool YamlReader::is_scalar_text(const YAML::Node& node, const std::string& value) const {
  return node.IsScalar() && node.Scalar() == value;
}

}  // namespace hamon::cli
