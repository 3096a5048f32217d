#include "output/run_directory.hpp"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

/// The directory without a trailing separator ("runs/x/" -> "runs/x").
fs::path normalised(const fs::path& dir) {
  fs::path p = dir.lexically_normal();
  if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();
  return p;
}

}  // namespace

void check_output_directory(const ExperimentConfig& config, bool replace_run) {
  const fs::path dir = normalised(config.output.dir);
  std::error_code ec;
  if (dir.empty() || dir == "." || dir == ".." || dir == dir.root_path()) {
    config.fail("output.dir", "'" + config.output.dir + "' cannot be a run directory");
  }
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    config.fail("output.dir", "'" + dir.string() + "' exists and is not a directory");
  }
  // The directory (or its parents) must be creatable where the first existing ancestor is.
  fs::path ancestor = fs::absolute(dir, ec).parent_path();
  while (!ancestor.empty() && !fs::exists(ancestor, ec) && ancestor != ancestor.root_path()) {
    ancestor = ancestor.parent_path();
  }
  if (!fs::is_directory(ancestor, ec)) {
    config.fail("output.dir", "cannot create '" + dir.string() + "': '" + ancestor.string() +
                                  "' is not a directory");
  }
  if (::access(ancestor.c_str(), W_OK | X_OK) != 0) {
    config.fail("output.dir", "cannot create '" + dir.string() + "': '" + ancestor.string() +
                                  "' is not writable");
  }
  if (!is_non_empty_directory(dir)) return;
  if (!replace_run) {
    config.fail("output.dir", "'" + dir.string() +
                                  "' exists and is not empty; remove it, choose another "
                                  "directory with --out, or pass --overwrite to replace an "
                                  "earlier hamon run");
  }
  if (!looks_like_a_run(dir)) {
    config.fail("output.dir", "'" + dir.string() +
                                  "' is not empty and holds no summary.yaml, so it is not an "
                                  "earlier hamon run; --overwrite only replaces those");
  }
}

StagedDirectory::StagedDirectory(fs::path final_dir) : final_dir_(normalised(final_dir)) {
  const fs::path parent = final_dir_.parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec) {
      throw std::runtime_error("cannot create " + parent.string() + ": " + ec.message());
    }
  }
  staging_ = make_sibling_directory(final_dir_, ".tmp-");
}

StagedDirectory::~StagedDirectory() {
  if (!committed_) {
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
  }
}

void StagedDirectory::write(const std::string& name,
                            const std::function<void(std::ostream&)>& writer) const {
  write_atomically(staging_ / name, writer);
}

void StagedDirectory::commit(bool replace_run) {
  std::error_code ec;
  fs::path previous;
  if (is_non_empty_directory(final_dir_)) {
    if (!replace_run || !looks_like_a_run(final_dir_)) {
      throw std::runtime_error(final_dir_.string() +
                               " appeared while the run was going and is not empty; the "
                               "results are not kept");
    }
    previous = make_sibling_directory(final_dir_, ".old-");
    fs::rename(final_dir_, previous / "run", ec);
    if (ec)
      throw std::runtime_error("cannot move " + final_dir_.string() + " aside: " + ec.message());
  }
  // rename() replaces an empty directory, and is atomic within one file system.
  fs::rename(staging_, final_dir_, ec);
  if (ec) {
    const std::string why = ec.message();
    if (!previous.empty()) {
      std::error_code restore;
      fs::rename(previous / "run", final_dir_, restore);
    }
    throw std::runtime_error("cannot rename " + staging_.string() + " to " + final_dir_.string() +
                             ": " + why);
  }
  committed_ = true;
  if (!previous.empty()) fs::remove_all(previous, ec);
}

}  // namespace hamon::cli
