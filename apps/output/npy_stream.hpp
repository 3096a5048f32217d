// SPDX-License-Identifier: Apache-2.0
#pragma once
// A 2-D .npy file that grows by rows while a run goes (memory O(rows handed in), not
// O(file)): a fixed 128-byte header, rewritten in place with the row count at every
// sync(), then the rows in C order. A reopened stream is first cut back to the rows a
// checkpoint recorded, so rows written after that checkpoint (a run killed between two)
// are dropped and the file continues exactly as an uninterrupted run's would.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/sampler/sampler.hpp"

namespace hamon::cli {

/// The fixed header of every streamed file (a multiple of 64, room for any row count).
inline constexpr std::size_t kStreamHeaderBytes = 128;

/// The first `rows` rows of a streamed 2-D file, as T. Throws std::runtime_error.
template <class T>
std::vector<T> read_streamed_rows(const std::filesystem::path& path, std::int64_t rows,
                                  std::int64_t columns) {
  std::vector<T> data(static_cast<std::size_t>(rows * columns));
  if (data.empty()) return data;
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(kStreamHeaderBytes));
  in.read(reinterpret_cast<char*>(data.data()),
          static_cast<std::streamsize>(data.size() * sizeof(T)));
  if (!in) throw std::runtime_error("cannot read back " + path.string());
  return data;
}

/// A streamed file as a reopened stream keeps it: its first `kept_bytes` bytes (the header
/// and the rows a checkpoint recorded).
struct StreamExtent {
  std::filesystem::path path;
  std::uintmax_t kept_bytes = 0;
};

class NpyStream {
 public:
  /// Creates `path` (0 rows of `columns`), or with `keep_rows` >= 0 reopens it cut back to
  /// that many rows. Throws std::runtime_error naming the file.
  NpyStream(std::filesystem::path path, std::string descr, std::size_t item_size,
            std::int64_t columns, std::int64_t keep_rows = -1);
  ~NpyStream();
  NpyStream(const NpyStream&) = delete;
  NpyStream& operator=(const NpyStream&) = delete;

  void append(const void* rows, std::int64_t n_rows, std::int64_t columns);
  /// Rewrites the header with the row count and fsyncs the file; nothing when no row came
  /// since the last sync (the file's bytes are already on disk: a run syncs its traces
  /// before each checkpoint and at its end, often with no round in between).
  void sync();
  std::int64_t rows() const { return rows_; }

 private:
  /// Throws "PATH: what (strerror(error))", without the system's words when `error` is 0.
  [[noreturn]] void fail(const std::string& what, int error) const;
  std::filesystem::path path_;
  std::string descr_;
  std::size_t item_size_;
  std::int64_t columns_;
  std::int64_t rows_ = 0;
  std::int64_t synced_rows_ = -1;  // the row count of the last completed sync
  int fd_ = -1;
};

/// The rows a checkpoint's traces (TraceStateOf) recorded in each file.
struct TraceRows {
  std::int64_t samples = 0;
  std::int64_t energies = 0;
  std::int64_t index = 0;
};
template <class Value>
TraceRows trace_rows(const TraceStateOf<Value>& traces) {
  return {traces.samples_rows, traces.energy_rows, traces.index_rows};
}

/// samples.npy (int8 spins, uint8 states of a Potts model, or float64 values of a
/// continuous model), energies.npy and index_process.npy of a run directory as a TraceSink.
class RunTraceFiles final : public TraceSink {
 public:
  enum class SampleKind { spins, states, reals };
  struct Shape {
    std::int64_t sample_columns = 0;  // 0 when samples are off
    std::int64_t chains = 0;
    SampleKind samples = SampleKind::spins;
  };
  /// New files, or (with `resume`) the files cut back to the rows of a checkpoint.
  RunTraceFiles(const std::filesystem::path& dir, Shape shape, const TraceRows* resume = nullptr);

  /// What reopening the files of `dir` at the rows of `resume` keeps of each.
  static std::vector<StreamExtent> extents(const std::filesystem::path& dir, Shape shape,
                                           const TraceRows& resume);
  /// Throws what reopening them would (a file missing, unwritable or shorter than the rows
  /// the checkpoint recorded), without changing a byte: a continuation checks this before
  /// it touches the run directory.
  static void check_reopenable(const std::filesystem::path& dir, Shape shape,
                               const TraceRows& resume);

  void append_samples(const std::int8_t* rows, std::int64_t n_rows,
                      std::int64_t n_columns) override;
  void append_real_samples(const double* rows, std::int64_t n_rows,
                           std::int64_t n_columns) override;
  void append_energies(const double* rows, std::int64_t n_rows, std::int64_t n_columns) override;
  void append_index_process(const std::int32_t* rows, std::int64_t n_rows,
                            std::int64_t n_columns) override;
  void sync() override;

 private:
  NpyStream samples_;
  NpyStream energies_;
  NpyStream index_;
};

}  // namespace hamon::cli
