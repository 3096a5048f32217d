// SPDX-License-Identifier: Apache-2.0
#include "output/restore_point.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>

#include "output/run_directory.hpp"
#include "output/run_files.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

/// The files an extension replaces, removes or creates beside the traces.
std::vector<std::string> replaced_names() {
  const std::string checkpoint = kCheckpointFile;
  return {kConfigFile,         kSummaryFile,           kBetasFile,
          kBestStateFile,      kOverlapHistogramsFile, checkpoint,
          checkpoint + ".new", checkpoint + ".prev"};
}

std::string read_range(const fs::path& path, std::uintmax_t from, std::uintmax_t to) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<std::size_t>(to - from), '\0');
  in.seekg(static_cast<std::streamoff>(from));
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw std::runtime_error("cannot read " + path.string() + " to keep it");
  return bytes;
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

}  // namespace

RestorePoint::RestorePoint(const fs::path& final_dir, const std::vector<StreamExtent>& traces)
    : final_dir_(normalised_run_dir(final_dir)) {
  for (const StreamExtent& t : traces) {
    KeptStream s;
    s.name = t.path.filename().string();
    s.size = fs::file_size(t.path);
    s.kept_bytes = std::min(t.kept_bytes, s.size);
    s.header = read_range(t.path, 0, std::min<std::uintmax_t>(kStreamHeaderBytes, s.size));
    s.cut = read_range(t.path, s.kept_bytes, s.size);
    streams_.push_back(std::move(s));
  }
  kept_ = make_sibling_directory(final_dir_, ".restore-");
  try {
    for (const std::string& name : replaced_names()) {
      std::error_code ec;
      if (fs::exists(final_dir_ / name, ec)) {
        keep_file(final_dir_ / name, kept_ / name);
        linked_.push_back(name);
      } else {
        absent_.push_back(name);
      }
    }
  } catch (...) {
    drop();
    throw;
  }
}

void RestorePoint::roll_back() noexcept {
  std::vector<std::string> problems;
  const fs::path partial = partial_dir_of(final_dir_);
  std::error_code ec;
  // The rename to DIR.partial may not have happened (it failed, or came later).
  const bool renamed = fs::is_directory(partial, ec) && !fs::exists(final_dir_, ec);
  const fs::path dir = renamed ? partial : final_dir_;
  for (const KeptStream& s : streams_) {
    const fs::path path = dir / s.name;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    const bool ok = fd >= 0 && ::ftruncate(fd, static_cast<off_t>(s.size)) == 0 &&
                    write_at(fd, s.cut, s.kept_bytes) && write_at(fd, s.header, 0) &&
                    ::fsync(fd) == 0;
    if (!ok) problems.push_back(path.string() + ": " + std::strerror(errno));
    if (fd >= 0) ::close(fd);
  }
  for (const std::string& name : absent_) {
    fs::remove(dir / name, ec);
    if (ec) problems.push_back((dir / name).string() + ": " + ec.message());
  }
  for (const std::string& name : linked_) {
    fs::rename(kept_ / name, dir / name, ec);
    if (ec) problems.push_back((dir / name).string() + ": " + ec.message());
  }
  if (renamed && problems.empty()) {
    fs::rename(partial, final_dir_, ec);
    if (ec) problems.push_back("renaming " + partial.string() + " back: " + ec.message());
  }
  if (problems.empty()) {
    drop();
    return;
  }
  std::cerr << "hamon: error: could not put " << final_dir_.string()
            << " back as it was before the extension (" << listed(problems)
            << "); the files it replaced are kept in " << kept_.string() << "\n";
}

void RestorePoint::drop() noexcept {
  std::error_code ec;
  for (const std::string& name : linked_) fs::remove(kept_ / name, ec);
  fs::remove(kept_, ec);
}

}  // namespace hamon::cli
