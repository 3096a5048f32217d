// SPDX-License-Identifier: Apache-2.0
#include "output/npy_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "output/atomic_file.hpp"
#include "output/npy.hpp"
#include "output/run_files.hpp"

namespace hamon::cli {

namespace {

void write_at(int fd, const void* data, std::size_t size, off_t offset, const char*& error) {
  const auto* bytes = static_cast<const char*>(data);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pwrite(fd, bytes + done, size - done, offset + static_cast<off_t>(done));
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      return;
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

NpyStream::NpyStream(std::filesystem::path path, std::string descr, std::size_t item_size,
                     std::int64_t columns, std::int64_t keep_rows)
    : path_(std::move(path)), descr_(std::move(descr)), item_size_(item_size), columns_(columns) {
  const bool reopen = keep_rows >= 0;
  fd_ = ::open(path_.c_str(), reopen ? O_RDWR | O_CLOEXEC : O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
               0666 & ~current_umask());
  if (fd_ < 0) fail(reopen ? "cannot reopen it" : "cannot create it");
  if (reopen) {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail("cannot stat it");
    const auto wanted = static_cast<off_t>(kStreamHeaderBytes +
                                           static_cast<std::size_t>(keep_rows) *
                                               static_cast<std::size_t>(columns_) * item_size_);
    if (st.st_size < wanted) {
      fail("holds " + std::to_string(st.st_size) + " bytes, fewer than the " +
           std::to_string(keep_rows) + " rows the checkpoint recorded");
    }
    if (::ftruncate(fd_, wanted) != 0) fail("cannot cut it back to the checkpoint");
    rows_ = keep_rows;
  }
  sync();
}

NpyStream::~NpyStream() {
  if (fd_ >= 0) ::close(fd_);
}

void NpyStream::fail(const std::string& what) const {
  const int saved = errno;
  throw std::runtime_error(path_.string() + ": " + what +
                           (saved != 0 ? std::string(" (") + std::strerror(saved) + ")" : ""));
}

void NpyStream::append(const void* rows, std::int64_t n_rows, std::int64_t columns) {
  if (columns != columns_) fail("rows of the wrong width");
  const std::size_t bytes = static_cast<std::size_t>(n_rows * columns) * item_size_;
  const auto offset =
      static_cast<off_t>(kStreamHeaderBytes + static_cast<std::size_t>(rows_) *
                                                  static_cast<std::size_t>(columns_) * item_size_);
  const char* error = nullptr;
  write_at(fd_, rows, bytes, offset, error);
  if (error != nullptr) {
    errno = 0;
    fail(std::string("write failed: ") + error);
  }
  rows_ += n_rows;
}

void NpyStream::sync() {
  const std::string header =
      npy_header(descr_, {static_cast<std::size_t>(rows_), static_cast<std::size_t>(columns_)},
                 kStreamHeaderBytes);
  const char* error = nullptr;
  write_at(fd_, header.data(), header.size(), 0, error);
  if (error != nullptr) {
    errno = 0;
    fail(std::string("write failed: ") + error);
  }
  if (::fsync(fd_) != 0) fail("fsync failed");
}

RunTraceFiles::RunTraceFiles(const std::filesystem::path& dir, Shape shape,
                             const TraceState* resume)
    : samples_(dir / kSamplesFile,
               shape.states ? npy_descr<std::uint8_t>() : npy_descr<std::int8_t>(), 1,
               shape.sample_columns, resume ? resume->samples_rows : -1),
      energies_(dir / kEnergiesFile, npy_descr<double>(), 8, shape.chains,
                resume ? resume->energy_rows : -1),
      index_(dir / kIndexProcessFile, npy_descr<std::int32_t>(), 4, shape.chains,
             resume ? resume->index_rows : -1) {}

void RunTraceFiles::append_samples(const std::int8_t* rows, std::int64_t n_rows,
                                   std::int64_t n_columns) {
  samples_.append(rows, n_rows, n_columns);
}

void RunTraceFiles::append_energies(const double* rows, std::int64_t n_rows,
                                    std::int64_t n_columns) {
  energies_.append(rows, n_rows, n_columns);
}

void RunTraceFiles::append_index_process(const std::int32_t* rows, std::int64_t n_rows,
                                         std::int64_t n_columns) {
  index_.append(rows, n_rows, n_columns);
}

void RunTraceFiles::sync() {
  samples_.sync();
  energies_.sync();
  index_.sync();
}

}  // namespace hamon::cli
