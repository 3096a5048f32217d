// SPDX-License-Identifier: Apache-2.0
#include "output/run_directory.hpp"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "output/atomic_file.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

bool is_non_empty_directory(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir, ec) && !fs::is_empty(dir, ec);
}

bool looks_like_a_run(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "summary.yaml", ec);
}

/// A fresh directory next to `dir`, named dir + suffix + random characters.
fs::path make_sibling_directory(const fs::path& dir, const std::string& suffix) {
  std::string pattern = dir.string() + suffix + "XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr) {
    throw std::runtime_error("cannot create a directory next to " + dir.string() + ": " +
                             std::strerror(errno));
  }
  // mkdtemp makes it private (0700); a run directory gets the usual 0777 & ~umask.
  ::chmod(name.data(), 0777 & ~current_umask());
  return fs::path(name.data());
}

void rename_or_throw(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) {
    throw std::runtime_error("cannot rename " + from.string() + " to " + to.string() + ": " +
                             ec.message());
  }
}

}  // namespace

fs::path normalised_run_dir(const fs::path& dir) {
  fs::path p = dir.lexically_normal();
  if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();
  return p;
}

fs::path partial_dir_of(const fs::path& dir) {
  return fs::path(normalised_run_dir(dir).string() + ".partial");
}

std::optional<std::string> output_directory_problem(const std::string& out_dir, bool replace_run) {
  const fs::path dir = normalised_run_dir(out_dir);
  std::error_code ec;
  if (dir.empty() || dir == "." || dir == ".." || dir == dir.root_path()) {
    return "'" + out_dir + "' cannot be a run directory";
  }
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    return "'" + dir.string() + "' exists and is not a directory";
  }
  // The directory (or its parents) must be creatable where the first existing ancestor is.
  fs::path ancestor = fs::absolute(dir, ec).parent_path();
  while (!ancestor.empty() && !fs::exists(ancestor, ec) && ancestor != ancestor.root_path()) {
    ancestor = ancestor.parent_path();
  }
  if (!fs::is_directory(ancestor, ec)) {
    return "cannot create '" + dir.string() + "': '" + ancestor.string() + "' is not a directory";
  }
  if (::access(ancestor.c_str(), W_OK | X_OK) != 0) {
    return "cannot create '" + dir.string() + "': '" + ancestor.string() + "' is not writable";
  }
  const fs::path partial = partial_dir_of(dir);
  if (fs::exists(partial, ec) && !replace_run) {
    return "an interrupted run is in '" + partial.string() + "'; continue it with `hamon resume " +
           dir.string() + "`, or pass --overwrite to discard it";
  }
  if (!is_non_empty_directory(dir)) return std::nullopt;
  if (!replace_run) {
    return "'" + dir.string() +
           "' exists and is not empty; remove it, choose another "
           "directory with --out, or pass --overwrite to replace an "
           "earlier hamon run";
  }
  if (!looks_like_a_run(dir)) {
    return "'" + dir.string() +
           "' is not empty and holds no summary.yaml, so it is not an "
           "earlier hamon run; --overwrite only replaces those";
  }
  return std::nullopt;
}

RunDirectory::RunDirectory(fs::path final_dir, fs::path partial)
    : final_dir_(std::move(final_dir)), partial_(std::move(partial)) {}

RunDirectory RunDirectory::create(const fs::path& final_dir, bool discard_partial) {
  const fs::path dir = normalised_run_dir(final_dir);
  const fs::path partial = partial_dir_of(dir);
  std::error_code ec;
  if (discard_partial) fs::remove_all(partial, ec);
  const fs::path parent = dir.parent_path();
  if (!parent.empty()) {
    fs::create_directories(parent, ec);
    if (ec) throw std::runtime_error("cannot create " + parent.string() + ": " + ec.message());
  }
  // Built under a random name and renamed, so DIR.partial never lacks its config.yaml
  // marker for long; the caller writes config.yaml first.
  if (::mkdir(partial.c_str(), 0777) != 0) {
    throw std::runtime_error("cannot create " + partial.string() + ": " + std::strerror(errno));
  }
  return RunDirectory(dir, partial);
}

RunDirectory RunDirectory::open(const fs::path& final_dir) {
  const fs::path dir = normalised_run_dir(final_dir);
  const fs::path partial = partial_dir_of(dir);
  std::error_code ec;
  if (!fs::is_directory(partial, ec)) {
    if (looks_like_a_run(dir)) {
      throw std::runtime_error(dir.string() + " is a complete run (nothing to resume); " +
                               "`hamon extend " + dir.string() + " --rounds N` continues it");
    }
    throw std::runtime_error("no interrupted run at " + dir.string() + " (no " + partial.string() +
                             ")");
  }
  return RunDirectory(dir, partial);
}

RunDirectory RunDirectory::reopen_complete(const fs::path& final_dir) {
  const fs::path dir = normalised_run_dir(final_dir);
  const fs::path partial = partial_dir_of(dir);
  rename_or_throw(dir, partial);
  return RunDirectory(dir, partial);
}

void RunDirectory::write(const std::string& name,
                         const std::function<void(std::ostream&)>& writer) const {
  write_atomically(partial_ / name, writer);
}

void RunDirectory::commit(bool replace_run) {
  std::error_code ec;
  fs::path previous;
  if (is_non_empty_directory(final_dir_)) {
    if (!replace_run || !looks_like_a_run(final_dir_)) {
      throw std::runtime_error(final_dir_.string() +
                               " appeared while the run was going and is not empty; the "
                               "results stay in " +
                               partial_.string());
    }
    previous = make_sibling_directory(final_dir_, ".old-");
    rename_or_throw(final_dir_, previous / "run");
  }
  // rename() replaces an empty directory, and is atomic within one file system.
  fs::rename(partial_, final_dir_, ec);
  if (ec) {
    const std::string why = ec.message();
    if (!previous.empty()) {
      std::error_code restore;
      fs::rename(previous / "run", final_dir_, restore);
    }
    throw std::runtime_error("cannot rename " + partial_.string() + " to " + final_dir_.string() +
                             ": " + why);
  }
  if (!previous.empty()) fs::remove_all(previous, ec);
}

}  // namespace hamon::cli
