// SPDX-License-Identifier: Apache-2.0
#pragma once
// Typed, located reading of a yaml-cpp document. Every value is read through here, so
// every error says file:line:column and the key path, and every key read leaves its
// location behind (ExperimentConfig::locations) for checks that happen later.

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "config/config_error.hpp"
#include "hamon/core/util/enum_names.hpp"

namespace hamon::cli {

class YamlReader {
 public:
  YamlReader(std::string file, std::map<std::string, Location>& locations);

  /// Requires `node` (at `path`) to be a mapping whose keys are all in `allowed`; records
  /// the location of every entry as path.key. Unknown keys get "did you mean", or for a
  /// key in `hints` (key -> what to write instead) that hint; a key given twice is an
  /// error. Returns the entries by key.
  std::map<std::string, YAML::Node> entries(const YAML::Node& node, const std::string& path,
                                            const std::vector<std::string>& allowed,
                                            const std::map<std::string, std::string>& hints = {});

  /// Requires `node` (at `path`) to be a sequence; records element k as path[k].
  std::vector<YAML::Node> elements(const YAML::Node& node, const std::string& path);

  /// Scalars. `path` must have been recorded (by entries/elements) for a precise location.
  std::int64_t integer(const YAML::Node& node, const std::string& path,
                       std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                       std::int64_t max = std::numeric_limits<std::int64_t>::max(),
                       const std::string& hint = "") const;
  std::uint64_t seed(const YAML::Node& node, const std::string& path) const;
  /// A finite number in [min, max].
  double number(const YAML::Node& node, const std::string& path,
                double min = -std::numeric_limits<double>::max(),
                double max = std::numeric_limits<double>::max()) const;
  bool boolean(const YAML::Node& node, const std::string& path) const;
  /// Any non-empty scalar (quoted or not).
  std::string text(const YAML::Node& node, const std::string& path) const;
  /// One of `choices` (case-sensitive), with "did you mean" otherwise.
  std::string choice(const YAML::Node& node, const std::string& path,
                     const std::vector<std::string>& choices) const;
  /// One of a table's names (hamon/core/util/enum_names.hpp), as its enumerator.
  template <class Enum, std::size_t N>
  Enum choice(const YAML::Node& node, const std::string& path,
              const EnumNames<Enum, N>& table) const {
    return *parse_name(table, choice(node, path, names_of(table)));
  }
  /// A sequence of finite numbers.
  std::vector<double> numbers(const YAML::Node& node, const std::string& path);

  bool is_scalar_text(const YAML::Node& node, const std::string& value) const;

  /// The recorded location of `path` (or of its closest recorded parent).
  Location where(const std::string& path) const;
  [[noreturn]] void fail(const std::string& path, const std::string& message) const;
  /// Records `path` at `node`'s mark (or at `fallback`'s when node has none).
  void record(const std::string& path, const YAML::Node& node, const YAML::Node& fallback);

  const std::string& file() const { return file_; }

 private:
  std::string what_is(const YAML::Node& node) const;
  std::string scalar_of(const YAML::Node& node, const std::string& path,
                        const std::string& expected) const;

  std::string file_;
  std::map<std::string, Location>& locations_;
};

/// Control characters replaced by '?' and text beyond 40 characters cut ("..."), so an
/// error message about a garbage key stays one readable line.
std::string printable(const std::string& text);

/// "a.b" (or "b" when parent is empty).
std::string join_key(const std::string& parent, const std::string& key);

/// "a[k]": the path of a list's element k.
std::string index_key(const std::string& path, std::size_t k);

}  // namespace hamon::cli
