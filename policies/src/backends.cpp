// SPDX-License-Identifier: Apache-2.0
#include "hamon/policies/backends.hpp"

namespace hamon {

const Backend* find_backend(Placement placement) {
  for (const Backend& backend : kKnownBackends) {
    if (backend.placement == placement) {
      return &backend;
    }
  }
  return nullptr;
}

const Backend* find_backend(const std::string& name) {
  for (const Backend& backend : kKnownBackends) {
    if (name == backend.name) {
      return &backend;
    }
  }
  return nullptr;
}

std::vector<Placement> compiled_in_backends(Tier tier) {
  std::vector<Placement> out;
  for (const Backend& backend : kKnownBackends) {
    if (backend.tier == tier && backend.compiled_in) {
      out.push_back(backend.placement);
    }
  }
  return out;
}

std::string to_string(Placement placement) {
  const Backend* backend = find_backend(placement);
  return backend != nullptr ? backend->name : "leave_alone";
}

}  // namespace hamon
