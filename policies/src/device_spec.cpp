// SPDX-License-Identifier: Apache-2.0
#include "hamon/policies/device_spec.hpp"

#include <algorithm>
#include <cctype>
#include <type_traits>
#include <vector>

#include "hamon/core/util/enum_names.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon {

namespace {

std::string trim_lower(const std::string& text) {
  std::string out = trim(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The names of a tier's backends, known to this hamon whether compiled in or not.
std::vector<std::string> backend_names(Tier tier) {
  std::vector<std::string> names;
  for (const Backend& backend : kKnownBackends) {
    if (backend.tier == tier) {
      names.emplace_back(backend.name);
    }
  }
  return names;
}

}  // namespace

DeviceSpec DeviceSpec::backend(Placement placement) {
  const Backend* backend = find_backend(placement);
  if (backend == nullptr) {
    throw std::invalid_argument("DeviceSpec::backend needs a backend, not leave_alone");
  }
  return backend->tier == Tier::accelerator ? gpu() : DeviceSpec(Kind::backend, placement);
}

constexpr EnumNames<DeviceSpec::Kind, 6> kKindNames{{
    {DeviceSpec::Kind::auto_, "auto"},
    {DeviceSpec::Kind::cpu, "cpu"},
    {DeviceSpec::Kind::gpu, "gpu"},
    {DeviceSpec::Kind::none, "none"},
    {DeviceSpec::Kind::backend, "backend"},
    {DeviceSpec::Kind::instance, "instance"},
}};

std::string to_string(DeviceSpec::Kind kind) {
  return name_of(kKindNames, kind);
}

std::string to_string(const DeviceSpec& spec) {
  if (spec.kind() == DeviceSpec::Kind::backend) {
    return to_string(spec.backend());
  }
  if (!spec.is_instance()) {
    return to_string(spec.kind());
  }
  return std::visit(
      [](const auto& space) -> std::string {
        using Space = std::decay_t<decltype(space)>;
        if constexpr (std::is_same_v<Space, std::monostate>) {
          return "instance";
        } else {
          return "instance:" + to_string(placement_of_space<Space>());
        }
      },
      spec.instance());
}

std::string accepted_device_specs() {
  const std::string accelerators = join(backend_names(Tier::accelerator));
  std::string words = "auto, cpu, gpu";
  if (!accelerators.empty()) {
    words += " (alias " + accelerators + ")";
  }
  words += ", none (alias off)";
  const std::string hosts = join(backend_names(Tier::host));
  return hosts.empty() ? words : words + ", " + hosts;
}

DeviceSpec parse_device_spec(const std::string& text) {
  const std::string word = trim_lower(text);
  if (word == "auto") {
    return DeviceSpec::auto_();
  }
  if (word == "cpu") {
    return DeviceSpec::cpu();
  }
  if (word == "gpu") {
    return DeviceSpec::gpu();
  }
  if (word == "none" || word == "off") {
    return DeviceSpec::none();
  }
  if (const Backend* backend = find_backend(word)) {
    return DeviceSpec::backend(backend->placement);
  }
  if (word == "tpu") {
    throw std::invalid_argument(
        "device 'tpu' is not supported: Kokkos has no TPU backend; accepted values: " +
        accepted_device_specs());
  }
  if (word.empty()) {
    throw std::invalid_argument("empty device spec; accepted values: " + accepted_device_specs());
  }
  throw std::invalid_argument("unknown device spec '" + text +
                              "'; accepted values: " + accepted_device_specs());
}

}  // namespace hamon
