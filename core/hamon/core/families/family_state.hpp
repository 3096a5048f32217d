// SPDX-License-Identifier: Apache-2.0
#pragma once
// The state the families sample: the chains (state/chain_state.hpp: variables, ladder,
// permutations, records), which know no family, plus the tables of the families stored in
// the state's storage type. Spins and Potts categories share one byte of storage, so one
// sampler's state carries the tables of both (the family chosen at run time fills its own
// and leaves the other's empty); a storage with no tabled family carries none. Every part
// that reads only the chains takes the ChainState base.
//
// The families a storage holds are listed once (model_families.hpp: BuiltinFamilies); its
// static_assert checks that the tables here are those families' tables.

#include <cstdint>

#include "hamon/core/families/potts/potts_tables.hpp"
#include "hamon/core/families/spin/spin_tables.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon {

/// No tables: a storage whose families decide without any.
struct NoFamilyTables {};

/// The tables of every family stored in bytes. Each family allocates and counts its own
/// (allocate_tables, table_bytes) by its own table's field list.
template <class MemorySpace>
struct ByteFamilyTables : SpinTables<MemorySpace>, PottsTables<MemorySpace> {};

/// The tables a state of storage `Value` carries.
template <class Value, class MemorySpace>
struct StorageTables {
  using type = NoFamilyTables;
};
template <class MemorySpace>
struct StorageTables<std::int8_t, MemorySpace> {
  using type = ByteFamilyTables<MemorySpace>;
};

template <class ExecutionSpace, class Value = std::int8_t>
struct FamilyState : ChainState<ExecutionSpace, Value> {
  using tables_type = typename StorageTables<Value, typename ExecutionSpace::memory_space>::type;

  tables_type tables;
};

/// Allocates in `state` the tables `Family` plans for the model and the state's ladder
/// (Family::planned_tables): what its `start` does first. The memory check counts the same
/// plan (table_bytes), so it counts what is allocated.
template <class Family, class ExecutionSpace, class Value>
void allocate_tables(const ExecutionSpace& space,
                     const DeviceModel<typename ExecutionSpace::memory_space>& model,
                     FamilyState<ExecutionSpace, Value>& state) {
  using memory_space = typename ExecutionSpace::memory_space;
  typename Family::template tables<memory_space>& tables = state.tables;
  tables = Family::template planned_tables<memory_space>(
      model, static_cast<std::int64_t>(state.betas.extent(0)));
  allocate_planned(space, tables);
}

}  // namespace hamon
