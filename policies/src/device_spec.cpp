#include "hamon/policies/device_spec.hpp"

#include <algorithm>
#include <cctype>

namespace hamon {

namespace {

std::string trim_lower(const std::string& text) {
  auto is_space = [](unsigned char c) { return std::isspace(c) != 0; };
  auto first = std::find_if_not(text.begin(), text.end(), is_space);
  auto last = std::find_if_not(text.rbegin(), text.rend(), is_space).base();
  std::string out = first < last ? std::string(first, last) : std::string();
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// One overload per alternative of DeviceSpec::Instance: a new alternative without a name
// does not compile.
std::string instance_name(std::monostate /*unused*/) {
  return "instance";
}
#ifdef KOKKOS_ENABLE_SERIAL
std::string instance_name(const Kokkos::Serial& /*unused*/) {
  return "instance:serial";
}
#endif
#ifdef KOKKOS_ENABLE_OPENMP
std::string instance_name(const Kokkos::OpenMP& /*unused*/) {
  return "instance:openmp";
}
#endif
#ifdef KOKKOS_ENABLE_CUDA
std::string instance_name(const Kokkos::Cuda& /*unused*/) {
  return "instance:cuda";
}
#endif

}  // namespace

std::string to_string(DeviceSpec::Kind kind) {
  switch (kind) {
    case DeviceSpec::Kind::auto_:
      return "auto";
    case DeviceSpec::Kind::cpu:
      return "cpu";
    case DeviceSpec::Kind::gpu:
      return "gpu";
    case DeviceSpec::Kind::none:
      return "none";
    case DeviceSpec::Kind::serial:
      return "serial";
    case DeviceSpec::Kind::openmp:
      return "openmp";
    case DeviceSpec::Kind::instance:
      return "instance";
  }
  return "unknown";
}

std::string to_string(const DeviceSpec& spec) {
  if (!spec.is_instance()) {
    return to_string(spec.kind());
  }
  return std::visit([](const auto& space) { return instance_name(space); }, spec.instance());
}

std::string accepted_device_specs() {
  return "auto, cpu, gpu (alias cuda), none (alias off), serial, openmp";
}

DeviceSpec parse_device_spec(const std::string& text) {
  const std::string word = trim_lower(text);
  if (word == "auto") {
    return DeviceSpec::auto_();
  }
  if (word == "cpu") {
    return DeviceSpec::cpu();
  }
  if (word == "gpu" || word == "cuda") {
    return DeviceSpec::gpu();
  }
  if (word == "none" || word == "off") {
    return DeviceSpec::none();
  }
  if (word == "serial") {
    return DeviceSpec::serial();
  }
  if (word == "openmp") {
    return DeviceSpec::openmp();
  }
  if (word == "tpu") {
    throw std::invalid_argument(
        "hamon: device 'tpu' is not supported: Kokkos has no TPU backend; accepted values: " +
        accepted_device_specs());
  }
  if (word.empty()) {
    throw std::invalid_argument("hamon: empty device spec; accepted values: " +
                                accepted_device_specs());
  }
  throw std::invalid_argument("hamon: unknown device spec '" + text +
                              "'; accepted values: " + accepted_device_specs());
}

}  // namespace hamon
