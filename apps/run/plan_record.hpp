// SPDX-License-Identifier: Apache-2.0
#pragma once
// A tuned plan as text, kept in the checkpoint (attachment "plan") so that `hamon resume`
// and `hamon extend` continue with the same ladder and sweeps, and write the same tuning
// section into summary.yaml, without tuning again. Doubles are written with 17
// significant digits, which read back to the same bits.

#include <string>

#include "hamon/policies/autotune.hpp"

namespace hamon::cli {

std::string plan_record(const Plan& plan);
/// Throws std::runtime_error for a record that does not parse.
Plan plan_from_record(const std::string& record);

}  // namespace hamon::cli
