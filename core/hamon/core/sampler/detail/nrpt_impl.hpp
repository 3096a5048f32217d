// SPDX-License-Identifier: Apache-2.0
#pragma once
// Definitions of hamon::nrpt and hamon::sample (declared in hamon/core/sampler/nrpt.hpp): thin
// wrappers over hamon::Sampler (sampler.hpp). Included by the explicit instantiations
// (nrpt_instantiate.hpp), once per backend of cmake/HamonBackends.cmake's list.

#include "hamon/core/families/model_families.hpp"
#include "hamon/core/model/model_kind.hpp"
#include "hamon/core/sampler/detail/sampler_impl.hpp"
#include "hamon/core/sampler/nrpt.hpp"

namespace hamon {

namespace detail {

/// A whole run of the sampler for `model`'s variables (a SpinModel or a DeviceModel).
template <class Value, class ExecutionSpace, class Model>
NrptResult run_sampler(const ExecutionSpace& space, const Model& model,
                       const NrptOptions& options) {
  Sampler<ExecutionSpace, Value> sampler(space, model, options);
  sampler.run(options.burn_in + options.n_rounds);
  return sampler.result();
}

}  // namespace detail

template <class ExecutionSpace, class>
NrptResult nrpt(const ExecutionSpace& space,
                const DeviceModel<typename ExecutionSpace::memory_space>& model,
                const NrptOptions& options) {
  return detail::with_storage_of(model, [&](auto value) {
    return detail::run_sampler<decltype(value)>(space, model, options);
  });
}

template <class ExecutionSpace, class>
NrptResult nrpt(const ExecutionSpace& space, const SpinModel& model, const NrptOptions& options) {
  return detail::with_storage_of(kind_of(model), [&](auto value) {
    return detail::run_sampler<decltype(value)>(space, model, options);
  });
}

template <class ExecutionSpace, class>
NrptResult sample(const ExecutionSpace& space, const SpinModel& model, double beta,
                  NrptOptions options) {
  options.betas = {beta};
  options.adapt_schedule = false;
  return nrpt(space, model, options);
}

}  // namespace hamon
