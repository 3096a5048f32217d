// SPDX-License-Identifier: Apache-2.0
#include "output/npy.hpp"

#include <cstring>
#include <stdexcept>

namespace hamon::cli {

namespace {

bool little_endian() {
  const std::uint16_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

std::string shape_tuple(const std::vector<std::size_t>& shape) {
  std::string text = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k > 0) text += ", ";
    text += std::to_string(shape[k]);
  }
  if (shape.size() == 1) text += ",";
  return text + ")";
}

std::size_t product(const std::vector<std::size_t>& shape) {
  std::size_t n = 1;
  for (std::size_t extent : shape) n *= extent;
  return n;
}

template <class T>
void write_array(std::ostream& out, const std::string& descr, const std::vector<T>& data,
                 const std::vector<std::size_t>& shape) {
  if (product(shape) != data.size()) {
    throw std::logic_error("write_npy: shape " + shape_tuple(shape) + " does not match " +
                           std::to_string(data.size()) + " values");
  }
  out << npy_header(descr, shape);
  out.write(reinterpret_cast<const char*>(data.data()),
            static_cast<std::streamsize>(data.size() * sizeof(T)));
}

}  // namespace

template <>
std::string npy_descr<double>() {
  return little_endian() ? "<f8" : ">f8";
}
template <>
std::string npy_descr<std::int32_t>() {
  return little_endian() ? "<i4" : ">i4";
}
template <>
std::string npy_descr<std::int64_t>() {
  return little_endian() ? "<i8" : ">i8";
}
template <>
std::string npy_descr<std::int8_t>() {
  return "|i1";
}
template <>
std::string npy_descr<std::uint8_t>() {
  return "|u1";
}

std::string npy_header(const std::string& descr, const std::vector<std::size_t>& shape,
                       std::size_t length) {
  std::string dict =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_tuple(shape) + ", }";
  const std::size_t preamble = 10;  // magic (6) + version (2) + header length (2)
  std::size_t total = preamble + dict.size() + 1;
  if (length > 0 && (total > length || length % 64 != 0)) {
    throw std::logic_error("npy_header: the header does not fit in " + std::to_string(length) +
                           " bytes");
  }
  const std::size_t padded = length > 0 ? length : (total + 63) / 64 * 64;
  dict.append(padded - total, ' ');
  dict += '\n';
  if (dict.size() > 65535) throw std::logic_error("write_npy: header too long for format 1.0");
  std::string header("\x93NUMPY\x01\x00", 8);
  header += static_cast<char>(dict.size() & 0xff);
  header += static_cast<char>((dict.size() >> 8) & 0xff);
  return header + dict;
}

void write_npy(std::ostream& out, const std::vector<double>& data,
               const std::vector<std::size_t>& shape) {
  write_array(out, npy_descr<double>(), data, shape);
}

void write_npy(std::ostream& out, const std::vector<std::int32_t>& data,
               const std::vector<std::size_t>& shape) {
  write_array(out, npy_descr<std::int32_t>(), data, shape);
}

void write_npy(std::ostream& out, const std::vector<std::int64_t>& data,
               const std::vector<std::size_t>& shape) {
  write_array(out, npy_descr<std::int64_t>(), data, shape);
}

void write_npy(std::ostream& out, const std::vector<std::int8_t>& data,
               const std::vector<std::size_t>& shape) {
  write_array(out, npy_descr<std::int8_t>(), data, shape);
}

}  // namespace hamon::cli
