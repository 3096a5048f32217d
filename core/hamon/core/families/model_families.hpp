// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place that chooses a model's family (families/model_family.hpp): Potts models (q
// states) sample categories, discrete models otherwise spins. Both store one byte per
// variable, so the choice is made at run time and one Sampler<Space> serves both;
// continuous models store doubles (Sampler<Space, double>) and sample the real family.

#include "hamon/core/families/model_family.hpp"
#include "hamon/core/families/potts/potts_family.hpp"
#include "hamon/core/families/real/real_family.hpp"
#include "hamon/core/families/spin/spin_family.hpp"
#include "hamon/core/model/device_model.hpp"

namespace hamon::detail {

template <class ExecutionSpace, class Value = std::int8_t>
ModelFamily<ExecutionSpace, Value> family_of(
    const DeviceModel<typename ExecutionSpace::memory_space>& model) {
  if constexpr (std::is_floating_point_v<Value>) {
    return real_family<ExecutionSpace>();
  } else {
    return model.n_states > 0 ? potts_family<ExecutionSpace>() : spin_family<ExecutionSpace>();
  }
}

}  // namespace hamon::detail
