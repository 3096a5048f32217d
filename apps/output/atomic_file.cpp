// SPDX-License-Identifier: Apache-2.0
#include "output/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace hamon::cli {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw std::runtime_error("cannot write " + path.string() + ": " + what);
}

/// Removes the temporary file unless released (the rename consumed it).
class TemporaryFile {
 public:
  explicit TemporaryFile(std::filesystem::path path) : path_(std::move(path)) {}
  ~TemporaryFile() {
    if (!released_) {
      std::error_code ignored;
      std::filesystem::remove(path_, ignored);
    }
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  void release() { released_ = true; }

 private:
  std::filesystem::path path_;
  bool released_ = false;
};

/// fsyncs `target` (a file or a directory); throws naming `path` (the file being written).
/// A file system that cannot sync such a file (EINVAL) has nothing to report.
void sync_or_fail(const std::filesystem::path& target, const std::filesystem::path& path,
                  const char* what) {
  const int fd = ::open(target.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, std::string(what) + ": " + std::strerror(errno));
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const int error = errno;
    ::close(fd);
    fail(path, std::string(what) + ": " + std::strerror(error));
  }
  ::close(fd);
}

}  // namespace

mode_t current_umask() {
  static const mode_t mask = [] {
    const mode_t m = ::umask(0);
    ::umask(m);
    return m;
  }();
  return mask;
}

void write_atomically(const std::filesystem::path& path,
                      const std::function<void(std::ostream&)>& write) {
  std::string pattern = path.string() + ".partial-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(path, std::strerror(errno));
  // mkstemp makes the file private (0600); a result file gets the usual 0666 & ~umask.
  ::fchmod(fd, 0666 & ~current_umask());
  ::close(fd);
  const std::filesystem::path temporary(name.data());
  TemporaryFile guard(temporary);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) fail(path, "cannot open " + temporary.string());
    write(out);
    out.flush();
    if (!out) fail(path, "write error (disk full?)");
  }
  // Flush to disk before the rename makes the name visible: a file whose bytes may not be
  // on disk must not replace one whose bytes are.
  sync_or_fail(temporary, path, "fsync failed");
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) fail(path, ec.message());
  guard.release();
  // ... and the directory entry itself: without it a crash may bring back the old file.
  const std::filesystem::path dir = path.parent_path();
  sync_or_fail(dir.empty() ? std::filesystem::path(".") : dir, path,
               "fsync of its directory failed");
}

}  // namespace hamon::cli
