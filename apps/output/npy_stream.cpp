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

std::uintmax_t stream_bytes(std::int64_t rows, std::int64_t columns, std::size_t item_size) {
  return kStreamHeaderBytes +
         static_cast<std::uintmax_t>(rows) * static_cast<std::uintmax_t>(columns) * item_size;
}

std::string too_short(std::uintmax_t size, std::int64_t rows) {
  return "holds " + std::to_string(size) + " bytes, fewer than the " + std::to_string(rows) +
         " rows the checkpoint recorded";
}

}  // namespace

NpyStream::NpyStream(std::filesystem::path path, std::string descr, std::size_t item_size,
                     std::int64_t columns, std::int64_t keep_rows)
    : path_(std::move(path)), descr_(std::move(descr)), item_size_(item_size), columns_(columns) {
  const bool reopen = keep_rows >= 0;
  fd_ = ::open(path_.c_str(), reopen ? O_RDWR | O_CLOEXEC : O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
               0666 & ~current_umask());
  if (fd_ < 0) fail(reopen ? "cannot reopen it" : "cannot create it", errno);
  if (reopen) {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail("cannot stat it", errno);
    const auto wanted = static_cast<off_t>(stream_bytes(keep_rows, columns_, item_size_));
    if (st.st_size < wanted) fail(too_short(static_cast<std::uintmax_t>(st.st_size), keep_rows), 0);
    if (::ftruncate(fd_, wanted) != 0) fail("cannot cut it back to the checkpoint", errno);
    rows_ = keep_rows;
  }
  sync();
}

NpyStream::~NpyStream() {
  if (fd_ >= 0) ::close(fd_);
}

void NpyStream::fail(const std::string& what, int error) const {
  throw std::runtime_error(path_.string() + ": " + what +
                           (error != 0 ? std::string(" (") + std::strerror(error) + ")" : ""));
}

void NpyStream::append(const void* rows, std::int64_t n_rows, std::int64_t columns) {
  if (columns != columns_) fail("rows of the wrong width", 0);
  const std::size_t bytes = static_cast<std::size_t>(n_rows * columns) * item_size_;
  const auto offset =
      static_cast<off_t>(kStreamHeaderBytes + static_cast<std::size_t>(rows_) *
                                                  static_cast<std::size_t>(columns_) * item_size_);
  const char* error = nullptr;
  write_at(fd_, rows, bytes, offset, error);
  if (error != nullptr) fail(std::string("write failed: ") + error, 0);
  rows_ += n_rows;
}

void NpyStream::sync() {
  if (rows_ == synced_rows_) return;
  const std::string header =
      npy_header(descr_, {static_cast<std::size_t>(rows_), static_cast<std::size_t>(columns_)},
                 kStreamHeaderBytes);
  const char* error = nullptr;
  write_at(fd_, header.data(), header.size(), 0, error);
  if (error != nullptr) fail(std::string("write failed: ") + error, 0);
  if (::fsync(fd_) != 0) fail("fsync failed", errno);
  synced_rows_ = rows_;
}

namespace {

std::string sample_descr(RunTraceFiles::SampleKind kind) {
  switch (kind) {
    case RunTraceFiles::SampleKind::states:
      return npy_descr<std::uint8_t>();
    case RunTraceFiles::SampleKind::reals:
      return npy_descr<double>();
    case RunTraceFiles::SampleKind::spins:
      break;
  }
  return npy_descr<std::int8_t>();
}

std::size_t sample_bytes(RunTraceFiles::SampleKind kind) {
  return kind == RunTraceFiles::SampleKind::reals ? sizeof(double) : 1;
}

}  // namespace

RunTraceFiles::RunTraceFiles(const std::filesystem::path& dir, Shape shape, const TraceRows* resume)
    : samples_(dir / kSamplesFile, sample_descr(shape.samples), sample_bytes(shape.samples),
               shape.sample_columns, resume ? resume->samples : -1),
      energies_(dir / kEnergiesFile, npy_descr<double>(), 8, shape.chains,
                resume ? resume->energies : -1),
      index_(dir / kIndexProcessFile, npy_descr<std::int32_t>(), 4, shape.chains,
             resume ? resume->index : -1) {}

std::vector<StreamExtent> RunTraceFiles::extents(const std::filesystem::path& dir, Shape shape,
                                                 const TraceRows& resume) {
  return {{dir / kSamplesFile,
           stream_bytes(resume.samples, shape.sample_columns, sample_bytes(shape.samples))},
          {dir / kEnergiesFile, stream_bytes(resume.energies, shape.chains, 8)},
          {dir / kIndexProcessFile, stream_bytes(resume.index, shape.chains, 4)}};
}

void RunTraceFiles::check_reopenable(const std::filesystem::path& dir, Shape shape,
                                     const TraceRows& resume) {
  const std::vector<StreamExtent> files = extents(dir, shape, resume);
  const std::int64_t rows[] = {resume.samples, resume.energies, resume.index};
  for (std::size_t k = 0; k < files.size(); ++k) {
    const std::string name = files[k].path.string();
    struct stat st {};
    if (::stat(files[k].path.c_str(), &st) != 0 ||
        ::access(files[k].path.c_str(), R_OK | W_OK) != 0) {
      throw std::runtime_error(name + ": cannot reopen it (" + std::strerror(errno) + ")");
    }
    if (static_cast<std::uintmax_t>(st.st_size) < files[k].kept_bytes) {
      throw std::runtime_error(name + ": " +
                               too_short(static_cast<std::uintmax_t>(st.st_size), rows[k]));
    }
  }
}

void RunTraceFiles::append_samples(const std::int8_t* rows, std::int64_t n_rows,
                                   std::int64_t n_columns) {
  samples_.append(rows, n_rows, n_columns);
}

void RunTraceFiles::append_real_samples(const double* rows, std::int64_t n_rows,
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
