// SPDX-License-Identifier: Apache-2.0
#include "run/ensemble_summary.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <variant>
#include <vector>

#include "config/emit_experiment.hpp"
#include "config/yaml_values.hpp"
#include "hamon/core/stats/jackknife.hpp"
#include "hamon/core/stats/overlap_statistics.hpp"
#include "output/atomic_file.hpp"
#include "output/npy.hpp"
#include "output/run_files.hpp"
#include "run/ensemble_health.hpp"
#include "run/summary.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

/// Instance rows x temperature columns of one observable.
struct Table {
  std::size_t columns = 0;
  std::vector<double> rows;  // row-major
  std::vector<double> column(std::size_t c) const {
    std::vector<double> values;
    for (std::size_t i = c; i < rows.size(); i += columns) values.push_back(rows[i]);
    return values;
  }
};

std::vector<double> float_list(const YAML::Node& node, const std::string& what) {
  if (!node.IsSequence()) throw std::runtime_error(what + " is not a list");
  std::vector<double> values;
  for (const auto& v : node) values.push_back(v.IsNull() ? std::nan("") : v.as<double>());
  return values;
}

struct Instances {
  Table energy;
  std::vector<double> overlap_betas;
  std::map<std::string, Table> overlap;  // the keys every instance has
  std::string overlap_skipped;           // why there are no overlap averages, if so
  EnsembleHealth health;
};

Instances read_instances(const fs::path& partial, std::int64_t count) {
  Instances in;
  in.energy.columns = 1;
  bool every_overlap = true;
  std::vector<std::map<std::string, std::vector<double>>> lists(static_cast<std::size_t>(count));
  for (std::int64_t k = 0; k < count; ++k) {
    const fs::path file = partial / "instances" / std::to_string(k) / kSummaryFile;
    YAML::Node summary;
    try {
      summary = YAML::LoadFile(file.string());
      in.health.add(k, summary["health"]);
      const YAML::Node energy = summary["observables"]["energy_per_node"];
      in.energy.rows.push_back(energy.IsMap() ? energy["mean"].as<double>() : std::nan(""));
      const YAML::Node overlap = summary["overlap"];
      if (!overlap.IsMap()) {
        every_overlap = false;
        continue;
      }
      const std::vector<double> betas = float_list(overlap["betas"], "overlap.betas");
      if (in.overlap_betas.empty()) in.overlap_betas = betas;  // the first overlap section
      if (betas != in.overlap_betas) {
        // An adapted ladder ends where each instance's barriers put it: no common columns.
        in.overlap_skipped =
            "instance " + std::to_string(k) +
            "'s overlap.betas differ from an earlier instance's (nrpt.adapt_schedule "
            "adapts each instance's ladder: fix the ladder to average overlaps)";
        every_overlap = false;
        continue;
      }
      for (const std::string key : kEnsembleOverlapKeys) {
        // A key the section lacks is an invalid node, whose type cannot be asked.
        const YAML::Node list = overlap[key];
        if (list && list.IsSequence()) {
          lists[static_cast<std::size_t>(k)][key] = float_list(list, "overlap." + key);
        }
      }
    } catch (const YAML::Exception& e) {
      throw std::runtime_error(file.string() + ": " + e.what());
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(file.string() + ": " + e.what());
    }
  }
  if (!every_overlap || count == 0) {
    if (in.overlap_skipped.empty() && !in.overlap_betas.empty()) {
      in.overlap_skipped = "not every instance's summary has an overlap: section";
    }
    in.overlap_betas.clear();
    return in;
  }
  for (const std::string key : kEnsembleOverlapKeys) {
    Table table;
    table.columns = in.overlap_betas.size();
    bool everywhere = true;
    for (const auto& instance : lists) {
      const auto it = instance.find(key);
      if (it == instance.end() || it->second.size() != table.columns) {
        everywhere = false;
        break;
      }
      table.rows.insert(table.rows.end(), it->second.begin(), it->second.end());
    }
    if (everywhere) in.overlap[key] = std::move(table);
  }
  return in;
}

void write_table(const fs::path& partial, const std::string& name, const Table& table) {
  write_atomically(partial / name, [&](std::ostream& out) {
    write_npy(out, table.rows, {table.rows.size() / table.columns, table.columns});
  });
}

/// Per temperature: `estimate(c)` for every column, as {mean: [...], stderr: [...]}.
template <class Estimate>
void emit_per_temperature(YAML::Emitter& out, std::size_t columns, Estimate estimate) {
  std::vector<double> means, errors;
  for (std::size_t c = 0; c < columns; ++c) {
    const JackknifeEstimate e = estimate(c);
    means.push_back(e.value);
    errors.push_back(e.error);
  }
  out << YAML::BeginMap << YAML::Key << "mean" << YAML::Value;
  emit_float_list(out, means);
  out << YAML::Key << "stderr" << YAML::Value;
  emit_float_list(out, errors);
  out << YAML::EndMap;
}

void emit_overlap(YAML::Emitter& out, const Instances& in, const ExperimentConfig& config) {
  out << YAML::Key << "overlap" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "betas" << YAML::Value;
  emit_float_list(out, in.overlap_betas);
  const std::size_t columns = in.overlap_betas.size();
  for (const char* key : {"q2", "q4", "abs_q", "chi_sg", "chi_kmin", "link_overlap"}) {
    const auto it = in.overlap.find(key);
    if (it == in.overlap.end()) continue;
    out << YAML::Key << key << YAML::Value;
    emit_per_temperature(out, columns,
                         [&](std::size_t c) { return jackknife_mean(it->second.column(c)); });
  }
  const auto q2 = in.overlap.find("q2");
  const auto q4 = in.overlap.find("q4");
  if (q2 != in.overlap.end() && q4 != in.overlap.end()) {
    // g of the disorder averages, with the jackknife's error (not the mean of the g's).
    out << YAML::Key << "binder" << YAML::Value;
    emit_per_temperature(out, columns, [&](std::size_t c) {
      return jackknife_binder(q2->second.column(c), q4->second.column(c));
    });
  }
  const auto chi_0 = in.overlap.find("chi_sg");
  const auto chi_k = in.overlap.find("chi_kmin");
  const auto* lattice = std::get_if<LatticeSpec>(&config.model);
  if (chi_0 != in.overlap.end() && chi_k != in.overlap.end() && lattice != nullptr) {
    // xi_L of the averaged susceptibilities, jackknifed, like g (chi_kmin exists on cubic
    // lattices only, so every extent is shape[0]).
    const std::int64_t extent = lattice->shape.at(0);
    out << YAML::Key << "xi" << YAML::Value;
    emit_per_temperature(out, columns, [&](std::size_t c) {
      return jackknife(
          {chi_0->second.column(c), chi_k->second.column(c)},
          [&](const std::vector<double>& a) { return second_moment_xi(a[0], a[1], extent); });
    });
  }
  out << YAML::EndMap;
}

}  // namespace

EnsembleHealth write_ensemble_outputs(const fs::path& partial, const ExperimentConfig& config) {
  const Instances in = read_instances(partial, config.instances);
  write_table(partial, kEnsembleEnergyFile, in.energy);
  for (const auto& [key, table] : in.overlap)
    write_table(partial, ensemble_overlap_file(key), table);
  YAML::Emitter out;
  out << YAML::BeginMap;
  emit_hamon_block(out);
  out << YAML::Key << "config" << YAML::Value;
  emit_experiment(out, config);
  out << YAML::Key << "ensemble" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "instances" << YAML::Value << config.instances;
  in.health.emit(out);
  if (in.health.failed > 0) {
    out << YAML::Key << "averages_flag" << YAML::Value << YAML::DoubleQuoted
        << "the averages include " + std::to_string(in.health.failed) + " of " +
               std::to_string(config.instances) +
               " instances whose health failed (ensemble.health): do not trust them as they are";
  }
  out << YAML::Key << "energy_per_node" << YAML::Value;
  const JackknifeEstimate energy = jackknife_mean(in.energy.column(0));
  emit_mean_and_stderr(out, energy.value, energy.error);
  if (!in.overlap.empty()) emit_overlap(out, in, config);
  if (!in.overlap_skipped.empty()) {
    out << YAML::Key << "overlap_skipped" << YAML::Value << YAML::DoubleQuoted
        << in.overlap_skipped;
  }
  out << YAML::EndMap << YAML::EndMap;
  const std::string text = std::string(out.c_str()) + "\n";
  write_atomically(partial / kSummaryFile, [&](std::ostream& o) { o << text; });
  return in.health;
}

}  // namespace hamon::cli
