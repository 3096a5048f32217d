#pragma once
// DeviceSpec: what the caller asked for — where a call should run, before any decision.
//
//   auto    (default) let the threshold policy decide (see resolve_device.hpp)
//   cpu     the host tier (Serial or OpenMP, see resolve_device.hpp)
//   gpu     the accelerator (Kokkos::Cuda); alias "cuda"
//   none    hamon never touches placement; alias "off"
//   serial  Kokkos::Serial explicitly (an extension of the seed's vocabulary)
//   openmp  Kokkos::OpenMP explicitly (an extension)
//   a concrete execution-space instance (Kokkos::Serial / OpenMP / Cuda, e.g. a Cuda
//   instance on the caller's stream), used as-is.
//
// Strings (YAML, CLI, HAMON_DEVICE) are parsed case-insensitively with parse_device_spec.

#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>
#include <variant>

namespace hamon {

/// Thrown when an explicitly requested space cannot be used (backend not compiled in, or
/// no device visible at run time); the message says which.
class DeviceUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
template <typename Variant, typename Space>
struct AppendSpace;
template <typename... Spaces, typename Space>
struct AppendSpace<std::variant<Spaces...>, Space> {
  using type = std::variant<Spaces..., Space>;
};

using InstanceNone = std::variant<std::monostate>;
#ifdef KOKKOS_ENABLE_SERIAL
using InstanceSerial = AppendSpace<InstanceNone, Kokkos::Serial>::type;
#else
using InstanceSerial = InstanceNone;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
using InstanceOpenMP = AppendSpace<InstanceSerial, Kokkos::OpenMP>::type;
#else
using InstanceOpenMP = InstanceSerial;
#endif
#ifdef KOKKOS_ENABLE_CUDA
using InstanceVariant = AppendSpace<InstanceOpenMP, Kokkos::Cuda>::type;
#else
using InstanceVariant = InstanceOpenMP;
#endif
}  // namespace detail

class DeviceSpec {
 public:
  enum class Kind { auto_, cpu, gpu, none, serial, openmp, instance };

  /// A concrete execution-space instance; monostate unless kind() == Kind::instance. One
  /// alternative per enabled backend among Serial, OpenMP, Cuda.
  using Instance = detail::InstanceVariant;

  /// `auto`. Constructs no Kokkos object, so it is safe before Kokkos::initialize.
  DeviceSpec() = default;

  static DeviceSpec auto_() { return DeviceSpec(Kind::auto_); }  // NOLINT: `auto` is a keyword
  static DeviceSpec cpu() { return DeviceSpec(Kind::cpu); }
  static DeviceSpec gpu() { return DeviceSpec(Kind::gpu); }
  static DeviceSpec none() { return DeviceSpec(Kind::none); }
  static DeviceSpec serial() { return DeviceSpec(Kind::serial); }
  static DeviceSpec openmp() { return DeviceSpec(Kind::openmp); }

  Kind kind() const { return kind_; }
  bool is_instance() const { return kind_ == Kind::instance; }
  const Instance& instance() const { return instance_; }

  // Implicit on purpose: `hamon::sample(model, opts, Kokkos::Cuda(stream))` reads naturally.
#ifdef KOKKOS_ENABLE_SERIAL
  DeviceSpec(const Kokkos::Serial& space) : kind_(Kind::instance), instance_(space) {}
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  DeviceSpec(const Kokkos::OpenMP& space) : kind_(Kind::instance), instance_(space) {}
#endif
#ifdef KOKKOS_ENABLE_CUDA
  DeviceSpec(const Kokkos::Cuda& space) : kind_(Kind::instance), instance_(space) {}
#endif

 private:
  explicit DeviceSpec(Kind kind) : kind_(kind) {}

  Kind kind_ = Kind::auto_;
  Instance instance_;
};

/// "auto", "cpu", "gpu", "none", "serial", "openmp", "instance".
std::string to_string(DeviceSpec::Kind kind);

/// The words above; an instance is "instance:serial", "instance:openmp" or "instance:cuda".
/// For every non-instance spec, parse_device_spec(to_string(spec)) gives the spec back.
std::string to_string(const DeviceSpec& spec);

/// The accepted words, for error messages: "auto, cpu, gpu (alias cuda), none (alias
/// off), serial, openmp".
std::string accepted_device_specs();

/// Parses a device word, case-insensitively, ignoring surrounding whitespace.
/// Throws std::invalid_argument for "tpu" (Kokkos has no TPU backend) and for any other
/// unknown or empty word; both messages list the accepted values.
DeviceSpec parse_device_spec(const std::string& text);

}  // namespace hamon
