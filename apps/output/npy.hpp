// SPDX-License-Identifier: Apache-2.0
#pragma once
// A minimal writer of NumPy .npy files (format version 1.0): the magic string, the
// version, a little-endian uint16 header length, and a header dict
//   {'descr': '<f8', 'fortran_order': False, 'shape': (R, C), }
// padded with spaces and ended by '\n' so the data starts at a multiple of 64 bytes;
// then the data in C order. numpy.load reads it.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace hamon::cli {

/// The header bytes (magic to newline) for `descr` ("<f8", "|i1", ...) and `shape`, padded
/// to `length` bytes when given (a multiple of 64, for headers rewritten in place as a
/// streamed file grows; throws std::logic_error when the dict does not fit).
std::string npy_header(const std::string& descr, const std::vector<std::size_t>& shape,
                       std::size_t length = 0);

/// "<f8" / ">f8", "<i4" / ">i4", "<i8" / ">i8", "|i1", "|u1": this machine's descr of T.
template <class T>
std::string npy_descr();

void write_npy(std::ostream& out, const std::vector<double>& data,
               const std::vector<std::size_t>& shape);
void write_npy(std::ostream& out, const std::vector<std::int8_t>& data,
               const std::vector<std::size_t>& shape);
void write_npy(std::ostream& out, const std::vector<std::int32_t>& data,
               const std::vector<std::size_t>& shape);
void write_npy(std::ostream& out, const std::vector<std::int64_t>& data,
               const std::vector<std::size_t>& shape);

}  // namespace hamon::cli
