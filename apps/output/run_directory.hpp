#pragma once
// The run directory appears complete or not at all. Files are written into a staging
// directory next to it, "DIR.tmp-XXXXXX" (each file itself written under a temporary name
// and renamed, see atomic_file.hpp); commit() renames the staging directory to DIR. A run
// that fails or is interrupted leaves at most a DIR.tmp-* directory, never DIR.
//
// Policy for an existing DIR: an empty directory is replaced; a non-empty one is refused
// (checked before the run starts, so no time is wasted) unless the caller passed
// --overwrite and DIR holds a summary.yaml (an earlier hamon run): then the earlier run
// is moved aside, the new one renamed in, and the earlier one deleted.

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "config/experiment_config.hpp"

namespace hamon::cli {

/// Throws ConfigError (at output.dir / --out) when the run could not be committed to
/// config.output.dir under the policy above.
void check_output_directory(const ExperimentConfig& config, bool replace_run);

class StagedDirectory {
 public:
  /// Creates the parent directories and the staging directory. Throws std::runtime_error.
  explicit StagedDirectory(std::filesystem::path final_dir);
  ~StagedDirectory();  // removes the staging directory unless committed
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  /// Writes staging/name atomically.
  void write(const std::string& name, const std::function<void(std::ostream&)>& writer) const;

  /// Renames the staging directory to the final one (replacing an earlier run when
  /// `replace_run`). Throws std::runtime_error.
  void commit(bool replace_run);

  const std::filesystem::path& final_dir() const { return final_dir_; }

 private:
  std::filesystem::path final_dir_;
  std::filesystem::path staging_;
  bool committed_ = false;
};

}  // namespace hamon::cli
