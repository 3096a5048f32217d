// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checkpoint files: a SamplerState with what it belongs to, portable across execution
// spaces and machines.
//
// Layout (every integer little-endian, fixed width; doubles by IEEE-754 bit pattern):
//   "HAMONCKP"  u32 format version  u32 section count
//   then per section: 4-byte tag, u64 payload length, u32 CRC-32 (zlib) of the payload,
//   payload. Sections: IDNT (identity: hamon version, random-stream version, model and
//   options fingerprints; not the space that wrote it, so the file does not depend on
//   it), STAT (round, ladder, permutations,
//   counters), SPIN (spins, machine-major), MOMT (moment batches; the sums in the
//   narrowest of 1, 2, 4 or 8 bytes that holds them all), TRAC (trace rows and
//   kept traces), BEST (the best states: per machine the lowest energy, its round, chain,
//   beta and round trips, and its variables machine-major; since format version 2), OVLP
//   (the replica-overlap batches and histograms; since format version 3), MAGN (the
//   magnetisation batches per temperature; since format version 4), and
//   ATCH (named text attachments, e.g. the CLI's resolved experiment).
// A reader checks the magic, the version, every length and every checksum before it
// believes a byte; any failure is a CheckpointError naming the file and what is wrong.
//
// save_checkpoint writes PATH atomically and keeps the previous one: the new file goes to
// PATH.new (written, fsync'ed), PATH is renamed to PATH.prev, PATH.new to PATH, and the
// directory is fsync'ed. load_checkpoint takes the newest good one of PATH, PATH.new and
// PATH.prev, and says which it skipped and why.

#include <cstdint>
#include <filesystem>
#include <istream>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/state/sampler_state.hpp"

namespace hamon {

inline constexpr std::uint32_t kCheckpointFormatVersion = 4;
/// Format 3 files (no MAGN section) still resume: their runs never observed magnetisation.
inline constexpr std::uint32_t kOldestReadableCheckpointFormat = 3;

class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a state belongs to; two identities must agree for a state to continue a run.
struct CheckpointIdentity {
  std::string hamon_version;
  std::uint32_t stream_version = 0;
  std::uint64_t model_fingerprint = 0;
  std::uint64_t options_fingerprint = 0;
};

/// `Value`: the variables' storage type (variable_kind.hpp); the files below hold
/// Checkpoint (one-byte variables).
template <class Value>
struct CheckpointOf {
  CheckpointIdentity identity;
  SamplerStateOf<Value> state;
  std::map<std::string, std::string> attachments;
};
using Checkpoint = CheckpointOf<std::int8_t>;

/// The fingerprint of every option that shapes the run's bits: the ladder, burn-in,
/// sweeps, seed, adaptation and observers. Not n_rounds (the planned length: a run may be
/// extended) nor the progress callback.
std::uint64_t options_fingerprint(const NrptOptions& options);

/// This build's identity for a run of `model` with `options`.
CheckpointIdentity identity_of(const SpinModel& model, const NrptOptions& options);
/// The same from the model's fingerprint (fingerprint.hpp; DeviceModel::fingerprint), for
/// a caller that holds the model in an execution space only (Sampler::identity()).
CheckpointIdentity identity_of(std::uint64_t model_fingerprint, const NrptOptions& options);

/// Throws CheckpointError ("NAME: ... differs: saved X, now Y") unless `saved` may
/// continue a run whose identity is `expected`: the same random-stream version, model and
/// options. The hamon version is not compared: a state in a format this build reads
/// (read_checkpoint checks the format version), drawing the same random stream, continues
/// with the same bits whichever version wrote it.
void check_identity(const CheckpointIdentity& saved, const CheckpointIdentity& expected,
                    const std::string& name);

/// A checkpoint of a continuous model (CheckpointOf<double>) says so in a VKND section; a
/// reader of the other kind refuses it by name. Instantiated for std::int8_t and double.
template <class Value>
void write_checkpoint(std::ostream& out, const CheckpointOf<Value>& checkpoint);
/// The one-byte variables' checkpoint, also from a braced initialiser.
inline void write_checkpoint(std::ostream& out, const Checkpoint& checkpoint) {
  write_checkpoint<std::int8_t>(out, checkpoint);
}
/// `name` (a file name) is what errors call the stream.
template <class Value = std::int8_t>
CheckpointOf<Value> read_checkpoint(std::istream& in, const std::string& name);

/// The files save_checkpoint keeps for `path` (see the top): `path` itself, `path`.new (a
/// write a kill interrupted) and `path`.prev (its predecessor).
struct CheckpointFiles {
  std::filesystem::path current;
  std::filesystem::path fresh;
  std::filesystem::path previous;
};
CheckpointFiles checkpoint_files(const std::filesystem::path& path);

/// Atomic replacement of `path`, keeping the previous checkpoint (see the top). Throws
/// std::runtime_error (a failed run, not bad input) naming the file and the system error;
/// the earlier checkpoint survives.
template <class Value>
void save_checkpoint(const std::filesystem::path& path, const CheckpointOf<Value>& checkpoint);
/// The one-byte variables' checkpoint, also from a braced initialiser.
inline void save_checkpoint(const std::filesystem::path& path, const Checkpoint& checkpoint) {
  save_checkpoint<std::int8_t>(path, checkpoint);
}

template <class Value>
struct LoadedCheckpointOf {
  CheckpointOf<Value> checkpoint;
  std::filesystem::path file;        // the one used
  std::vector<std::string> skipped;  // "FILE: why" for each candidate not used
};

/// The newest good checkpoint of path, path.new and path.prev. Throws CheckpointError
/// listing every candidate's problem when none is good.
template <class Value = std::int8_t>
LoadedCheckpointOf<Value> load_checkpoint(const std::filesystem::path& path);
using LoadedCheckpoint = LoadedCheckpointOf<std::int8_t>;

}  // namespace hamon
