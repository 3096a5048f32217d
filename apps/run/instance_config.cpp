// SPDX-License-Identifier: Apache-2.0
#include "run/instance_config.hpp"

#include <type_traits>
#include <variant>

#include "hamon/core/util/seeds.hpp"
#include "output/run_directory.hpp"
#include "run/prepare_run.hpp"

namespace hamon::cli {

namespace {

template <class Spec>
constexpr bool has_graph_file =
    std::is_same_v<Spec, GraphSpec> || std::is_same_v<Spec, ContinuousSpec>;

std::uint64_t disorder_seed(std::uint64_t seed, std::int64_t k) {
  return derive_seed(seed, SeedStream::instance_disorder, static_cast<std::uint64_t>(k));
}

}  // namespace

ExperimentConfig instance_config(const ExperimentConfig& ensemble, std::int64_t k,
                                 const std::string& dir) {
  ExperimentConfig config = ensemble;
  config.instances = 1;
  config.output.dir = dir;
  config.output.recorded_dir = instance_rerun_dir(ensemble.output.dir, k);
  config.instance_files.clear();
  if (!ensemble.instance_files.empty()) {
    const std::string& file = ensemble.instance_files.at(static_cast<std::size_t>(k));
    std::visit(
        [&file](auto& spec) {
          if constexpr (has_graph_file<std::decay_t<decltype(spec)>>) spec.file = file;
        },
        config.model);
    // The file's errors point at the entry that names it (or the pattern).
    config.locations["model.file"] = ensemble.where(instance_file_key(k));
  }
  config.seed =
      derive_seed(ensemble.seed, SeedStream::instance_sampler, static_cast<std::uint64_t>(k));
  std::visit(
      [k](auto& spec) {
        using Spec = std::decay_t<decltype(spec)>;
        if constexpr (std::is_same_v<Spec, LatticeSpec>) {
          spec.coupling.seed = disorder_seed(spec.coupling.seed, k);
          spec.field.seed = disorder_seed(spec.field.seed, k);
        } else if constexpr (std::is_same_v<Spec, RbmSpec>) {
          if (spec.random) spec.random->seed = disorder_seed(spec.random->seed, k);
        }
      },
      config.model);
  return config;
}

std::string undrawn_model_reason(const ModelSpec& model) {
  return std::visit(
      [](const auto& spec) -> std::string {
        using Spec = std::decay_t<decltype(spec)>;
        using Kind = ValueDistribution::Kind;
        if constexpr (std::is_same_v<Spec, LatticeSpec>) {
          if (!spec.file.empty()) return "a lattice read from a graph file draws nothing";
          const bool potts_field_given = spec.potts > 0 && !spec.potts_field.empty();
          const bool drawn = spec.coupling.kind != Kind::constant ||
                             (!potts_field_given && spec.field.kind != Kind::constant);
          return drawn ? "" : "a lattice whose coupling and field are constants draws nothing";
        } else if constexpr (std::is_same_v<Spec, RbmSpec>) {
          return spec.random ? "" : "an RBM with given weights (no model.random) draws nothing";
        } else if constexpr (std::is_same_v<Spec, GraphSpec>) {
          return "a graph model draws nothing";
        } else if constexpr (std::is_same_v<Spec, ObjectiveSpec>) {
          return std::string("a ") + kind_name(spec.terms.format) + " file draws nothing";
        } else {
          return "a continuous model's drawn values are not re-drawn per instance";
        }
      },
      model);
}

std::string instance_file_key(std::int64_t k) {
  return "instances.files[" + std::to_string(k) + "]";
}

void check_instance_models(const ExperimentConfig& ensemble) {
  for (std::size_t k = 0; k < ensemble.instance_files.size(); ++k) {
    const auto index = static_cast<std::int64_t>(k);
    try {
      (void)prepare_run_from_config(instance_config(ensemble, index, ensemble.output.dir),
                                    OutputPolicy::continue_run);
    } catch (const ConfigError& e) {
      throw ConfigError(ensemble.where(instance_file_key(index)),
                        "instance " + std::to_string(k) + " (" + ensemble.instance_files[k] +
                            "): " + e.message());
    }
  }
}

std::string instance_rerun_dir(const std::string& ensemble_dir, std::int64_t k) {
  return normalised_run_dir(ensemble_dir).string() + "-instance-" + std::to_string(k);
}

}  // namespace hamon::cli
