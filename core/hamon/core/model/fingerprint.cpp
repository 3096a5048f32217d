// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/model/fingerprint.hpp"

#include <cstdio>
#include <cstring>

#include "hamon/core/util/seeds.hpp"

namespace hamon {

Fingerprint& Fingerprint::add_bytes(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t k = 0; k < size; ++k) {
    state_ ^= bytes[k];
    state_ *= 0x100000001b3ULL;  // FNV prime
  }
  return *this;
}

Fingerprint& Fingerprint::add(std::uint64_t value) {
  unsigned char bytes[8];
  for (int k = 0; k < 8; ++k) bytes[k] = static_cast<unsigned char>(value >> (8 * k));
  return add_bytes(bytes, sizeof bytes);
}

Fingerprint& Fingerprint::add(double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return add(bits);
}

Fingerprint& Fingerprint::add(const std::string& text) {
  add(static_cast<std::uint64_t>(text.size()));
  return add_bytes(text.data(), text.size());
}

std::uint64_t Fingerprint::value() const {
  return splitmix64(state_);
}

std::string to_hex(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

std::uint64_t model_fingerprint(const SpinModel& model) {
  Fingerprint f;
  f.add(std::string("hamon::SpinModel"));
  f.add(model.n_nodes());
  f.add(model.n_edges());
  for (const Edge& e : model.edges()) f.add(e.i).add(e.j).add(e.coupling);
  for (double h : model.fields()) f.add(h);
  for (std::int8_t c : model.clamped()) f.add(static_cast<std::int64_t>(c));
  for (std::int32_t colour : model.colour_of_node()) f.add(colour);
  if (model.is_potts()) {  // Ising fingerprints stay what they were
    f.add(std::string("potts")).add(static_cast<std::int64_t>(model.n_states()));
    for (double h : model.state_fields()) f.add(h);
    for (std::int16_t s : model.clamped_states()) f.add(static_cast<std::int64_t>(s));
    for (double w : model.edge_matrices()) f.add(w);
  }
  if (model.is_continuous()) {  // discrete fingerprints stay what they were
    f.add(std::string(to_string(model.continuous_kind())));
    for (double w : model.node_weights()) f.add(w);
  }
  return f.value();
}

}  // namespace hamon
