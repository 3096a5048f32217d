// SPDX-License-Identifier: Apache-2.0
// `hamon devices`: what this build and this machine offer, and the thresholds routing
// uses, each with where it came from.
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "config/config_error.hpp"
#include "config/yaml_values.hpp"
#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/backends.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "hamon/policies/thresholds.hpp"
#include "hamon/version.hpp"
#include "run/kokkos_session.hpp"
#include "run/mpi_job.hpp"
#include "run/summary.hpp"

namespace hamon::cli {

namespace {

// The Kokkos names of the compiled-in backends, in the list's order.
std::vector<std::string> enabled_spaces() {
  std::vector<std::string> spaces;
  for (const Backend& backend : kKnownBackends) {
    if (backend.compiled_in) {
      spaces.emplace_back(backend.kokkos_name);
    }
  }
  return spaces;
}

/// A threshold, or its error (a bad calibration file; the environment was checked before
/// the command ran): in the listing, since this command is how one finds such problems,
/// and added to `errors` (once: both thresholds read the same file) for stderr.
void emit_threshold(YAML::Emitter& out, const char* key, const std::function<Threshold()>& read,
                    std::vector<std::string>& errors) {
  out << YAML::Key << key << YAML::Value << YAML::BeginMap;
  try {
    const Threshold t = read();
    emit_float_entry(out, "value", t.value);
    out << YAML::Key << "source" << YAML::Value << to_string(t.source);
    out << YAML::Key << "origin" << YAML::Value << t.origin;
  } catch (const std::exception& e) {
    out << YAML::Key << "error" << YAML::Value << e.what();
    if (std::find(errors.begin(), errors.end(), e.what()) == errors.end()) {
      errors.emplace_back(e.what());
    }
  }
  out << YAML::EndMap;
}

int list_devices() {
  const KokkosSession kokkos;
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "hamon" << YAML::Value << YAML::DoubleQuoted << hamon::version;
  out << YAML::Key << "kokkos" << YAML::Value << YAML::DoubleQuoted << kokkos_version();
  out << YAML::Key << "backends" << YAML::Value << YAML::Flow << build_backend_list();

  out << YAML::Key << "spaces" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "enabled" << YAML::Value << YAML::Flow << enabled_spaces();
  out << YAML::Key << "default" << YAML::Value << Kokkos::DefaultExecutionSpace::name();
  out << YAML::Key << "default_host" << YAML::Value << Kokkos::DefaultHostExecutionSpace::name();
  out << YAML::Key << "host_concurrency" << YAML::Value
      << Kokkos::DefaultHostExecutionSpace().concurrency();
  out << YAML::EndMap;

  const AcceleratorInfo accelerator = probe_accelerator();
  out << YAML::Key << "accelerator" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "compiled_in" << YAML::Value << accelerator.compiled_in;
  out << YAML::Key << "visible_devices" << YAML::Value << accelerator.visible_devices;
  out << YAML::Key << "visible" << YAML::Value << accelerator.visible();
  if (!accelerator.detail.empty()) {
    out << YAML::Key << "detail" << YAML::Value << accelerator.detail;
  }
  out << YAML::EndMap;

  out << YAML::Key << "thresholds" << YAML::Value << YAML::BeginMap;
  std::vector<std::string> errors;
  emit_threshold(
      out, "device", [] { return device_threshold(); }, errors);
  emit_threshold(
      out, "host", [] { return host_threshold(); }, errors);
  const bool ok = errors.empty();
  out << YAML::EndMap;
  const auto calibration = calibration_file_path();
  std::error_code ec;
  out << YAML::Key << "calibration" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "file" << YAML::Value;
  if (calibration) {
    out << *calibration;
  } else {
    emit_null(out);
  }
  out << YAML::Key << "present" << YAML::Value
      << (calibration && std::filesystem::is_regular_file(*calibration, ec));
  out << YAML::EndMap;

  // In a job over ranks: where each rank runs (rank 0 prints for all).
  MpiJob& job = MpiJob::current();
  if (job.distributed()) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const auto device = job.device_of_rank(accelerator.visible_devices);
    YAML::Emitter line;
    line << YAML::Flow << YAML::BeginMap;
    line << YAML::Key << "rank" << YAML::Value << job.rank();
    line << YAML::Key << "host" << YAML::Value << host;
    line << YAML::Key << "node_local_rank" << YAML::Value << job.node_local_rank();
    line << YAML::Key << "default_space" << YAML::Value << Kokkos::DefaultExecutionSpace::name();
    line << YAML::Key << "host_concurrency" << YAML::Value
         << Kokkos::DefaultHostExecutionSpace().concurrency();
    line << YAML::Key << "gpu" << YAML::Value;
    if (device) {
      line << *device;
    } else {
      emit_null(line);
    }
    line << YAML::EndMap;
    const std::vector<std::string> ranks = job.gather_to_root(line.c_str());
    if (!job.is_root()) return ok ? 0 : kExitBadInput;
    out << YAML::Key << "mpi" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "ranks" << YAML::Value << job.size();
    out << YAML::Key << "per_rank" << YAML::Value << YAML::BeginSeq;
    for (const std::string& r : ranks) out << YAML::Load(r);
    out << YAML::EndSeq << YAML::EndMap;
  }

  const auto env_device = std::getenv(kDeviceEnv);
  out << YAML::Key << "env" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << kDeviceEnv << YAML::Value;
  if (env_device != nullptr) {
    out << YAML::DoubleQuoted << env_device;
  } else {
    emit_null(out);
  }
  out << YAML::EndMap;
  out << YAML::EndMap;
  std::cout << out.c_str() << "\n";
  for (const std::string& error : errors) std::cerr << error_line(error) << "\n";
  return ok ? 0 : kExitBadInput;
}

}  // namespace

Command add_devices_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "devices", "Kokkos spaces, accelerator, routing thresholds and their sources");
  sub->footer(
      "Exit status: 0, or 2 when HAMON_DEVICE, a threshold setting or HAMON_MEMORY_LIMIT is\n"
      "invalid (the error on stderr), or the calibration file is (on stderr and as error).");
  return {sub, [] { return list_devices(); }, true};
}

}  // namespace hamon::cli
