// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the family of a host model is called and what it allows (family_abilities.hpp),
// before anything is on a device: for the checks of an experiment, without the kernels'
// headers (family_facts.cpp asks the families).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/families/family_abilities.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon {

struct FamilyFacts {
  std::string name;  ///< what users call such a model ("Ising", "Potts", "gaussian", ...)
  FamilyAbilities abilities;
  /// The bytes of one stored variable (a spin's or a Potts state's byte, a real value's
  /// double): what the memory check counts per variable and sample (validate_options).
  std::size_t value_bytes = 1;
  /// The values a variable takes; 0 for a continuum (then the rest is empty).
  std::int32_t values_per_variable = 0;
  /// Moments::node_means columns per node.
  std::int32_t mean_columns = 0;
  /// Node `node`'s marginal over its values from the moments' node means.
  std::vector<double> (*marginal)(const std::vector<double>& node_means, std::size_t node,
                                  std::int32_t values) = nullptr;
  /// The index (0 .. values - 1) of a sampled variable's stored byte.
  std::int32_t (*value_index)(std::int8_t stored) = nullptr;
  /// The unit of a marginal's entropy normalised by log(values), for messages.
  const char* entropy_unit = "";
  /// The energy has one basin (a Gaussian's), so the cold chain's own moves decorrelate it
  /// and its error bars do not wait for round trips (the error_bars health check).
  bool one_basin = false;
};

FamilyFacts family_facts(const SpinModel& model);

}  // namespace hamon
