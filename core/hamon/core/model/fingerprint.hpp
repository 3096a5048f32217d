// SPDX-License-Identifier: Apache-2.0
#pragma once
// A 64-bit fingerprint of exact inputs (FNV-1a over the bytes, finished with SplitMix64),
// used as a cache key. Doubles enter by bit pattern, so any change of any input bit
// changes the fingerprint (up to 64-bit collisions).

#include <cstddef>
#include <cstdint>
#include <string>

#include "hamon/core/model/spin_model.hpp"

namespace hamon {

class Fingerprint {
 public:
  Fingerprint& add_bytes(const void* data, std::size_t size);
  Fingerprint& add(std::uint64_t value);
  Fingerprint& add(std::int64_t value) { return add(static_cast<std::uint64_t>(value)); }
  Fingerprint& add(std::int32_t value) { return add(static_cast<std::int64_t>(value)); }
  Fingerprint& add(double value);             // by bit pattern
  Fingerprint& add(const std::string& text);  // length-prefixed, so "ab"+"c" != "a"+"bc"
  std::uint64_t value() const;

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;  // FNV-1a offset basis
};

/// 16 lowercase hex digits.
std::string to_hex(std::uint64_t value);

/// The fingerprint of everything that defines a model's distribution and its block-Gibbs
/// dynamics: node count, edges with coupling bits, field bits, clamps, and the colouring.
std::uint64_t model_fingerprint(const SpinModel& model);

}  // namespace hamon
