// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place a family type becomes the run-time table the sampler's parts call
// (model_family.hpp): checked against the concept (family_concept.hpp) first, so a family
// that lacks an operation fails here with the concept's message.

#include "hamon/core/families/family_concept.hpp"
#include "hamon/core/families/model_family.hpp"

namespace hamon::detail {

template <class Family, class ExecutionSpace>
ModelFamily<ExecutionSpace, family_storage_t<Family>> family_table() {
  static_assert(check_family<Family, ExecutionSpace>(),
                "not a model family: see the first static assertion above");
  ModelFamily<ExecutionSpace, family_storage_t<Family>> table;
  // Each assignment picks the family's operation for this space (a template's
  // instantiation is deduced from the pointer's type).
  table.abilities = Family::abilities;
  table.name = &Family::name;
  table.start = &Family::start;
  table.refresh = &Family::refresh;
  table.sweep = &Family::sweep;
  table.add_energies = &Family::add_energies;
  if constexpr (Family::abilities.cluster_moves) {
    table.cluster_move = &Family::cluster_move;
  } else {
    table.cluster_move = nullptr;
  }
  table.node_columns = &Family::node_columns;
  table.observe = &Family::observe;
  table.node_moments = &Family::node_moments;
  table.order_parameter = &Family::order_parameter;
  table.values_per_variable = &Family::values_per_variable;
  table.value_problem = &Family::value_problem;
  table.table_bytes = &Family::table_bytes;
  return table;
}

}  // namespace hamon::detail
