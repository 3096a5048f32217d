// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/families/multispin/multispin_sweep.hpp"

#include <cmath>

namespace hamon {

std::vector<std::uint64_t> multispin_thresholds(const MultispinEnsemble& ensemble,
                                                const std::vector<double>& slot_betas) {
  const std::int32_t z = ensemble.max_degree;
  std::vector<std::uint64_t> out;
  out.reserve(slot_betas.size() * static_cast<std::size_t>(2 * z + 1));
  for (double beta : slot_betas) {
    for (std::int32_t h = -z; h <= z; ++h) {
      // P_up = 1 / (1 + exp(-2 beta J0 h)), as a count of the 2^32 draws below it.
      const double p_up =
          1.0 / (1.0 + detail::deterministic_exp(-2.0 * beta * ensemble.coupling * h));
      out.push_back(static_cast<std::uint64_t>(std::floor(p_up * 4294967296.0)));
    }
  }
  return out;
}

}  // namespace hamon
