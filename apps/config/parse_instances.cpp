// SPDX-License-Identifier: Apache-2.0
// `instances: {files: ..., count: K}`: an ensemble whose instances come from graph files,
// instance k from file k: a list, or a pattern with {k} (instance k's file is the pattern
// with k in decimal). Every file is checked to exist here, before anything is written.
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/model_values.hpp"
#include "config/parse_experiment.hpp"
#include "config/parse_sections.hpp"
#include "config/yaml_document.hpp"

namespace hamon::cli::detail {

namespace {

namespace fs = std::filesystem;

constexpr const char* kFilesKey = "instances.files";
constexpr const char* kCountKey = "instances.count";
constexpr const char* kK = "{k}";

bool is_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

/// k when `middle` is k in decimal as the pattern writes it (no sign, no leading zero).
std::optional<std::int64_t> index_of(const std::string& middle) {
  if (middle.empty() || middle.size() > 9 || (middle.size() > 1 && middle[0] == '0')) {
    return std::nullopt;
  }
  std::int64_t k = 0;
  for (const char c : middle) {
    if (c < '0' || c > '9') return std::nullopt;
    k = 10 * k + (c - '0');
  }
  return k;
}

/// The indices k whose pattern file exists in the pattern's directory.
std::set<std::int64_t> indices_present(const fs::path& directory, const std::string& prefix,
                                       const std::string& suffix) {
  std::set<std::int64_t> found;
  std::error_code ec;
  for (fs::directory_iterator it(directory.empty() ? "." : directory, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) ||
        !is_file(it->path().string())) {
      continue;
    }
    const auto k =
        index_of(name.substr(prefix.size(), name.size() - prefix.size() - suffix.size()));
    if (k) found.insert(*k);
  }
  return found;
}

std::vector<std::string> files_of_pattern(YamlReader& reader, const YAML::Node& node,
                                          const std::string& base_dir,
                                          std::optional<std::int64_t> count) {
  const std::string text = reader.text(node, kFilesKey);
  const std::string pattern = resolve_path(base_dir, text);
  const auto at = pattern.find(kK);
  const auto name_start = pattern.find_last_of('/') + 1;  // npos + 1 == 0
  if (at == std::string::npos || pattern.find(kK, at + 1) != std::string::npos || at < name_start) {
    reader.fail(kFilesKey, "'" + text +
                               "' is neither a list of files nor a pattern naming {k} once in "
                               "its file name (instance k reads the file with k in decimal "
                               "there, e.g. graphs/instance_{k}.txt)");
  }
  const std::string prefix = pattern.substr(name_start, at - name_start);
  const std::string suffix = pattern.substr(at + 3);
  const auto file_of = [&](std::int64_t k) {
    return pattern.substr(0, at) + std::to_string(k) + suffix;
  };
  std::vector<std::string> files;
  if (count) {
    for (std::int64_t k = 0; k < *count; ++k) {
      if (!is_file(file_of(k))) {
        reader.fail(kCountKey, "is " + std::to_string(*count) + ", but instance " +
                                   std::to_string(k) + "'s file '" + file_of(k) +
                                   "' does not exist (the pattern '" + text +
                                   "' gives files 0 to count - 1; relative paths are resolved "
                                   "against the experiment file's directory)");
      }
      files.push_back(file_of(k));
    }
    return files;
  }
  const std::set<std::int64_t> present =
      indices_present(fs::path(pattern.substr(0, name_start)), prefix, suffix);
  if (present.empty()) {
    reader.fail(kFilesKey, "the pattern '" + text + "' matches no file (" + file_of(0) +
                               " does not exist; relative paths are resolved against the "
                               "experiment file's directory)");
  }
  std::int64_t n = 0;
  while (present.count(n) != 0) ++n;
  if (n != static_cast<std::int64_t>(present.size())) {
    reader.fail(kFilesKey, "the pattern '" + text + "' matches " + file_of(*present.rbegin()) +
                               " but not " + file_of(n) +
                               ": instance k reads file k, so the files are numbered from 0 "
                               "without a gap (count: N takes files 0 to N - 1)");
  }
  if (n > kMaxInstances) {
    reader.fail(kFilesKey, "the pattern '" + text + "' matches " + std::to_string(n) +
                               " files, more than " + std::to_string(kMaxInstances) +
                               " instances (count: N takes files 0 to N - 1)");
  }
  for (std::int64_t k = 0; k < n; ++k) files.push_back(file_of(k));
  return files;
}

}  // namespace

std::vector<std::string> parse_instance_files(YamlReader& reader, const YAML::Node& node,
                                              const std::string& base_dir) {
  const auto keys = reader.entries(node, "instances", {"files", "count"});
  if (keys.count("files") == 0) {
    reader.fail("instances",
                "missing key 'files' (a list of graph files, or a pattern with {k}); a plain "
                "count is written instances: K");
  }
  std::optional<std::int64_t> count;
  if (keys.count("count") != 0) {
    count = reader.integer(keys.at("count"), kCountKey, 1, kMaxInstances);
  }
  const YAML::Node files_node = keys.at("files");
  if (!files_node.IsSequence()) return files_of_pattern(reader, files_node, base_dir, count);
  std::vector<std::string> files;
  const auto items = reader.elements(files_node, kFilesKey);
  if (items.empty()) reader.fail(kFilesKey, "lists no file");
  if (items.size() > static_cast<std::size_t>(kMaxInstances)) {
    reader.fail(kFilesKey, "lists " + std::to_string(items.size()) + " files, more than " +
                               std::to_string(kMaxInstances) + " instances");
  }
  for (std::size_t k = 0; k < items.size(); ++k) {
    files.push_back(
        existing_file(reader, items[k], index_key(kFilesKey, k), base_dir, "graph file "));
  }
  if (count && *count != static_cast<std::int64_t>(files.size())) {
    reader.fail(kCountKey, "is " + std::to_string(*count) + ", but instances.files lists " +
                               std::to_string(files.size()) +
                               " files (the list gives the count: drop count, or make them "
                               "agree)");
  }
  return files;
}

}  // namespace hamon::cli::detail
