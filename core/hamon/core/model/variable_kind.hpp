// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kinds of variable a model family samples. A kind names the value a variable takes
// (`value_type`, what the local update and the observers compute with) and the element the
// state holds it in (`storage_type`): ChainState's view, SamplerState's and TraceState's
// vectors, the checkpoint's SPIN and TRAC sections (a list of storage_type, little-endian)
// and the rank link's gathers (bytes of storage_type). The sampler's parts are written once
// over the storage type (docs/sampler.md).
//
// The two built-in kinds share one byte of storage, so one Sampler<Space> serves Ising and
// Potts models and picks the family from the model at run time: a category is stored as
// the bit pattern of its std::uint8_t state in a std::int8_t (families/potts/potts_update.hpp reads
// it back). A real-valued kind stores its own type.

#include <cstdint>

namespace hamon {

/// A spin of +1 or -1 (Ising, RBM units).
struct SpinVariable {
  using value_type = std::int8_t;
  using storage_type = std::int8_t;
};

/// One of q categories 0 .. q-1 (Potts), q <= 256.
struct CategoryVariable {
  using value_type = std::uint8_t;
  using storage_type = std::int8_t;  // the state's bits: shared with SpinVariable
};

/// A real number (continuous fields), stored as itself.
template <class Real = double>
struct RealVariable {
  using value_type = Real;
  using storage_type = Real;
};

/// How a storage type is named where it is written: the checkpoint's VKND section payload
/// (empty for one-byte variables: every checkpoint before continuous models lacks the
/// section).
template <class Storage>
struct StorageTag;
template <>
struct StorageTag<std::int8_t> {
  static constexpr const char* checkpoint = "";
};
template <>
struct StorageTag<double> {
  static constexpr const char* checkpoint = "f8";
};

}  // namespace hamon
