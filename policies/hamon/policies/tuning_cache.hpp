// SPDX-License-Identifier: Apache-2.0
#pragma once
// The persistent tuning cache (docs/routing.md, "Persistent caches", item 2): a tuned
// plan (n_chains, betas, n_expl and what the tuning measured) stored on disk under a key, so
// a repeat run skips tuning. On for every backend.
//
// Directory: HAMON_CACHE_DIR when set (an empty value turns the cache off; the entries lie
// directly in it), else ${XDG_CACHE_HOME:-$HOME/.cache}/hamon/tuning.
//
// An entry is one small text file, <fingerprint>.plan, the fingerprint a 64-bit hash of the
// key text (FNV-1a + SplitMix64, hex). The file starts with a header line, echoes the full
// key (so a hash collision or a stale format is detected, never trusted), holds the plan
// with every double as an exact hex float, and ends with a checksum of everything before
// it. Reading verifies all of it; a corrupt, truncated or mismatched entry is ignored with
// a warning on stderr. Writes go to a temporary file in the same directory that is then
// renamed over the entry, so a reader never sees half an entry.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hamon {

inline constexpr const char* kTuningCacheDirEnv = "HAMON_CACHE_DIR";

/// The cache directory per the rules above, or nullopt when the cache is off (or neither
/// XDG_CACHE_HOME nor HOME gives a default). Not created here.
std::optional<std::filesystem::path> tuning_cache_directory();

/// What an entry holds.
struct TunedPlanRecord {
  std::int32_t n_chains = 0;
  std::vector<double> betas;
  std::int32_t n_expl = 1;
  double Lambda = 0.0;
  std::optional<bool> barrier_identified;
  std::optional<bool> conveyor_alive;
  double tuning_seconds = 0.0;  // what tuning took when the entry was made
};

class TuningCache {
 public:
  explicit TuningCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

  const std::filesystem::path& directory() const { return directory_; }

  /// The fingerprint of a key (lines joined by '\n', each line free of '\n').
  static std::uint64_t fingerprint(const std::string& key);
  std::filesystem::path entry_path(const std::string& key) const;

  /// The entry for `key`: nullopt when there is none (silently) or when it is unusable
  /// (with a warning on stderr naming the file and the reason).
  std::optional<TunedPlanRecord> load(const std::string& key) const;

  /// Writes the entry atomically (creating the directory); false, with a warning on
  /// stderr, when it cannot.
  bool store(const std::string& key, const TunedPlanRecord& record) const;

  /// The file text of an entry (exposed for tests).
  static std::string serialize(const std::string& key, const TunedPlanRecord& record);

 private:
  std::filesystem::path directory_;
};

}  // namespace hamon
