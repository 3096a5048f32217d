// SPDX-License-Identifier: Apache-2.0
#pragma once
// DeviceSpec: what the caller asked for — where a call should run, before any decision.
//
//   auto    (default) let the threshold policy decide (see resolve_device.hpp)
//   cpu     the host tier (Serial or OpenMP, see resolve_device.hpp)
//   gpu     the accelerator (Kokkos::Cuda); alias "cuda"
//   none    hamon never touches placement; alias "off"
//   serial, openmp, ...   one host backend explicitly, by its name in
//                         cmake/HamonBackends.cmake's list (an extension of the seed's
//                         vocabulary); an accelerator's name is an alias of gpu
//   a concrete execution-space instance of any instantiated space (e.g. a Cuda instance
//   on the caller's stream), used as-is.
//
// Strings (YAML, CLI, HAMON_DEVICE) are parsed case-insensitively with parse_device_spec.

#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include "hamon/core/util/instantiated_spaces.hpp"
#include "hamon/policies/backends.hpp"

namespace hamon {

/// Thrown when an explicitly requested space cannot be used (backend not compiled in, or
/// no device visible at run time); the message says which.
class DeviceUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
template <class List>
struct InstanceOf;
template <class... Spaces>
struct InstanceOf<SpaceList<Spaces...>> {
  using type = std::variant<std::monostate, Spaces...>;
};
}  // namespace detail

class DeviceSpec {
 public:
  enum class Kind { auto_, cpu, gpu, none, backend, instance };

  /// A concrete execution-space instance; monostate unless kind() == Kind::instance. One
  /// alternative per instantiated space (hamon/core/util/instantiated_spaces.hpp).
  using Instance = detail::InstanceOf<InstantiatedSpaces>::type;

  /// `auto`. Constructs no Kokkos object, so it is safe before Kokkos::initialize.
  DeviceSpec() = default;

  static DeviceSpec auto_() { return DeviceSpec(Kind::auto_); }  // NOLINT: `auto` is a keyword
  static DeviceSpec cpu() { return DeviceSpec(Kind::cpu); }
  static DeviceSpec gpu() { return DeviceSpec(Kind::gpu); }
  static DeviceSpec none() { return DeviceSpec(Kind::none); }
  /// One host backend by name (Placement::serial, Placement::openmp): Kind::backend. An
  /// accelerator's placement means `gpu`. Throws std::invalid_argument for leave_alone.
  static DeviceSpec backend(Placement placement);

  Kind kind() const { return kind_; }
  /// The host backend of Kind::backend (leave_alone for every other kind).
  Placement backend() const { return backend_; }
  bool is_instance() const { return kind_ == Kind::instance; }
  const Instance& instance() const { return instance_; }

  // Implicit on purpose: `hamon::sample(model, opts, Kokkos::Cuda(stream))` reads naturally.
  // A space hamon is not compiled for is a readable compile error.
  template <class Space, class = require_instantiated_t<Space>>
  DeviceSpec(const Space& space) : kind_(Kind::instance), instance_(space) {}

 private:
  explicit DeviceSpec(Kind kind, Placement backend = Placement::leave_alone)
      : kind_(kind), backend_(backend) {}

  Kind kind_ = Kind::auto_;
  Placement backend_ = Placement::leave_alone;
  Instance instance_;
};

/// "auto", "cpu", "gpu", "none", "backend", "instance".
std::string to_string(DeviceSpec::Kind kind);

/// The words above, but a backend spec is its name ("serial") and an instance is
/// "instance:<name>" ("instance:cuda").
/// For every non-instance spec, parse_device_spec(to_string(spec)) gives the spec back.
std::string to_string(const DeviceSpec& spec);

/// The accepted words, for error messages: "auto, cpu, gpu (alias cuda), none (alias
/// off), serial, openmp" (the backend names from the list).
std::string accepted_device_specs();

/// Parses a device word, case-insensitively, ignoring surrounding whitespace.
/// Throws std::invalid_argument for "tpu" (Kokkos has no TPU backend) and for any other
/// unknown or empty word; both messages list the accepted values.
DeviceSpec parse_device_spec(const std::string& text);

}  // namespace hamon
