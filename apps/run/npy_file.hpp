// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading NumPy .npy files (format versions 1.0, 2.0 and 3.0): the magic string, the
// version, the header dict {'descr': ..., 'fortran_order': False, 'shape': (...), } and the
// data in C order. Only what training reads is accepted: rank 1 or 2, C order, and the
// element types named below; anything else is an error naming the file and the problem.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hamon::cli {

struct NpyArray {
  std::string descr;               // e.g. "|b1", "|u1", "|i1", "<f8"
  std::vector<std::size_t> shape;  // 1 or 2 entries
  std::string data;                // the elements' bytes, C order

  std::size_t rows() const { return shape.empty() ? 0 : shape[0]; }
  std::size_t columns() const { return shape.size() < 2 ? 1 : shape[1]; }
};

/// Parses the bytes of a .npy file; `name` is what errors call it. Throws
/// std::runtime_error "NAME: ..." (not a .npy file, a truncated or malformed header, an
/// unsupported dtype, rank or order, a data size that does not match the shape).
NpyArray parse_npy(const std::string& bytes, const std::string& name);

/// parse_npy of the file at `path` (also: it cannot be read).
NpyArray read_npy(const std::string& path);

/// The elements as +-1 spins: bool (True = +1), uint8 or int8 0/1 (2x - 1), or int8 -1/+1.
/// Throws std::runtime_error "NAME: element K is V, ..." for any other value.
std::vector<std::int8_t> npy_spins(const NpyArray& array, const std::string& name);

/// The elements of a float64 array (little- or big-endian); every one finite.
std::vector<double> npy_doubles(const NpyArray& array, const std::string& name);

}  // namespace hamon::cli
