// SPDX-License-Identifier: Apache-2.0
#pragma once
// The run directory appears complete or not at all. While a run is in progress its files
// live in "DIR.partial/": config.yaml (the resolved experiment), the streamed .npy traces
// and the checkpoint (checkpoint.bin, with .prev / .new around a write). When the run is
// done, betas.npy and summary.yaml are written (each atomically, see atomic_file.hpp) and
// DIR.partial is renamed to DIR: a complete-looking DIR exists only for a complete run.
// An interrupted run leaves DIR.partial, which `hamon resume DIR` continues.
//
// Policy for an existing DIR: an empty directory is replaced; a non-empty one is refused
// (checked before the run starts, so no time is wasted) unless the caller passed
// --overwrite and DIR is an earlier hamon run holding nothing but hamon's files
// (run_files.hpp): then the earlier run is moved aside, the new one renamed in, and the
// earlier one's files deleted. An existing DIR.partial (an interrupted run) is refused
// too: resume it, or --overwrite discards it (again only when it holds nothing but
// hamon's files). The refusal recommends `hamon resume` only where resume would work.

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "output/run_files.hpp"

namespace hamon::cli {

/// "runs/x/" -> "runs/x".
std::filesystem::path normalised_run_dir(const std::filesystem::path& dir);
/// DIR.partial for DIR.
std::filesystem::path partial_dir_of(const std::filesystem::path& dir);

/// A fresh directory next to `dir`, named dir + suffix + random characters, with the usual
/// permissions (0777 & ~umask). Throws std::runtime_error.
std::filesystem::path make_sibling_directory(const std::filesystem::path& dir,
                                             const std::string& suffix);

/// Why a run could not be committed to `dir` (output.dir / --out) under the policy above,
/// or nothing when it can.
std::optional<std::string> output_directory_problem(const std::string& dir, bool replace_run);

/// With --overwrite, before anything is deleted: says on stderr what the complete run in
/// `dir` holds (nothing when it holds none), and that it stays until the new run completes.
void announce_replacement(const std::filesystem::path& dir);

class RunDirectory {
 public:
  /// A fresh DIR.partial (an earlier one is removed when `discard_partial`; one holding
  /// files hamon did not write is refused).
  static RunDirectory create(const std::filesystem::path& final_dir, bool discard_partial);
  /// The DIR.partial of an interrupted run. Throws std::runtime_error when there is none.
  static RunDirectory open(const std::filesystem::path& final_dir);
  /// A complete DIR moved back to DIR.partial (to extend it).
  static RunDirectory reopen_complete(const std::filesystem::path& final_dir);

  std::filesystem::path file(const std::string& name) const { return partial_ / name; }
  /// Writes DIR.partial/name atomically.
  void write(const std::string& name, const std::function<void(std::ostream&)>& writer) const;
  /// Renames DIR.partial to DIR (replacing an earlier run when `replace_run`), without the
  /// checkpoint's predecessor.
  void commit(bool replace_run);

  const std::filesystem::path& final_dir() const { return final_dir_; }
  const std::filesystem::path& partial_dir() const { return partial_; }

 private:
  RunDirectory(std::filesystem::path final_dir, std::filesystem::path partial);
  std::filesystem::path final_dir_;
  std::filesystem::path partial_;
};

}  // namespace hamon::cli
