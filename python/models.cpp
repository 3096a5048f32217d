// SPDX-License-Identifier: Apache-2.0
// Models from NumPy arrays (dense or sparse couplings, fields, clamps) and from hamon's
// builders (lattices, RBMs): every model is a hamon::SpinModel, validated by its own
// constructors, so a bad entry raises ModelError with the C++ message.
#include <pybind11/stl.h>

#include <hamon/core/model/fingerprint.hpp>
#include <hamon/core/model/model_builders.hpp>
#include <hamon/core/model/rbm.hpp>
#include <hamon/core/model/spin_model.hpp>
#include <memory>
#include <optional>

#include "bindings.hpp"
#include "model_arrays.hpp"

namespace hamon_python {
namespace {

using hamon::SpinModel;

SpinModel ising(const py::object& J, const py::object& edges, const py::object& couplings,
                std::optional<std::int64_t> n_nodes, const py::object& fields,
                const py::object& clamps) {
  const Couplings c = couplings_of(J, edges, couplings);
  const auto h = optional_values(fields, "fields");
  return SpinModel::from_edges(node_count(c, n_nodes, h.size()), c.edges, h, clamps_of(clamps));
}

SpinModel potts(int q, const py::object& J, const py::object& edges, const py::object& couplings,
                std::optional<std::int64_t> n_nodes, const py::object& fields,
                const py::object& clamps, const py::object& matrices) {
  const Couplings c = couplings_of(J, edges, couplings);
  std::vector<double> h;
  std::optional<std::int64_t> n_from_fields;
  if (!fields.is_none()) {
    py::array f = py::array::ensure(fields);
    if (f && f.ndim() == 2) {
      n_from_fields = f.shape(0);
      if (f.shape(1) != q) {
        throw py::value_error("fields: expected n x q = n x " + std::to_string(q) +
                              " values h_i(s), got n x " + std::to_string(f.shape(1)));
      }
      h = from_numpy<double>(fields, "fields", 2);
    } else {
      h = from_numpy<double>(fields, "fields");  // q values, the same at every node
      if (h.size() != static_cast<std::size_t>(q)) {
        throw py::value_error("fields: a 1-D list holds q = " + std::to_string(q) +
                              " values h(s), got " + std::to_string(h.size()));
      }
    }
  }
  const std::int64_t n = node_count(c, n_nodes ? n_nodes : n_from_fields, 0);
  if (!fields.is_none() && !n_from_fields) {
    std::vector<double> every(static_cast<std::size_t>(n) * q);
    for (std::int64_t i = 0; i < n; ++i) std::copy(h.begin(), h.end(), every.begin() + i * q);
    h = std::move(every);
  }
  return SpinModel::potts(n, q, c.edges, h, clamps_of(clamps), matrices_of(matrices, q));
}

SpinModel continuous(bool gaussian, const py::object& weights, const py::object& J,
                     const py::object& edges, const py::object& couplings,
                     const py::object& fields) {
  const Couplings c = couplings_of(J, edges, couplings);
  const auto w = from_numpy<double>(weights, gaussian ? "diag" : "barrier");
  const auto h = optional_values(fields, "fields");
  const auto n = node_count(c, std::nullopt, w.size());
  if (static_cast<std::size_t>(n) != w.size()) {
    throw py::value_error(std::string(gaussian ? "diag" : "barrier") + ": " +
                          std::to_string(w.size()) + " values for " + std::to_string(n) + " nodes");
  }
  return gaussian ? SpinModel::gaussian(n, c.edges, w, h)
                  : SpinModel::double_well(n, c.edges, w, h);
}

hamon::ValueDistribution distribution_of(const py::object& value) {
  if (py::isinstance<hamon::ValueDistribution>(value))
    return value.cast<hamon::ValueDistribution>();
  return hamon::ValueDistribution::constant(value.cast<double>());
}

std::string kind_of(const SpinModel& m) {
  if (m.is_continuous()) return hamon::to_string(m.continuous_kind());
  return m.is_potts() ? "potts" : "ising";
}

py::object fields_of(const SpinModel& m) {
  if (m.is_potts()) {
    return to_numpy(m.state_fields(), {m.n_nodes(), m.n_states()});
  }
  return to_numpy(m.fields());
}

/// E of one configuration (n values: a number) or of each row of a batch (k x n: an array).
template <class T, class One>
py::object energies_of(const SpinModel& m, const py::object& state, One&& one) {
  const py::array a = py::array::ensure(state);
  if (!a || (a.ndim() != 1 && a.ndim() != 2)) {
    throw py::value_error("state: expected one configuration (n values) or a batch (k x n)");
  }
  const auto n = m.n_nodes();
  if (a.shape(a.ndim() - 1) != n) {
    throw py::value_error("state: " + std::to_string(a.shape(a.ndim() - 1)) +
                          " values per configuration for " + std::to_string(n) + " nodes");
  }
  const auto values = from_numpy<T>(state, "state", static_cast<int>(a.ndim()));
  std::vector<double> out;
  for (std::size_t k = 0; k < values.size(); k += static_cast<std::size_t>(n)) {
    out.push_back(one(std::vector<T>(values.begin() + k, values.begin() + k + n)));
  }
  if (a.ndim() == 1) return py::float_(out.front());
  return to_numpy(out);
}

py::object energy_of(const SpinModel& m, const py::object& state) {
  if (m.is_continuous()) {
    return energies_of<double>(m, state, [&](const auto& x) { return m.continuous_energy(x); });
  }
  if (m.is_potts()) {
    return energies_of<std::uint8_t>(m, state, [&](const auto& x) { return m.potts_energy(x); });
  }
  return energies_of<std::int8_t>(m, state, [&](const auto& x) { return m.energy(x); });
}

SpinModel continuous_lattice(hamon::ContinuousKind kind, const std::vector<int>& extents,
                             const py::object& weights, bool periodic, const py::object& coupling,
                             const py::object& fields) {
  std::int64_t n = 1;
  for (int e : extents) n *= e;
  const char* what = kind == hamon::ContinuousKind::gaussian ? "diag" : "barrier";
  return hamon::make_continuous_lattice(kind, extents, periodic, distribution_of(coupling),
                                        per_node(weights, n, what), per_node(fields, n, "fields"));
}

}  // namespace

void bind_models(py::module_& m) {
  py::class_<hamon::ValueDistribution>(
      m, "Distribution", "How builders draw couplings or fields (deterministic in seed).")
      .def_static("constant", &hamon::ValueDistribution::constant, py::arg("value"))
      .def_static("pm_one", &hamon::ValueDistribution::pm_one, py::arg("seed"),
                  py::arg("magnitude") = 1.0)
      .def_static("gaussian", &hamon::ValueDistribution::gaussian, py::arg("seed"),
                  py::arg("std_dev") = 1.0, py::arg("mean") = 0.0)
      .def("__repr__", [](const hamon::ValueDistribution& d) {
        const char* kinds[] = {"constant", "pm_one", "gaussian"};
        return std::string("Distribution.") + kinds[static_cast<int>(d.kind)] +
               "(value=" + std::to_string(d.value) + ", mean=" + std::to_string(d.mean) +
               ", seed=" + std::to_string(d.seed) + ")";
      });

  py::class_<SpinModel, std::shared_ptr<SpinModel>>(m, "Model",
                                                    "A validated model (hamon::SpinModel).")
      .def_property_readonly("kind", &kind_of)
      .def_property_readonly("n_nodes", &SpinModel::n_nodes)
      .def_property_readonly("n_edges", &SpinModel::n_edges)
      .def_property_readonly("n_free", &SpinModel::n_free)
      .def_property_readonly("n_states", &SpinModel::n_states)
      .def_property_readonly("n_colours", &SpinModel::n_colours)
      .def_property_readonly("fingerprint",
                             [](const SpinModel& s) { return hamon::model_fingerprint(s); })
      .def_property_readonly("edges",
                             [](const SpinModel& s) {
                               std::vector<std::int64_t> pairs;
                               for (const auto& e : s.edges()) {
                                 pairs.push_back(e.i);
                                 pairs.push_back(e.j);
                               }
                               return to_numpy(pairs, {s.n_edges(), 2});
                             })
      .def_property_readonly("couplings",
                             [](const SpinModel& s) {
                               std::vector<double> j;
                               for (const auto& e : s.edges()) j.push_back(e.coupling);
                               return to_numpy(j);
                             })
      .def_property_readonly("fields", &fields_of)
      .def_property_readonly("clamped", [](const SpinModel& s) { return to_numpy(s.clamped()); })
      .def_property_readonly(
          "weights", [](const SpinModel& s) { return to_numpy(s.node_weights()); },
          "d_i (Gaussian) or lambda_i (double well); empty for discrete models")
      .def_property_readonly("lattice_extents",
                             [](const SpinModel& s) -> py::object {
                               if (!s.lattice_shape()) return py::none();
                               return py::cast(s.lattice_shape()->extents);
                             })
      .def("energy", &energy_of, py::arg("state"),
           "E of one configuration (a number) or of each row of a k x n batch (an array): "
           "int8 spins, uint8 Potts states or float64 values")
      .def("__repr__", [](const SpinModel& s) {
        return "<hamon_kokkos.Model " + kind_of(s) + ": " + std::to_string(s.n_nodes()) +
               " nodes, " + std::to_string(s.n_edges()) + " edges>";
      });

  m.def("ising", &ising, py::arg("J") = py::none(), py::kw_only(), py::arg("edges") = py::none(),
        py::arg("couplings") = py::none(), py::arg("n_nodes") = py::none(),
        py::arg("fields") = py::none(), py::arg("clamps") = py::none(),
        "An Ising model E(s) = -(sum h_i s_i + sum J_ij s_i s_j) from a dense or sparse J or "
        "an edge list, fields h and clamps {node: +-1}.");
  m.def("potts", &potts, py::arg("q"), py::arg("J") = py::none(), py::kw_only(),
        py::arg("edges") = py::none(), py::arg("couplings") = py::none(),
        py::arg("n_nodes") = py::none(), py::arg("fields") = py::none(),
        py::arg("clamps") = py::none(), py::arg("matrices") = py::none(),
        "A q-state Potts model E(x) = -(sum h_i(x_i) + sum J_ij delta(x_i, x_j) + sum "
        "W_ij(x_i, x_j)); fields are n x q or q values for every node, clamps {node: state}, "
        "matrices (i, j, W) triples with W q x q (an edge in one list only).");
  for (const bool gaussian : {true, false}) {
    m.def(
        gaussian ? "gaussian" : "double_well",
        [gaussian](const py::object& weights, const py::object& J, const py::object& e,
                   const py::object& c,
                   const py::object& f) { return continuous(gaussian, weights, J, e, c, f); },
        py::arg(gaussian ? "diag" : "barrier"), py::arg("J") = py::none(), py::kw_only(),
        py::arg("edges") = py::none(), py::arg("couplings") = py::none(),
        py::arg("fields") = py::none(),
        gaussian ? "A Gaussian model E(x) = sum d_i x_i^2 / 2 - h_i x_i - sum J_ij x_i x_j."
                 : "A double-well (phi^4) model with barriers lambda_i (docs/continuous.md).");
  }
  m.def(
      "rbm",
      [](const py::object& weights, const py::object& visible_bias, const py::object& hidden_bias,
         const py::object& clamped_visible) {
        py::array w = py::array::ensure(weights);
        if (!w || w.ndim() != 2) throw py::value_error("weights: expected a V x H matrix");
        hamon::RbmParameters p;
        p.n_visible = w.shape(0);
        p.n_hidden = w.shape(1);
        p.weights = from_numpy<double>(weights, "weights", 2);
        p.visible_bias = optional_values(visible_bias, "visible_bias");
        p.hidden_bias = optional_values(hidden_bias, "hidden_bias");
        std::vector<int> clamp;
        if (!clamped_visible.is_none()) clamp = from_numpy<int>(clamped_visible, "clamped_visible");
        return hamon::make_rbm(p, clamp);
      },
      py::arg("weights"), py::arg("visible_bias") = py::none(), py::arg("hidden_bias") = py::none(),
      py::arg("clamped_visible") = py::none(),
      "A restricted Boltzmann machine as a bipartite Ising model: nodes 0..V-1 visible, "
      "V..V+H-1 hidden.");
  m.def(
      "random_rbm",
      [](std::int64_t n_visible, std::int64_t n_hidden, const py::object& weights,
         const py::object& biases, const py::object& clamped_visible) {
        std::vector<int> clamp;
        if (!clamped_visible.is_none()) clamp = from_numpy<int>(clamped_visible, "clamped_visible");
        return hamon::make_rbm(hamon::random_rbm(n_visible, n_hidden, distribution_of(weights),
                                                 distribution_of(biases)),
                               clamp);
      },
      py::arg("n_visible"), py::arg("n_hidden"), py::arg("weights"), py::arg("biases") = 0.0,
      py::arg("clamped_visible") = py::none(),
      "An RBM of V x H units with weights, then biases (visible, then hidden) drawn from "
      "Distributions (as an experiment file's `random:`; numbers are constants).");
  m.def(
      "lattice",
      [](const std::vector<int>& extents, bool periodic, const py::object& coupling,
         const py::object& field) {
        return hamon::make_lattice(extents, periodic, distribution_of(coupling),
                                   distribution_of(field));
      },
      py::arg("extents"), py::arg("periodic") = true, py::arg("coupling") = 1.0,
      py::arg("field") = 0.0,
      "An Ising model on a 2D or 3D lattice (node index row-major); coupling and field are "
      "numbers or Distributions (e.g. Distribution.pm_one(seed) for the +-J glass).");
  for (const auto kind : {hamon::ContinuousKind::gaussian, hamon::ContinuousKind::double_well}) {
    const bool gaussian = kind == hamon::ContinuousKind::gaussian;
    m.def(
        gaussian ? "gaussian_lattice" : "double_well_lattice",
        [kind](const std::vector<int>& extents, const py::object& weights, bool periodic,
               const py::object& coupling, const py::object& fields) {
          return continuous_lattice(kind, extents, weights, periodic, coupling, fields);
        },
        py::arg("extents"), py::arg(gaussian ? "diag" : "barrier"), py::arg("periodic") = true,
        py::arg("coupling") = 0.0, py::arg("fields") = py::none(),
        gaussian ? "A Gaussian model on a lattice: diag and fields are numbers or one value "
                   "per node."
                 : "A double-well model on a lattice: barrier and fields are numbers or one "
                   "value per node.");
  }
  m.def(
      "potts_lattice",
      [](const std::vector<int>& extents, int q, bool periodic, const py::object& coupling,
         const py::object& fields) {
        hamon::PottsFields f;
        if (!fields.is_none()) f.uniform = from_numpy<double>(fields, "fields");
        return hamon::make_potts_lattice(extents, periodic, q, distribution_of(coupling), f);
      },
      py::arg("extents"), py::arg("q"), py::arg("periodic") = true, py::arg("coupling") = 1.0,
      py::arg("fields") = py::none(), "A q-state Potts model on a lattice.");
}

}  // namespace hamon_python
