// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a model's family is decided by, as the same two members a DeviceModel has, so that
// the families' questions about a model (families/family_concept.hpp: takes, name,
// abilities) can be asked of a host SpinModel before anything is on a device.

#include <cstdint>

#include "hamon/core/model/spin_model.hpp"

namespace hamon {

struct ModelKind {
  std::int32_t n_states = 0;         // Potts: q; 0 otherwise (as DeviceModel::n_states)
  std::int32_t continuous_kind = 0;  // a ContinuousKind's value; 0 for discrete models
};

inline ModelKind kind_of(const SpinModel& model) {
  // SpinModel::n_states() is 2 for Ising spins; a DeviceModel says 0 (not Potts).
  return {model.is_potts() ? model.n_states() : 0,
          static_cast<std::int32_t>(model.continuous_kind())};
}

}  // namespace hamon
