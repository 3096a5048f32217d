// SPDX-License-Identifier: Apache-2.0
#include "output/restore_point.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "output/atomic_file.hpp"
#include "output/run_directory.hpp"
#include "output/run_files.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kRecordHeading = "hamon extension record 1";

/// The files an extension replaces, removes or creates beside the traces.
std::vector<std::string> replaced_names() {
  const std::string checkpoint = kCheckpointFile;
  return {kConfigFile,    kSummaryFile,        kBetasFile,
          kBestStateFile, kBestAssignmentFile, kOverlapHistogramsFile,
          checkpoint,     checkpoint + ".new", checkpoint + ".prev"};
}

struct KeptStream {
  std::string name;
  std::uintmax_t size = 0;
  std::uintmax_t kept_bytes = 0;
};

/// The record: the traces' sizes, the files kept (linked) and those the complete run lacks.
struct Record {
  std::vector<KeptStream> streams;
  std::vector<std::string> linked, absent;
};

std::string read_range(const fs::path& path, std::uintmax_t from, std::uintmax_t to) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<std::size_t>(to - from), '\0');
  in.seekg(static_cast<std::streamoff>(from));
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw std::runtime_error("cannot read " + path.string() + " to keep it");
  return bytes;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return bytes.str();
}

/// Writes `bytes` at `offset`; false (errno set) on failure.
bool write_at(int fd, const std::string& bytes, std::uintmax_t offset) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n =
        ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

/// A hard link of `from` at `to` (a copy where the file system has none).
void keep_file(const fs::path& from, const fs::path& to) {
  if (::link(from.c_str(), to.c_str()) == 0) return;
  std::error_code ec;
  fs::copy_file(from, to, ec);
  if (ec) throw std::runtime_error("cannot keep " + from.string() + ": " + ec.message());
}

void write_record(const fs::path& kept, const Record& r) {
  write_atomically(kept / kExtensionRecordFile, [&](std::ostream& out) {
    out << kRecordHeading << "\n";
    for (const KeptStream& s : r.streams) {
      out << "stream " << s.name << " " << s.size << " " << s.kept_bytes << "\n";
    }
    for (const std::string& name : r.linked) out << "linked " << name << "\n";
    for (const std::string& name : r.absent) out << "absent " << name << "\n";
  });
}

/// A name in the record is one of hamon's, never a path.
std::string checked_name(const std::string& name, const fs::path& file) {
  if (!is_hamon_file_name(name) || name.find('/') != std::string::npos) {
    throw std::runtime_error(file.string() + ": '" + name + "' is not a file of a run");
  }
  return name;
}

Record read_record(const fs::path& kept) {
  const fs::path file = kept / kExtensionRecordFile;
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line) || line != kRecordHeading) {
    throw std::runtime_error("cannot read " + file.string() + " (missing, or not a record)");
  }
  Record r;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string what, name;
    words >> what >> name;
    if (what == "stream") {
      KeptStream s;
      s.name = checked_name(name, file);
      if (!(words >> s.size >> s.kept_bytes) || s.kept_bytes > s.size) {
        throw std::runtime_error(file.string() + ": a bad line: " + line);
      }
      r.streams.push_back(s);
    } else if (what == "linked") {
      r.linked.push_back(checked_name(name, file));
    } else if (what == "absent") {
      r.absent.push_back(checked_name(name, file));
    } else {
      throw std::runtime_error(file.string() + ": a bad line: " + line);
    }
  }
  return r;
}

/// Why `record` in `kept` cannot put the complete run back in `dir`, or "" when it can:
/// checked before anything changes.
std::string unrestorable(const fs::path& kept, const Record& r, const fs::path& dir) {
  std::error_code ec;
  for (const KeptStream& s : r.streams) {
    if (!fs::is_regular_file(dir / s.name, ec)) return (dir / s.name).string() + " is missing";
    for (const char* part : {".header", ".cut"}) {
      if (!fs::is_regular_file(kept / (s.name + part), ec)) {
        return (kept / (s.name + part)).string() + " is missing";
      }
    }
  }
  for (const std::string& name : r.linked) {
    // Gone from the record only when a restore that was stopped put it back already.
    if (!fs::is_regular_file(kept / name, ec) && !fs::is_regular_file(dir / name, ec)) {
      return (kept / name).string() + " is missing";
    }
  }
  return "";
}

/// Puts the complete run's bytes back in `dir`; each step can be done again.
void restore(const fs::path& kept, const Record& r, const fs::path& dir) {
  for (const KeptStream& s : r.streams) {
    const fs::path path = dir / s.name;
    const std::string header = read_all(kept / (s.name + ".header"));
    const std::string cut = read_all(kept / (s.name + ".cut"));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    const bool ok = fd >= 0 && ::ftruncate(fd, static_cast<off_t>(s.size)) == 0 &&
                    write_at(fd, cut, s.kept_bytes) && write_at(fd, header, 0) && ::fsync(fd) == 0;
    const std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    if (!ok) throw std::runtime_error(path.string() + ": " + why);
  }
  std::error_code ec;
  for (const std::string& name : r.absent) {
    fs::remove(dir / name, ec);
    if (ec) throw std::runtime_error((dir / name).string() + ": " + ec.message());
  }
  // Writes the extension left unfinished (a kill): the complete run had none.
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ignored;
    if (is_atomic_temporary(it->path().filename().string())) fs::remove(it->path(), ignored);
  }
  for (const std::string& name : r.linked) {
    if (!fs::exists(kept / name, ec)) continue;
    fs::rename(kept / name, dir / name, ec);
    if (ec) throw std::runtime_error((dir / name).string() + ": " + ec.message());
  }
}

}  // namespace

RestorePoint::RestorePoint(const fs::path& final_dir, const std::vector<StreamExtent>& traces)
    : final_dir_(normalised_run_dir(final_dir)) {
  kept_ = make_sibling_directory(final_dir_, ".restore-");
  try {
    Record r;
    for (const StreamExtent& t : traces) {
      KeptStream s;
      s.name = t.path.filename().string();
      s.size = fs::file_size(t.path);
      s.kept_bytes = std::min(t.kept_bytes, s.size);
      const std::string header =
          read_range(t.path, 0, std::min<std::uintmax_t>(kStreamHeaderBytes, s.size));
      const std::string cut = read_range(t.path, s.kept_bytes, s.size);
      write_atomically(kept_ / (s.name + ".header"), [&](std::ostream& out) { out << header; });
      write_atomically(kept_ / (s.name + ".cut"), [&](std::ostream& out) { out << cut; });
      r.streams.push_back(s);
    }
    for (const std::string& name : replaced_names()) {
      std::error_code ec;
      if (fs::exists(final_dir_ / name, ec)) {
        keep_file(final_dir_ / name, kept_ / name);
        r.linked.push_back(name);
      } else {
        r.absent.push_back(name);
      }
    }
    write_record(kept_, r);
  } catch (...) {
    remove_extension_record(kept_);
    throw;
  }
}

void RestorePoint::attach() {
  const fs::path to = partial_dir_of(final_dir_) / kBeforeExtendDir;
  std::error_code ec;
  fs::rename(kept_, to, ec);
  if (ec) {
    throw std::runtime_error("cannot move " + kept_.string() + " to " + to.string() + ": " +
                             ec.message());
  }
  kept_ = to;
  attached_ = true;
}

void RestorePoint::roll_back() noexcept {
  const fs::path partial = partial_dir_of(final_dir_);
  std::error_code ec;
  // The rename to DIR.partial may not have happened (it failed, or came later).
  const bool renamed = fs::is_directory(partial, ec) && !fs::exists(final_dir_, ec);
  const fs::path dir = renamed ? partial : final_dir_;
  try {
    const Record r = read_record(kept_);
    const std::string why = unrestorable(kept_, r, dir);
    if (!why.empty()) throw std::runtime_error(why);
    restore(kept_, r, dir);
    remove_extension_record(kept_);
    if (renamed) {
      fs::rename(partial, final_dir_, ec);
      if (ec) throw std::runtime_error("renaming " + partial.string() + " back: " + ec.message());
    }
  } catch (const std::exception& e) {
    std::cerr << "hamon: error: could not put " << final_dir_.string()
              << " back as it was before the extension (" << e.what()
              << "); what it replaced is kept in " << kept_.string() << "\n";
  }
}

void RestorePoint::release() noexcept {
  if (!attached_) remove_extension_record(kept_);
}

bool is_interrupted_extension(const fs::path& partial) {
  std::error_code ec;
  return fs::is_directory(partial / kBeforeExtendDir, ec);
}

std::string extension_not_abandonable(const fs::path& final_dir) {
  const fs::path dir = normalised_run_dir(final_dir);
  const fs::path partial = partial_dir_of(dir);
  const fs::path kept = partial / kBeforeExtendDir;
  std::error_code ec;
  if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec))) {
    return dir.string() + " exists and is not empty: the complete run in " + partial.string() +
           " cannot be put back there; move " + dir.string() + " away first";
  }
  try {
    const Record r = read_record(kept);
    const std::string why = unrestorable(kept, r, partial);
    if (!why.empty()) return "cannot put the complete run back from " + kept.string() + ": " + why;
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

void abandon_extension(const fs::path& final_dir) {
  const fs::path dir = normalised_run_dir(final_dir);
  const fs::path partial = partial_dir_of(dir);
  const fs::path kept = partial / kBeforeExtendDir;
  const std::string why = extension_not_abandonable(dir);
  if (!why.empty()) throw std::runtime_error(why);
  restore(kept, read_record(kept), partial);
  remove_extension_record(kept);
  std::error_code ec;
  fs::rename(partial, dir, ec);
  if (ec) {
    throw std::runtime_error("the complete run is back in " + partial.string() +
                             ", but renaming it to " + dir.string() + " failed: " + ec.message());
  }
}

}  // namespace hamon::cli
