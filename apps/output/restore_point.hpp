// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `hamon extend DIR` changes in a complete run, kept on disk until the extension is
// done, so that neither a failure nor an interruption ever costs the complete run. An
// extension renames DIR to DIR.partial, rewrites config.yaml, removes summary.yaml and
// betas.npy, rotates the checkpoint and appends to the streamed traces (rewriting their
// headers). Kept, in DIR.partial/before-extend/ (run_files.hpp): hard links of the
// replaced and removed files (a rename over a name leaves a linked file's bytes alone),
// each trace's first bytes (NAME.header) and the bytes a reopened stream cuts off
// (NAME.cut), and `record`, written last, listing them with each trace's size.
//
// A failed extension is rolled back at once. A stopped or killed one stays in DIR.partial
// with its record: `hamon resume DIR` finishes the extension (the commit drops the record),
// and `hamon extend DIR --abandon` puts the complete run back in DIR, byte for byte.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "output/npy_stream.hpp"

namespace hamon::cli {

class RestorePoint {
 public:
  /// Keeps what an extension may change in the complete run `final_dir`, whose streamed
  /// traces are reopened as `traces` says, in a sibling directory until attach().
  /// Throws std::runtime_error (DIR unchanged).
  RestorePoint(const std::filesystem::path& final_dir, const std::vector<StreamExtent>& traces);
  RestorePoint(const RestorePoint&) = delete;
  RestorePoint& operator=(const RestorePoint&) = delete;

  /// Moves the record into DIR.partial (renamed from DIR). Throws std::runtime_error.
  void attach();
  /// Puts DIR back as it was (from DIR.partial, or DIR itself when it was not renamed
  /// yet). Never throws: what it cannot restore it reports on stderr, naming where the
  /// record is.
  void roll_back() noexcept;
  /// The extension finished (its commit dropped the record) or stopped (the record stays
  /// in DIR.partial for --abandon); a record never attached is removed.
  void release() noexcept;

 private:
  std::filesystem::path final_dir_;
  std::filesystem::path kept_;  // where the record is now
  bool attached_ = false;
};

/// Whether `partial` (a DIR.partial) holds an extension's record.
bool is_interrupted_extension(const std::filesystem::path& partial);

/// Why `hamon extend DIR --abandon` cannot put the complete run back (the record in
/// DIR.partial does not fit it, DIR is taken), or "" when it can.
std::string extension_not_abandonable(const std::filesystem::path& final_dir);

/// `hamon extend DIR --abandon`: puts the complete run back from the record in DIR.partial
/// and renames DIR.partial to DIR. Throws std::runtime_error, before changing anything
/// where extension_not_abandonable says why; a restore stopped half-way (a kill) is
/// finished by running it again.
void abandon_extension(const std::filesystem::path& final_dir);

}  // namespace hamon::cli
