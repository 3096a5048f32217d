// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a model family allows the sampler to combine it with (family_concept.hpp): asked,
// never inferred from which family it is.

#include <cstdint>

namespace hamon {

/// How a family goes along with the annealing reference (NrptOptions::reference).
enum class AnnealingSupport : std::int32_t {
  optional,  ///< the model's own beta = 0 is the default reference; independent on request
  required,  ///< exp(-0 E) does not normalise: anneals unless the ladder starts above 0
  refused,   ///< no independent reference exists for the family
};

/// Which magnetisation the sampler records per temperature (magnetization_accumulator.hpp).
enum class MagnetizationKind : std::int32_t {
  none,       ///< no magnetisation (continuous values, or a family that defines none)
  spin_sum,   ///< M = sum_i s_i of +-1 spins
  potts_max,  ///< the Potts order parameter's numerator M = q max_s n_s - N
};

/// What the sampler may combine a family with.
struct FamilyAbilities {
  bool cluster_moves = false;  ///< a cluster_move between replicas (spins: Houdayer's)
  bool replica_overlaps = false;
  AnnealingSupport annealing = AnnealingSupport::optional;
  /// Machines one run may hold (0: no limit of the family's own).
  std::int64_t max_machines = 0;
  MagnetizationKind magnetization = MagnetizationKind::none;
};

}  // namespace hamon
