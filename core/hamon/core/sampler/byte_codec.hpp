// SPDX-License-Identifier: Apache-2.0
#pragma once
// Little-endian, fixed-width byte encoding of checkpoint payloads (checkpoint.cpp, training
// state): ByteWriter appends, ByteReader reads back and throws CheckpointError "WHERE is
// truncated" (or names what else is wrong) instead of reading past the end. write_fields
// and read_fields carry a field list (field_list.hpp) through them in list order.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/util/field_list.hpp"

namespace hamon::detail {

/// Lists of fixed-width values are copied in bulk where memory order is the file's.
inline bool little_endian_host() {
  const std::uint16_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

// ---- bytes out ---------------------------------------------------------------------------

class ByteWriter {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v) {
    for (int k = 0; k < 4; ++k) u8(static_cast<std::uint8_t>(v >> (8 * k)));
  }
  void u64(std::uint64_t v) {
    for (int k = 0; k < 8; ++k) u8(static_cast<std::uint8_t>(v >> (8 * k)));
  }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void f64(double v) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    u64(bits);
  }
  void text(const std::string& s) {
    u64(s.size());
    bytes_.append(s);
  }
  template <class T>
  void list(const std::vector<T>& values) {
    u64(values.size());
    if (values.empty()) return;  // data() may be null: no memcpy from it
    if (little_endian_host()) {
      bytes_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
      return;
    }
    for (const T& v : values) value(v);
  }
  /// Integers that are mostly small (moment sums): the count, the narrowest width w in
  /// {1, 2, 4, 8} bytes that holds every value, then each value in w bytes.
  void packed(const std::vector<std::int64_t>& values) {
    u64(values.size());
    std::int64_t largest = 0;
    for (std::int64_t v : values) largest = std::max(largest, v < 0 ? ~v : v);
    const int width = largest < (1 << 7)      ? 1
                      : largest < (1 << 15)   ? 2
                      : largest < (1LL << 31) ? 4
                                              : 8;
    u8(static_cast<std::uint8_t>(width));
    const std::size_t start = bytes_.size();
    bytes_.resize(start + values.size() * static_cast<std::size_t>(width));
    char* out = bytes_.data() + start;
    for (std::int64_t v : values) {
      const auto u = static_cast<std::uint64_t>(v);
      for (int k = 0; k < width; ++k) *out++ = static_cast<char>(u >> (8 * k));
    }
  }
  const std::string& bytes() const { return bytes_; }

 private:
  void value(std::int8_t v) { u8(static_cast<std::uint8_t>(v)); }
  void value(std::uint8_t v) { u8(v); }
  void value(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void value(std::int64_t v) { i64(v); }
  void value(double v) { f64(v); }
  void value(float v) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    u32(bits);
  }
  std::string bytes_;
};

// ---- bytes in ----------------------------------------------------------------------------

class ByteReader {
 public:
  ByteReader(const std::string& bytes, std::string where)
      : bytes_(bytes), where_(std::move(where)) {}
  std::uint8_t u8() {
    need(1);
    return static_cast<std::uint8_t>(bytes_[pos_++]);
  }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= static_cast<std::uint32_t>(u8()) << (8 * k);
    return v;
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= static_cast<std::uint64_t>(u8()) << (8 * k);
    return v;
  }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  double f64() {
    const std::uint64_t bits = u64();
    double v = 0.0;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  std::string text() { return block(u64()); }
  template <class T>
  std::vector<T> list() {
    const std::uint64_t n = u64();
    if (n > (bytes_.size() - pos_) / sizeof(T)) fail("is truncated");
    std::vector<T> values(n);
    if (n == 0) return values;  // data() may be null: no memcpy into it
    if (little_endian_host()) {
      std::memcpy(values.data(), bytes_.data() + pos_, n * sizeof(T));
      pos_ += n * sizeof(T);
      return values;
    }
    for (std::uint64_t k = 0; k < n; ++k) values[k] = value(T{});
    return values;
  }
  std::vector<std::int64_t> packed() {
    const std::uint64_t n = u64();
    const int width = u8();
    if (width != 1 && width != 2 && width != 4 && width != 8) fail("has a bad integer width");
    if (n > (bytes_.size() - pos_) / static_cast<std::uint64_t>(width)) fail("is truncated");
    std::vector<std::int64_t> values(n);
    const auto* in = reinterpret_cast<const unsigned char*>(bytes_.data() + pos_);
    for (std::uint64_t k = 0; k < n; ++k) {
      std::uint64_t u = 0;
      for (int b = 0; b < width; ++b) u |= static_cast<std::uint64_t>(*in++) << (8 * b);
      if (width < 8 && (u >> (8 * width - 1)) != 0) u |= ~std::uint64_t{0} << (8 * width);
      values[k] = static_cast<std::int64_t>(u);
    }
    pos_ += n * static_cast<std::uint64_t>(width);
    return values;
  }
  /// The next n bytes.
  std::string block(std::uint64_t n) {
    need(n);
    std::string s = bytes_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  void finish() const {
    if (pos_ != bytes_.size()) fail("has " + std::to_string(bytes_.size() - pos_) + " extra bytes");
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw CheckpointError(where_ + " " + what);
  }

 private:
  void need(std::uint64_t n) const {
    if (n > bytes_.size() - pos_) fail("is truncated");
  }
  std::int8_t value(std::int8_t) { return static_cast<std::int8_t>(u8()); }
  std::uint8_t value(std::uint8_t) { return u8(); }
  std::int32_t value(std::int32_t) { return static_cast<std::int32_t>(u32()); }
  std::int64_t value(std::int64_t) { return i64(); }
  double value(double) { return f64(); }
  float value(float) {
    const std::uint32_t bits = u32();
    float v = 0.0f;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  const std::string& bytes_;
  std::string where_;
  std::size_t pos_ = 0;
};

// ---- field lists -------------------------------------------------------------------------

// One value: scalars in their own width (32-bit integers as u32), lists with their count,
// packed lists in the narrowest width.
inline void write_value(ByteWriter& w, std::int64_t v, FieldCodec) {
  w.i64(v);
}
inline void write_value(ByteWriter& w, std::int32_t v, FieldCodec) {
  w.u32(static_cast<std::uint32_t>(v));
}
inline void write_value(ByteWriter& w, double v, FieldCodec) {
  w.f64(v);
}
inline void write_value(ByteWriter& w, const std::vector<std::int64_t>& v, FieldCodec codec) {
  if (codec == FieldCodec::packed) {
    w.packed(v);
  } else {
    w.list(v);
  }
}
template <class T>
void write_value(ByteWriter& w, const std::vector<T>& v, FieldCodec) {
  w.list(v);
}

inline void read_value(ByteReader& r, std::int64_t& v, FieldCodec) {
  v = r.i64();
}
inline void read_value(ByteReader& r, std::int32_t& v, FieldCodec) {
  v = static_cast<std::int32_t>(r.u32());
}
inline void read_value(ByteReader& r, double& v, FieldCodec) {
  v = r.f64();
}
inline void read_value(ByteReader& r, std::vector<std::int64_t>& v, FieldCodec codec) {
  v = codec == FieldCodec::packed ? r.packed() : r.list<std::int64_t>();
}
template <class T>
void read_value(ByteReader& r, std::vector<T>& v, FieldCodec) {
  v = r.list<T>();
}

/// Every field of `state` into `w`, walking into fields with lists of their own (section
/// marks are the caller's: see checkpoint.cpp).
template <class State>
void write_fields(ByteWriter& w, const State& state) {
  for_each_field(state, [&](const auto& f) {
    using T = std::remove_const_t<std::remove_reference_t<decltype(f.value)>>;
    if constexpr (has_field_list_v<T>) {
      write_fields(w, f.value);
    } else {
      write_value(w, f.value, f.codec);
    }
  });
}

template <class State>
void read_fields(ByteReader& r, State& state) {
  for_each_field(state, [&](const auto& f) {
    using T = std::remove_reference_t<decltype(f.value)>;
    if constexpr (has_field_list_v<T>) {
      read_fields(r, f.value);
    } else {
      read_value(r, f.value, f.codec);
    }
  });
}

}  // namespace hamon::detail
