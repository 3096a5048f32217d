// SPDX-License-Identifier: Apache-2.0
#include "run/objective_model.hpp"

#include <cmath>

#include "config/yaml_values.hpp"
#include "output/npy.hpp"
#include "output/run_files.hpp"

namespace hamon::cli {

IsingForm ising_form(const ObjectiveTerms& problem) {
  IsingForm form;
  form.fields.assign(static_cast<std::size_t>(problem.n), 0.0);
  if (problem.format == ObjectiveFormat::maxcut) {
    form.scale = -0.5;
    for (const ObjectiveTerm& t : problem.terms) {
      form.offset += t.value / 2.0;
      if (t.value != 0.0) form.edges.push_back({t.i, t.j, -t.value});
    }
    return form;
  }
  // Q x_i x_j = Q (1 + s_i + s_j + s_i s_j) / 4 off the diagonal, Q x_i = Q (1 + s_i) / 2 on it.
  for (const ObjectiveTerm& t : problem.terms) {
    auto& hi = form.fields[static_cast<std::size_t>(t.i)];
    if (t.i == t.j) {
      form.offset += t.value / 2.0;
      hi -= t.value / 2.0;
      continue;
    }
    const double quarter = t.value / 4.0;
    form.offset += quarter;
    hi -= quarter;
    form.fields[static_cast<std::size_t>(t.j)] -= quarter;
    if (t.value != 0.0) form.edges.push_back({t.i, t.j, -quarter});
  }
  return form;
}

SpinModel objective_model(const ObjectiveTerms& problem) {
  const IsingForm form = ising_form(problem);
  return SpinModel::from_edges(problem.n, form.edges, form.fields);
}

double objective_value(const ObjectiveTerms& problem, const std::vector<std::int8_t>& spins) {
  double value = 0.0;
  for (const ObjectiveTerm& t : problem.terms) {
    const std::int8_t si = spins[static_cast<std::size_t>(t.i)];
    const std::int8_t sj = spins[static_cast<std::size_t>(t.j)];
    if (problem.format == ObjectiveFormat::maxcut) {
      if (si != sj) value += t.value;
    } else if (si > 0 && sj > 0) {
      value += t.value;
    }
  }
  return value;
}

void emit_objective_entries(YAML::Emitter& out, const ObjectiveTerms& problem,
                            const std::vector<std::int8_t>& best_spins) {
  const bool qubo = problem.format == ObjectiveFormat::qubo;
  const IsingForm form = ising_form(problem);
  emit_float_entry(out, "best_objective", objective_value(problem, best_spins));
  out << YAML::Key << "objective" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << (qubo ? "qubo_value" : "cut_value");
  out << YAML::Key << "goal" << YAML::Value << (qubo ? "minimise" : "maximise");
  emit_float_entry(out, "scale", form.scale);
  emit_float_entry(out, "offset", form.offset);
  out << YAML::Key << "assignment" << YAML::Value << YAML::DoubleQuoted
      << std::string(kBestAssignmentFile) +
             (qubo ? ": x_i in {0, 1}" : ": the side 0/1 of each node (1: spin +1)");
  out << YAML::EndMap;
}

std::string objective_line(const ObjectiveTerms& problem,
                           const std::vector<std::int8_t>& best_spins) {
  const bool qubo = problem.format == ObjectiveFormat::qubo;
  const IsingForm form = ising_form(problem);
  const double offset = form.offset;
  return std::string(qubo ? "qubo    " : "cut     ") +
         yaml_float(objective_value(problem, best_spins)) + " (" +
         (qubo ? "qubo_value, minimised" : "cut_value, maximised") + "; " +
         (qubo ? "qubo_value" : "cut_value") + " = " + yaml_float(form.scale) + " x energy " +
         (offset < 0 ? "- " : "+ ") + yaml_float(std::fabs(offset)) + "; " + kBestAssignmentFile +
         ")";
}

void write_best_assignment(std::ostream& out, const std::vector<std::int8_t>& best_spins) {
  std::vector<std::uint8_t> x(best_spins.size());
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = best_spins[k] > 0 ? 1 : 0;
  out << npy_header(npy_descr<std::uint8_t>(), {x.size()});
  out.write(reinterpret_cast<const char*>(x.data()), static_cast<std::streamsize>(x.size()));
}

}  // namespace hamon::cli
