// SPDX-License-Identifier: Apache-2.0
#pragma once
// The built-in families and the one place that chooses a model's family: the first family
// of the model's storage type that takes it (family_concept.hpp: `takes`). Spins and Potts
// categories share one byte of storage, so one Sampler<Space> serves both and the choice is
// made at run time; continuous models store doubles (Sampler<Space, double>). A new family
// is listed here and nowhere else.

#include <cstdint>
#include <stdexcept>
#include <string>

#include "hamon/core/families/family_concept.hpp"
#include "hamon/core/families/family_table.hpp"
#include "hamon/core/families/model_family.hpp"
#include "hamon/core/families/potts/potts_family.hpp"
#include "hamon/core/families/real/real_family.hpp"
#include "hamon/core/families/spin/spin_family.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_kind.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon::detail {

template <class... Families>
struct FamilyList {};

/// The built-in families storing `Value`, in the order they are asked.
template <class Value>
struct BuiltinFamilies;
template <>
struct BuiltinFamilies<std::int8_t> {
  using type = FamilyList<PottsFamily, SpinFamily>;
  static constexpr const char* refusal =
      "a continuous model samples with Sampler<Space, double> (hamon::nrpt chooses it)";
};
template <>
struct BuiltinFamilies<double> {
  using type = FamilyList<RealFamily>;
  static constexpr const char* refusal =
      "Sampler<Space, double> samples continuous models; this model's variables are discrete: "
      "use Sampler<Space>";
};

/// Calls `visit(Family{})` with the first family of `list` that takes `model`; false if
/// none does.
template <class Model, class Visit, class First, class... Rest>
bool visit_family(FamilyList<First, Rest...>, const Model& model, Visit&& visit) {
  if (First::takes(model)) {
    visit(First{});
    return true;
  }
  return visit_family(FamilyList<Rest...>{}, model, visit);
}
template <class Model, class Visit>
bool visit_family(FamilyList<>, const Model&, Visit&&) {
  return false;
}

/// Whether a built-in family storing `Value` takes `model`.
template <class Value, class Model>
bool stores(const Model& model) {
  return visit_family(typename BuiltinFamilies<Value>::type{}, model, [](auto) {});
}

/// The run-time table of the family that samples `model` with variables stored as `Value`;
/// std::invalid_argument when none of them takes it (a continuous model in a byte sampler,
/// or the other way round).
template <class ExecutionSpace, class Value = std::int8_t>
ModelFamily<ExecutionSpace, Value> family_of(
    const DeviceModel<typename ExecutionSpace::memory_space>& model) {
  ModelFamily<ExecutionSpace, Value> table{};
  const bool found = visit_family(
      typename BuiltinFamilies<Value>::type{}, model,
      [&table](auto family) { table = family_table<decltype(family), ExecutionSpace>(); });
  if (!found) throw std::invalid_argument(BuiltinFamilies<Value>::refusal);
  return table;
}

/// Calls `run(Value{})` with the storage type of the family that samples `model`: the one
/// place a run's sampler type (Sampler<Space> or Sampler<Space, double>) is chosen.
template <class Model, class Run>
decltype(auto) with_storage_of(const Model& model, Run&& run) {
  if (stores<double>(model)) return run(double{});
  return run(std::int8_t{});
}

}  // namespace hamon::detail
