// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/sampler/checkpoint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <type_traits>
#include <utility>
#include <vector>

#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/model/variable_kind.hpp"
#include "hamon/core/sampler/byte_codec.hpp"
#include "hamon/core/sampler/detail/state_sections.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/version.hpp"

namespace hamon {

namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'H', 'A', 'M', 'O', 'N', 'C', 'K', 'P'};

using detail::ByteReader;
using detail::ByteWriter;
using detail::read_state_sections;
using detail::state_sections;

// ---- sections ----------------------------------------------------------------------------

std::string identity_bytes(const CheckpointIdentity& id) {
  ByteWriter w;
  w.text(id.hamon_version);
  w.u32(id.stream_version);
  w.u64(id.model_fingerprint);
  w.u64(id.options_fingerprint);
  return w.bytes();
}

CheckpointIdentity read_identity(ByteReader& r) {
  CheckpointIdentity id;
  id.hamon_version = r.text();
  id.stream_version = r.u32();
  id.model_fingerprint = r.u64();
  id.options_fingerprint = r.u64();
  return id;
}

std::string attachment_bytes(const std::map<std::string, std::string>& attachments) {
  ByteWriter w;
  w.u64(attachments.size());
  for (const auto& [name, text] : attachments) {
    w.text(name);
    w.text(text);
  }
  return w.bytes();
}

std::uint32_t crc_of(const std::string& bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib takes 32-bit lengths: feed large payloads in pieces.
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::size_t piece = std::min<std::size_t>(bytes.size() - done, 1u << 30);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + done), static_cast<uInt>(piece));
    done += piece;
  }
  return static_cast<std::uint32_t>(crc);
}

[[noreturn]] void system_error(const fs::path& path, const std::string& what) {
  throw std::runtime_error("cannot write checkpoint " + path.string() + ": " + what + ": " +
                           std::strerror(errno));
}

void write_all(int fd, const std::string& bytes, const fs::path& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      system_error(path, "write failed");
    }
    done += static_cast<std::size_t>(n);
  }
}

/// Makes the renames durable: until the directory is on disk a crash may bring back the
/// previous checkpoint under PATH, so a failure is the save's failure (but for a file
/// system that cannot sync a directory, EINVAL: nothing to report).
void fsync_directory(const fs::path& dir, const fs::path& path) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) system_error(path, "cannot open its directory to fsync it");
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const int error = errno;
    ::close(fd);
    errno = error;
    system_error(path, "fsync of its directory failed");
  }
  ::close(fd);
}

}  // namespace

std::uint64_t options_fingerprint(const NrptOptions& o) {
  Fingerprint f;
  f.add(std::string("hamon::NrptOptions"));
  for (double beta : ladder_of(o)) f.add(beta);
  f.add(o.burn_in).add(o.n_expl).add(o.seed);
  f.add(static_cast<std::int64_t>(o.adapt_schedule)).add(o.adapt_phases);
  const ObserverOptions& obs = o.observers;
  f.add(obs.samples_every);
  f.add(static_cast<std::int64_t>(obs.sample_nodes.size()));
  for (std::int64_t node : obs.sample_nodes) f.add(node);
  f.add(static_cast<std::int64_t>(obs.energies)).add(static_cast<std::int64_t>(obs.index_process));
  f.add(static_cast<std::int64_t>(obs.moments)).add(obs.moment_batches);
  f.add(static_cast<std::int64_t>(obs.edge_moments));
  // Only when used, so that the fingerprints of runs without it stay.
  if (obs.magnetization) f.add(std::string("magnetization"));
  // Only when used, so that one-replica checkpoints keep their identity.
  if (o.n_replicas != 1)
    f.add(std::string("replicas")).add(static_cast<std::int64_t>(o.n_replicas));
  if (o.reference != AnnealingReference::automatic) {  // older fingerprints stay
    f.add(std::string("reference")).add(static_cast<std::int64_t>(o.reference));
  }
  if (o.cluster_moves != ClusterMoves::none) {
    f.add(std::string("cluster_moves")).add(static_cast<std::int64_t>(o.cluster_moves));
  }
  return f.value();
}

CheckpointIdentity identity_of(const SpinModel& model, const NrptOptions& options) {
  return identity_of(model_fingerprint(model), options);
}

CheckpointIdentity identity_of(std::uint64_t model_fingerprint, const NrptOptions& options) {
  CheckpointIdentity id;
  id.hamon_version = version;
  id.stream_version = detail::kRandomStreamVersion;
  id.model_fingerprint = model_fingerprint;
  id.options_fingerprint = options_fingerprint(options);
  return id;
}

void check_identity(const CheckpointIdentity& saved, const CheckpointIdentity& expected,
                    const std::string& name) {
  auto differs = [&](const std::string& what, const std::string& a, const std::string& b) {
    throw CheckpointError(name + ": " + what + " differs: the checkpoint has " + a +
                          ", this run has " + b);
  };
  if (saved.stream_version != expected.stream_version) {
    differs("the random-stream version", std::to_string(saved.stream_version),
            std::to_string(expected.stream_version));
  }
  if (saved.model_fingerprint != expected.model_fingerprint) {
    differs("the model (fingerprint)", to_hex(saved.model_fingerprint),
            to_hex(expected.model_fingerprint));
  }
  if (saved.options_fingerprint != expected.options_fingerprint) {
    differs(
        "the sampling options (ladder, burn-in, sweeps, seed, adaptation, observers, replicas or "
        "cluster moves)",
        to_hex(saved.options_fingerprint), to_hex(expected.options_fingerprint));
  }
}

template <class Value>
void write_checkpoint(std::ostream& out, const CheckpointOf<Value>& c) {
  std::vector<std::pair<std::string, std::string>> sections = {
      {"IDNT", identity_bytes(c.identity)}};
  const std::string kind = StorageTag<Value>::checkpoint;
  if (!kind.empty()) sections.emplace_back("VKND", kind);
  for (auto& section : state_sections(c.state)) sections.push_back(std::move(section));
  sections.emplace_back("ATCH", attachment_bytes(c.attachments));
  ByteWriter head;
  for (char ch : kMagic) head.u8(static_cast<std::uint8_t>(ch));
  head.u32(kCheckpointFormatVersion);
  head.u32(static_cast<std::uint32_t>(sections.size()));
  out.write(head.bytes().data(), static_cast<std::streamsize>(head.bytes().size()));
  for (const auto& [tag, payload] : sections) {
    ByteWriter frame;
    for (char ch : tag) frame.u8(static_cast<std::uint8_t>(ch));
    frame.u64(payload.size());
    frame.u32(crc_of(payload));
    out.write(frame.bytes().data(), static_cast<std::streamsize>(frame.bytes().size()));
    out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
  }
}

template <class Value>
CheckpointOf<Value> read_checkpoint(std::istream& in, const std::string& name) {
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ByteReader file(bytes, name);
  for (char ch : kMagic) {
    if (file.u8() != static_cast<std::uint8_t>(ch)) file.fail("is not a hamon checkpoint");
  }
  const std::uint32_t format = file.u32();
  if (format < kOldestReadableCheckpointFormat || format > kCheckpointFormatVersion) {
    file.fail("has checkpoint format version " + std::to_string(format) + "; this hamon reads " +
              std::to_string(kOldestReadableCheckpointFormat) + " to " +
              std::to_string(kCheckpointFormatVersion));
  }
  const std::uint32_t n_sections = file.u32();
  std::map<std::string, std::string> payloads;
  for (std::uint32_t k = 0; k < n_sections; ++k) {
    std::string tag;
    for (int b = 0; b < 4; ++b) tag += static_cast<char>(file.u8());
    const std::uint64_t length = file.u64();
    const std::uint32_t crc = file.u32();
    if (length > bytes.size()) file.fail("is truncated (section " + tag + ")");
    std::string payload = file.block(length);
    if (crc_of(payload) != crc) file.fail("is corrupt: section " + tag + " fails its checksum");
    payloads[tag] = std::move(payload);
  }
  file.finish();
  if (format < 4 && payloads.count("MAGN") == 0) {
    // Format 3 predates the magnetisation section, and no run of it could ask for one: its
    // state has empty magnetisation batches, whose bytes a default state's section holds.
    for (auto& [tag, payload] : state_sections(SamplerStateOf<Value>{})) {
      if (tag == "MAGN") payloads[tag] = std::move(payload);
    }
  }
  auto section = [&](const char* tag) -> const std::string& {
    const auto it = payloads.find(tag);
    if (it == payloads.end()) file.fail(std::string("has no section ") + tag);
    return it->second;
  };
  const auto kind = payloads.find("VKND");
  const std::string saved_kind = kind == payloads.end() ? "" : kind->second;
  if (saved_kind != StorageTag<Value>::checkpoint) {
    file.fail(saved_kind.empty()
                  ? "holds the state of a discrete model (spins or Potts states), not of a "
                    "continuous one"
                  : "holds the state of a continuous model (real values), not of a discrete one");
  }
  CheckpointOf<Value> c;
  {
    ByteReader r(section("IDNT"), name + " section IDNT");
    c.identity = read_identity(r);
    r.finish();
  }
  read_state_sections(c.state, name, section);
  {
    ByteReader r(section("ATCH"), name + " section ATCH");
    const std::uint64_t n = r.u64();
    for (std::uint64_t k = 0; k < n; ++k) {
      std::string key = r.text();
      c.attachments[key] = r.text();
    }
    r.finish();
  }
  return c;
}

CheckpointFiles checkpoint_files(const fs::path& path) {
  return {path, fs::path(path.string() + ".new"), fs::path(path.string() + ".prev")};
}

template <class Value>
void save_checkpoint(const fs::path& path, const CheckpointOf<Value>& checkpoint) {
  std::ostringstream buffer;
  write_checkpoint(buffer, checkpoint);
  const std::string bytes = buffer.str();
  const CheckpointFiles files = checkpoint_files(path);
  const fs::path& fresh = files.fresh;
  const int fd = ::open(fresh.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) system_error(fresh, "cannot create it");
  try {
    write_all(fd, bytes, fresh);
    if (::fsync(fd) != 0) system_error(fresh, "fsync failed");
  } catch (...) {
    ::close(fd);
    std::error_code ignored;
    fs::remove(fresh, ignored);
    throw;
  }
  if (::close(fd) != 0) system_error(fresh, "close failed");
  std::error_code ec;
  if (fs::exists(path, ec)) {
    fs::rename(path, files.previous, ec);
    if (ec) throw std::runtime_error("cannot keep the previous checkpoint: " + ec.message());
  }
  fs::rename(fresh, path, ec);
  if (ec) throw std::runtime_error("cannot rename " + fresh.string() + ": " + ec.message());
  fsync_directory(path.parent_path(), path);
}

template <class Value>
LoadedCheckpointOf<Value> load_checkpoint(const fs::path& path) {
  LoadedCheckpointOf<Value> best;
  bool found = false;
  std::vector<std::string> problems;
  const CheckpointFiles files = checkpoint_files(path);
  for (const fs::path& candidate : {files.current, files.fresh, files.previous}) {
    std::error_code ec;
    if (!fs::exists(candidate, ec)) continue;
    std::ifstream in(candidate, std::ios::binary);
    if (!in) {
      problems.push_back(candidate.string() + ": cannot be opened");
      continue;
    }
    try {
      CheckpointOf<Value> c = read_checkpoint<Value>(in, candidate.string());
      if (found && c.state.rounds_done <= best.checkpoint.state.rounds_done) {
        problems.push_back(candidate.string() + ": older than " + best.file.string());
        continue;
      }
      if (found) problems.push_back(best.file.string() + ": older than " + candidate.string());
      best.checkpoint = std::move(c);
      best.file = candidate;
      found = true;
    } catch (const CheckpointError& e) {
      problems.push_back(e.what());
    }
  }
  if (!found) {
    std::string why = "no usable checkpoint at " + path.string();
    for (const std::string& p : problems) why += "\n  " + p;
    if (problems.empty()) why += " (none was written)";
    throw CheckpointError(why);
  }
  for (const std::string& p : problems) {
    if (p.find(": older than ") == std::string::npos) best.skipped.push_back(p);
  }
  return best;
}

#define HAMON_CHECKPOINT_FILES(VALUE)                                                     \
  template void write_checkpoint(std::ostream&, const CheckpointOf<VALUE>&);              \
  template CheckpointOf<VALUE> read_checkpoint<VALUE>(std::istream&, const std::string&); \
  template void save_checkpoint(const fs::path&, const CheckpointOf<VALUE>&);             \
  template LoadedCheckpointOf<VALUE> load_checkpoint<VALUE>(const fs::path&);
HAMON_CHECKPOINT_FILES(std::int8_t)
HAMON_CHECKPOINT_FILES(double)
#undef HAMON_CHECKPOINT_FILES

}  // namespace hamon
