// SPDX-License-Identifier: Apache-2.0
#include "output/run_directory.hpp"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <vector>

#include "hamon/core/sampler/checkpoint.hpp"
#include "output/atomic_file.hpp"
#include "output/restore_point.hpp"
#include "output/run_description.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

bool is_non_empty_directory(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir, ec) && !fs::is_empty(dir, ec);
}

/// Why `hamon resume DIR` would fail on `partial`, or nothing when it would work: a run
/// resumes from its newest good checkpoint; a sampling run that stopped before sampling
/// starts again from its config.yaml.
std::optional<std::string> not_resumable(const fs::path& partial) {
  std::error_code ec;
  const bool sampling = fs::is_regular_file(partial / kConfigFile, ec);
  const bool training = fs::is_regular_file(partial / kTrainingConfigFile, ec);
  if (!sampling && !training) {
    return std::string("it holds no ") + kConfigFile + " nor " + kTrainingConfigFile;
  }
  if (is_unstarted_run(partial)) return std::nullopt;
  if (!has_checkpoint_files(partial)) return std::string("it holds no checkpoint");
  try {
    load_checkpoint(partial / kCheckpointFile);
  } catch (const CheckpointError& e) {
    try {  // a continuous model's state
      load_checkpoint<double>(partial / kCheckpointFile);
    } catch (const CheckpointError&) {
      return std::string(e.what());
    }
  }
  return std::nullopt;
}

/// Why `partial`, an interrupted extension, is not simply an interrupted run: it holds a
/// complete run, which no flag of `run` deletes.
std::string interrupted_extension_problem(const fs::path& dir, const fs::path& partial,
                                          bool replace_run) {
  const std::string d = dir.string();
  const std::string what = describe_complete_run(partial / kBeforeExtendDir);
  const std::string choices = "`hamon resume " + d + "` finishes the extension, `hamon extend " +
                              d + " --abandon` drops it and puts the complete run back in " + d +
                              " as it was";
  if (replace_run) {
    return "'" + partial.string() + "' holds a complete run (" + what +
           ") whose extension was interrupted; --overwrite never deletes a complete run "
           "kept there: " +
           choices + " (which a later --overwrite replaces, saying so)";
  }
  return "'" + partial.string() + "' holds a complete run (" + what +
         ") whose extension was interrupted: " + choices;
}

std::string foreign_files_problem(const fs::path& dir, const std::vector<std::string>& foreign) {
  return "'" + dir.string() + "' holds files hamon did not write (" + listed(foreign) +
         "); --overwrite removes only hamon's own files, so move those away first";
}

/// The complete ensemble whose instances/ holds `dir` (instances/k, or a k to come), if any.
/// An ensemble's own instances run in DIR.partial/instances, never in a complete one.
std::optional<fs::path> enclosing_ensemble(const fs::path& dir) {
  std::error_code ec;
  const fs::path instances = fs::absolute(dir, ec).lexically_normal().parent_path();
  if (ec || instances.filename() != kInstancesDir) return std::nullopt;
  const fs::path ensemble = instances.parent_path();
  if (!is_hamon_run(ensemble)) return std::nullopt;
  return normalised_run_dir(dir).parent_path().parent_path().empty()
             ? ensemble
             : normalised_run_dir(dir).parent_path().parent_path();
}

/// mkdtemp() of `prefix` followed by random characters: the directory it made (private,
/// 0700), or nothing, with errno set.
std::optional<fs::path> make_unique_directory(const std::string& prefix) {
  std::string pattern = prefix + "XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr) return std::nullopt;
  return fs::path(name.data());
}

/// Why no directory can be made in `parent`, or nothing: one is made and removed again.
std::optional<std::string> cannot_make_directory_in(const fs::path& parent) {
  const auto made = make_unique_directory((parent / ".hamon-probe-").string());
  if (!made) return std::string(std::strerror(errno));
  std::error_code ignored;
  fs::remove(*made, ignored);
  return std::nullopt;
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

fs::path make_sibling_directory(const fs::path& dir, const std::string& suffix) {
  const auto made = make_unique_directory(dir.string() + suffix);
  if (!made) {
    throw std::runtime_error("cannot create a directory next to " + dir.string() + ": " +
                             std::strerror(errno));
  }
  // mkdtemp makes it private (0700); a run directory gets the usual 0777 & ~umask.
  ::chmod(made->c_str(), 0777 & ~current_umask());
  return *made;
}

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
  // access() says yes to root everywhere, and nothing of a file system that takes no new
  // directories (/proc, /sys): try one, so `validate` finds what `run` would.
  if (const auto why = cannot_make_directory_in(ancestor)) {
    return "cannot create '" + dir.string() + "': no directory can be made in '" +
           ancestor.string() + "' (" + *why + ")";
  }
  if (const auto ensemble = enclosing_ensemble(dir)) {
    return "'" + dir.string() + "' is inside the complete ensemble '" + ensemble->string() +
           "' (its instances/): a run of its own would change the ensemble under its "
           "tables; give it another directory (--out)";
  }
  const fs::path partial = partial_dir_of(dir);
  if (fs::exists(partial, ec)) {
    if (is_interrupted_extension(partial)) {
      return interrupted_extension_problem(dir, partial, replace_run);
    }
    const std::vector<std::string> foreign = foreign_entries(partial);
    if (!replace_run) {
      const auto why = not_resumable(partial);
      if (!why) {
        return "an interrupted run is in '" + partial.string() +
               "'; continue it with `hamon resume " + dir.string() +
               "`, or pass --overwrite to discard it";
      }
      return "'" + partial.string() + "' is left from an interrupted run that cannot be " +
             "resumed (" + *why + "); " +
             (foreign.empty() ? "pass --overwrite to discard it"
                              : "it holds files hamon did not write (" + listed(foreign) +
                                    "): remove it yourself");
    }
    if (!foreign.empty()) return foreign_files_problem(partial, foreign);
  }
  if (!is_non_empty_directory(dir)) return std::nullopt;
  if (!replace_run) {
    return "'" + dir.string() +
           "' exists and is not empty; remove it, choose another "
           "directory with --out, or pass --overwrite to replace an "
           "earlier hamon run";
  }
  const std::vector<std::string> foreign = foreign_entries(dir);
  if (!is_hamon_run(dir)) {
    return "'" + dir.string() + "' is not an earlier hamon run (no " + kSummaryFile +
           " written by hamon beside its " + kConfigFile + " or " + kTrainingConfigFile +
           "); --overwrite only replaces those" +
           (foreign.empty()
                ? std::string()
                : ", and leaves the files hamon did not write alone (" + listed(foreign) + ")");
  }
  if (!foreign.empty()) return foreign_files_problem(dir, foreign);
  return std::nullopt;
}

void announce_replacement(const fs::path& dir) {
  if (!is_hamon_run(dir)) return;
  std::cerr << "hamon: note: " << dir.string() << " holds a complete run ("
            << describe_complete_run(dir) << "); this run replaces it when it completes, "
            << "and leaves it as it is until then\n";
}

RunDirectory::RunDirectory(fs::path final_dir, fs::path partial)
    : final_dir_(std::move(final_dir)), partial_(std::move(partial)) {}

RunDirectory RunDirectory::create(const fs::path& final_dir, bool discard_partial) {
  const fs::path dir = normalised_run_dir(final_dir);
  const fs::path partial = partial_dir_of(dir);
  std::error_code ec;
  if (discard_partial && fs::exists(partial, ec)) {
    // Checked first, so a refusal leaves the interrupted run whole.
    if (is_interrupted_extension(partial)) {
      throw std::runtime_error(interrupted_extension_problem(dir, partial, true));
    }
    const std::vector<std::string> foreign = foreign_entries(partial);
    if (!foreign.empty()) throw std::runtime_error(foreign_files_problem(partial, foreign));
    std::cerr << "hamon: note: discarding the interrupted run in " << partial.string() << "\n";
    remove_hamon_files(partial);
  }
  if (discard_partial) announce_replacement(dir);
  const fs::path parent = dir.parent_path();
  if (!parent.empty()) {
    fs::create_directories(parent, ec);
    if (ec) throw std::runtime_error("cannot create " + parent.string() + ": " + ec.message());
  }
  // Made in place, under its final name: it lacks its config.yaml marker only until the
  // caller's first write, which is config.yaml.
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
    if (is_hamon_run(dir)) {
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
  // The final checkpoint stays (resume, extend), not its predecessor; an extension's record
  // of the shorter run goes, as the longer run is complete.
  fs::remove(checkpoint_files(partial_ / kCheckpointFile).previous, ec);
  if (is_interrupted_extension(partial_)) remove_extension_record(partial_ / kBeforeExtendDir);
  fs::path previous;
  if (is_non_empty_directory(final_dir_)) {
    // Checked again: the directory may have changed while the run was going.
    if (!replace_run || !is_hamon_run(final_dir_) || !foreign_entries(final_dir_).empty()) {
      throw std::runtime_error(final_dir_.string() +
                               " is not empty and is not an earlier hamon run holding only "
                               "hamon's files (it changed while the run was going); the "
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
  if (!previous.empty()) {
    const std::vector<std::string> kept = remove_hamon_files(previous / "run");
    if (!kept.empty()) {
      std::cerr << "hamon: warning: files hamon did not write appeared in the earlier run as it "
                << "was replaced; they are kept in " << (previous / "run").string() << ": "
                << listed(kept) << "\n";
    } else {
      fs::remove(previous, ec);
    }
  }
}

}  // namespace hamon::cli
