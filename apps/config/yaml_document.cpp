// SPDX-License-Identifier: Apache-2.0
#include "config/yaml_document.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "config/config_error.hpp"
#include "config/unclosed_flow.hpp"

namespace hamon::cli {

std::string read_config_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw ConfigError(Location{path, 0, 0, ""}, "is a directory, not an " + what);
  }
  if (!std::filesystem::exists(path, ec)) {
    throw ConfigError(Location{path, 0, 0, ""}, "no such " + what);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(Location{path, 0, 0, ""}, "cannot open the " + what);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError(Location{path, 0, 0, ""}, "cannot read the " + what);
  return text.str();
}

namespace {

/// The first tab in the leading whitespace of a line of `text`, up to line `last_line`
/// (1-based; -1: all lines), as (line, column), 1-based.
std::optional<std::pair<int, int>> indentation_tab(const std::string& text, int last_line) {
  int line = 1;
  std::size_t start = 0;
  while (start <= text.size() && (last_line < 0 || line <= last_line)) {
    std::size_t k = start;
    std::optional<std::size_t> tab;
    for (; k < text.size() && (text[k] == ' ' || text[k] == '\t'); ++k) {
      if (text[k] == '\t' && !tab) tab = k;
    }
    // Blank and comment-only lines indent nothing.
    const bool content = k < text.size() && text[k] != '\n' && text[k] != '\r' && text[k] != '#';
    if (tab && content) return std::make_pair(line, static_cast<int>(*tab - start) + 1);
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) break;
    start = end + 1;
    ++line;
  }
  return std::nullopt;
}

}  // namespace

YAML::Node load_yaml_document(const std::string& text, const std::string& name) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    // yaml-cpp places a missing ']' or '}' at the end of the file: point at the opener.
    const auto opener =
        e.msg.find("flow") != std::string::npos ? unclosed_flow(text) : std::nullopt;
    if (opener) {
      const char* kind = opener->bracket == '[' ? "flow sequence '['" : "flow mapping '{'";
      throw ConfigError(Location{name, opener->line, opener->column, ""},
                        std::string("invalid YAML: the ") + kind +
                            " opened here is never closed (" + e.msg + ")");
    }
    // yaml-cpp names a tab in the indentation only sometimes ("illegal map value" at the
    // ':' after it, say): a tab there is the mistake, and the place to point at.
    const bool located = !e.mark.is_null() && e.mark.line >= 0;
    if (const auto tab = indentation_tab(text, located ? e.mark.line + 1 : -1)) {
      throw ConfigError(Location{name, tab->first, tab->second, ""},
                        "invalid YAML: a tab in the indentation (YAML indents with spaces "
                        "only; yaml-cpp says: " +
                            e.msg + ")");
    }
    throw ConfigError(mark_location(name, e.mark, ""), "invalid YAML: " + e.msg);
  }
}

Location mark_location(const std::string& name, const YAML::Mark& mark, const std::string& key) {
  const bool located = !mark.is_null() && mark.line >= 0;
  return Location{name, located ? mark.line + 1 : 0, located ? mark.column + 1 : 0, key};
}

ConfigError unreadable_document(const std::string& name, const YAML::Exception& e) {
  return ConfigError(mark_location(name, e.mark, ""), "cannot read the document: " + e.msg);
}

std::string config_base_dir(const std::string& path) {
  std::string base = std::filesystem::path(path).parent_path().string();
  return base.empty() ? "." : base;
}

std::string resolve_path(const std::string& base_dir, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute() || base_dir.empty()) return p.lexically_normal().string();
  return (std::filesystem::path(base_dir) / p).lexically_normal().string();
}

}  // namespace hamon::cli
