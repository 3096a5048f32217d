// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `hamon extend DIR` changes in a complete run, kept until the extension is done, so
// a failed one puts DIR back exactly as it was. An extension renames DIR to DIR.partial,
// rewrites config.yaml, removes summary.yaml and betas.npy, rotates the checkpoint and
// appends to the streamed traces (rewriting their headers). Kept: hard links of the
// replaced and removed files in a sibling directory (DIR.restore-XXXXXX; a rename over a
// name leaves a linked file's bytes alone), and each trace file's size, header and the
// bytes a reopened stream cuts off. Rolling back puts those back and renames DIR.partial
// to DIR. A stop by a signal is not a failure: the extension stays in DIR.partial for
// `hamon resume`, and the restore point is dropped.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "output/npy_stream.hpp"

namespace hamon::cli {

class RestorePoint {
 public:
  /// Keeps what an extension may change in the complete run `final_dir`, whose streamed
  /// traces are reopened as `traces` says. Throws std::runtime_error (DIR unchanged).
  RestorePoint(const std::filesystem::path& final_dir, const std::vector<StreamExtent>& traces);
  RestorePoint(const RestorePoint&) = delete;
  RestorePoint& operator=(const RestorePoint&) = delete;

  /// Puts DIR back as it was (from DIR.partial, or DIR itself when it was not renamed
  /// yet) and drops the restore point. Never throws: what it cannot restore it reports
  /// on stderr, naming where the kept files are.
  void roll_back() noexcept;
  /// Drops the restore point (the extension finished, or stopped for `hamon resume`).
  void drop() noexcept;

 private:
  struct KeptStream {
    std::string name;
    std::uintmax_t size = 0;
    std::uintmax_t kept_bytes = 0;
    std::string header;  // the first bytes, up to the stream header's length
    std::string cut;     // the bytes past kept_bytes (none for a run that ended cleanly)
  };
  std::filesystem::path final_dir_;
  std::filesystem::path kept_;       // the sibling directory of the links
  std::vector<std::string> linked_;  // names kept in kept_
  std::vector<std::string> absent_;  // names an extension may create
  std::vector<KeptStream> streams_;
};

}  // namespace hamon::cli
