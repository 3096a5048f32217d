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

/// The header bytes (magic to newline) for `descr` ("<f8", "|i1", ...) and `shape`.
std::string npy_header(const std::string& descr, const std::vector<std::size_t>& shape);

void write_npy(std::ostream& out, const std::vector<double>& data,
               const std::vector<std::size_t>& shape);
void write_npy(std::ostream& out, const std::vector<std::int8_t>& data,
               const std::vector<std::size_t>& shape);
void write_npy(std::ostream& out, const std::vector<std::int32_t>& data,
               const std::vector<std::size_t>& shape);

}  // namespace hamon::cli
