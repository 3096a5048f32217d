// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/families/family_facts.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "hamon/core/families/model_families.hpp"
#include "hamon/core/model/model_kind.hpp"

namespace hamon {
namespace {

/// What a family of discrete values says of its marginals (the health checks' entropies).
template <class F>
using marginal_op = decltype(F::marginal(std::declval<const std::vector<double>&>(), std::size_t{},
                                         std::int32_t{}));
/// Whether a family says which of its models have a single basin (real_family.hpp).
template <class F>
using one_basin_op = decltype(F::one_basin(std::declval<const ModelKind&>()));

}  // namespace

FamilyFacts family_facts(const SpinModel& model) {
  const ModelKind kind = kind_of(model);
  FamilyFacts facts;
  auto keep = [&facts, &kind](auto family) {
    using Family = decltype(family);
    facts.name = Family::name(kind);
    facts.abilities = Family::abilities;
    facts.values_per_variable = Family::values_per_variable(kind);
    facts.value_bytes = sizeof(typename Family::variable::storage_type);
    if constexpr (detail::is_detected_v<marginal_op, Family>) {
      facts.mean_columns = Family::mean_columns(kind);
      facts.marginal = &Family::marginal;
      facts.value_index = &Family::value_index;
      facts.entropy_unit = Family::entropy_unit;
    }
    if constexpr (detail::is_detected_v<one_basin_op, Family>)
      facts.one_basin = Family::one_basin(kind);
  };
  if (!detail::visit_family(detail::BuiltinFamilies<double>::type{}, kind, keep)) {
    detail::visit_family(detail::BuiltinFamilies<std::int8_t>::type{}, kind, keep);
  }
  return facts;
}

}  // namespace hamon
