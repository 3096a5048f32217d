// SPDX-License-Identifier: Apache-2.0
#pragma once
// The grid training keeps an RBM (rbm.hpp: RbmParameters, the one RBM type) on.
//
//   E(v, h) = -( sum_v b_v v + sum_h c_h h + sum_{v,h} W_vh v h ),   v, h in {-1, +1}.
//
// {0, 1} data map to spins as s = 2 x - 1 (an RBM over {0, 1} units with weights W' and
// biases b', c' is this one with W = W'/4, b = b'/2 + sum_h W'_vh / 4, c likewise).
//
// Every parameter is a multiple of 2^-kParameterGridBits, and every |parameter| is at most
// largest_parameter(V, H). Then a local field c_h + sum_v W_vh v (or its visible twin), and
// every partial sum of it, is a multiple of the grid step below 2^19 in magnitude: exactly
// representable in double, so it is the same number whatever order a GEMM, a CSR walk or a
// GPU sums it in. That makes the dense (GEMM) and the sparse (CSR) sweeps, and every
// backend, decide the same spins from the same random numbers. The optimiser rounds its
// result to the grid after every step (snap_to_grid: round to nearest, ties to even).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/model/rbm.hpp"

namespace hamon {

/// Parameters are multiples of 2^-32.
inline constexpr int kParameterGridBits = 32;
/// Positive-phase expectations tanh(phi) are multiples of 2^-24 (sums over a minibatch of
/// up to 2^20 rows stay exact).
inline constexpr int kExpectationGridBits = 24;

/// x rounded to the nearest multiple of 2^-bits (ties to even), for |x| < 2^(51 - bits):
/// adding 1.5 * 2^(52 - bits) leaves exactly `bits` fractional bits, and subtracting it
/// again is exact. Plain IEEE double arithmetic: the same bits on every execution space.
KOKKOS_FORCEINLINE_FUNCTION double snap_to_grid(double x, int bits) {
  const double magic = 1.5 * static_cast<double>(std::int64_t{1} << (52 - bits));
  return (x + magic) - magic;
}

/// The largest |parameter| that keeps every local field and partial sum below 2^19 (where
/// snap_to_grid and exactness hold): 2^19 / (max(V, H) + 1).
double largest_parameter(std::int64_t n_visible, std::int64_t n_hidden);

/// Throws ModelError naming the entry unless the sizes match, every value is finite, on the
/// grid and within largest_parameter.
void check_parameters(const RbmParameters& parameters);

/// The same parameters rounded to the grid (for weights read from a file); throws
/// ModelError naming the entry for a non-finite or too large value.
RbmParameters snapped_to_grid(RbmParameters parameters);

}  // namespace hamon
