// SPDX-License-Identifier: Apache-2.0
#include "run/trace_setup.hpp"

namespace hamon::cli {

RunTraceFiles::Shape trace_shape(const NrptOptions& options, const SpinModel& model) {
  RunTraceFiles::Shape shape;
  const ObserverOptions& obs = options.observers;
  if (obs.samples_every > 0) {
    shape.sample_columns = obs.sample_nodes.empty()
                               ? model.n_nodes()
                               : static_cast<std::int64_t>(obs.sample_nodes.size());
  }
  shape.samples = model.is_continuous() ? RunTraceFiles::SampleKind::reals
                  : model.is_potts()    ? RunTraceFiles::SampleKind::states
                                        : RunTraceFiles::SampleKind::spins;
  shape.chains = static_cast<std::int64_t>(ladder_of(options).size());
  return shape;
}

}  // namespace hamon::cli
