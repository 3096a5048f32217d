// SPDX-License-Identifier: Apache-2.0
#pragma once
// The traces a sampling run streams: the shape of its files, from the options that say
// what is recorded, and the sink of the ranks that write none.

#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "output/npy_stream.hpp"

namespace hamon::cli {

/// The sink of the ranks other than 0 (rank 0 writes the traces): they keep nothing.
class NoTraces final : public TraceSink {
 public:
  void append_samples(const std::int8_t*, std::int64_t, std::int64_t) override {}
  void append_real_samples(const double*, std::int64_t, std::int64_t) override {}
  void append_energies(const double*, std::int64_t, std::int64_t) override {}
  void append_index_process(const std::int32_t*, std::int64_t, std::int64_t) override {}
};

/// The columns of the trace files of a run of `model` with `options`.
RunTraceFiles::Shape trace_shape(const NrptOptions& options, const SpinModel& model);

}  // namespace hamon::cli
