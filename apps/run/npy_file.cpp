// SPDX-License-Identifier: Apache-2.0
#include "run/npy_file.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace hamon::cli {

namespace {

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw std::runtime_error(name + ": " + what);
}

std::size_t element_size(const std::string& descr) {
  if (descr == "|b1" || descr == "|u1" || descr == "|i1") return 1;
  if (descr == "<f8" || descr == ">f8") return 8;
  return 0;
}

/// The value of 'key' in the header dict: a quoted string, a word (True / False) or a
/// parenthesised tuple, as its text; nullopt when the key is not there.
std::optional<std::string> header_value(const std::string& header, const std::string& key) {
  const std::size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return std::nullopt;
  std::size_t pos = header.find_first_not_of(' ', at + key.size() + 2);
  if (pos == std::string::npos || header[pos] != ':') return std::nullopt;
  pos = header.find_first_not_of(' ', pos + 1);
  if (pos == std::string::npos) return std::nullopt;
  const char open = header[pos];
  std::size_t end = std::string::npos;
  if (open == '\'') {
    end = header.find('\'', pos + 1);
  } else if (open == '(') {
    end = header.find(')', pos + 1);
  } else {
    end = header.find_first_of(",} ", pos) - 1;
  }
  if (end == std::string::npos || end < pos) return std::nullopt;
  return header.substr(pos, end - pos + 1);
}

/// The shape tuple "(R, C)", "(R,)" or "()".
std::vector<std::size_t> parse_shape(const std::string& tuple, const std::string& name) {
  std::vector<std::size_t> shape;
  std::string inner = tuple.substr(1, tuple.size() - 2);
  std::stringstream parts(inner);
  std::string item;
  while (std::getline(parts, item, ',')) {
    const auto first = item.find_first_not_of(' ');
    if (first == std::string::npos) continue;  // the empty item after a trailing comma
    const std::string digits = item.substr(first, item.find_last_not_of(' ') - first + 1);
    if (digits.empty() || digits.size() > 18 ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      fail(name, "the header's shape " + tuple + " is not a tuple of sizes");
    }
    shape.push_back(static_cast<std::size_t>(std::stoull(digits)));
  }
  return shape;
}

}  // namespace

NpyArray parse_npy(const std::string& bytes, const std::string& name) {
  static const std::string kMagic = "\x93NUMPY";
  if (bytes.size() < 10 || bytes.compare(0, kMagic.size(), kMagic) != 0) {
    fail(name, "not a .npy file (no \\x93NUMPY magic string)");
  }
  const auto major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_length = 0;
  std::size_t header_start = 0;
  if (major == 1) {
    header_length = static_cast<unsigned char>(bytes[8]) |
                    static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8;
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(name, "the header is truncated");
    for (int k = 0; k < 4; ++k) {
      header_length |= static_cast<std::size_t>(static_cast<unsigned char>(bytes[8 + k]))
                       << (8 * k);
    }
    header_start = 12;
  } else {
    fail(name, "unsupported .npy format version " + std::to_string(major));
  }
  if (header_length > bytes.size() - header_start) fail(name, "the header is truncated");
  const std::string header = bytes.substr(header_start, header_length);
  const std::optional<std::string> descr = header_value(header, "descr");
  const std::optional<std::string> order = header_value(header, "fortran_order");
  const std::optional<std::string> shape_text = header_value(header, "shape");
  if (!descr || !order || !shape_text || descr->size() < 2 || descr->front() != '\'' ||
      descr->back() != '\'' || (*order != "True" && *order != "False") ||
      shape_text->front() != '(') {
    fail(name, "the header is not a dict with 'descr', 'fortran_order' and 'shape'");
  }
  NpyArray a;
  a.descr = descr->substr(1, descr->size() - 2);
  if (element_size(a.descr) == 0) {
    fail(name, "unsupported dtype '" + a.descr + "' (expected bool, uint8, int8 or float64)");
  }
  if (*order == "True") fail(name, "Fortran-order arrays are not supported (save in C order)");
  const std::string& shape = *shape_text;
  a.shape = parse_shape(shape, name);
  if (a.shape.empty() || a.shape.size() > 2) {
    fail(name, "expected a 1- or 2-dimensional array, got shape " + shape);
  }
  std::size_t count = 1;
  for (std::size_t extent : a.shape) {
    if (extent != 0 && count > std::numeric_limits<std::size_t>::max() / 8 / extent) {
      fail(name, "the shape " + shape + " is too large");
    }
    count *= extent;
  }
  const std::size_t data_start = header_start + header_length;
  const std::size_t expected = count * element_size(a.descr);
  if (bytes.size() - data_start != expected) {
    fail(name, "the data has " + std::to_string(bytes.size() - data_start) + " bytes, but shape " +
                   shape + " of '" + a.descr + "' needs " + std::to_string(expected));
  }
  a.data = bytes.substr(data_start);
  return a;
}

NpyArray read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) fail(path, "cannot read the file");
  return parse_npy(bytes.str(), path);
}

std::vector<std::int8_t> npy_spins(const NpyArray& a, const std::string& name) {
  if (element_size(a.descr) != 1) {
    fail(name, "expected bool, uint8 or int8 units, got dtype '" + a.descr + "'");
  }
  std::vector<std::int8_t> out(a.data.size());
  bool zero_one = false;
  bool plus_minus = false;
  for (std::size_t k = 0; k < a.data.size(); ++k) {
    const auto byte = static_cast<unsigned char>(a.data[k]);
    const int value = a.descr == "|i1" ? static_cast<int>(static_cast<std::int8_t>(byte)) : byte;
    if (value == 0 || (value == 1 && a.descr != "|i1")) {
      zero_one = true;
      out[k] = value == 1 ? 1 : -1;
    } else if (a.descr == "|i1" && (value == 1 || value == -1)) {
      plus_minus = plus_minus || value == -1;
      out[k] = static_cast<std::int8_t>(value);
    } else {
      fail(name, "element " + std::to_string(k) + " is " + std::to_string(value) +
                     (a.descr == "|i1" ? ", not 0/1 or -1/+1" : ", not 0 or 1"));
    }
    if (zero_one && plus_minus) {
      fail(name,
           "mixes 0 with -1 (element " + std::to_string(k) + "): units are either 0/1 or -1/+1");
    }
  }
  // int8 1s of a 0/1 array were taken as spins +1 already; that is also 2x - 1.
  return out;
}

std::vector<double> npy_doubles(const NpyArray& a, const std::string& name) {
  if (a.descr != "<f8" && a.descr != ">f8") {
    fail(name, "expected float64 values, got dtype '" + a.descr + "'");
  }
  const bool swap = a.descr[0] == '>';
  std::vector<double> out(a.data.size() / 8);
  for (std::size_t k = 0; k < out.size(); ++k) {
    unsigned char b[8];
    std::memcpy(b, a.data.data() + 8 * k, 8);
    if (swap) {
      for (int i = 0; i < 4; ++i) std::swap(b[i], b[7 - i]);
    }
    std::memcpy(&out[k], b, 8);
    if (!std::isfinite(out[k])) fail(name, "element " + std::to_string(k) + " is not finite");
  }
  return out;
}

}  // namespace hamon::cli
