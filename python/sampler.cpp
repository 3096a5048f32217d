// SPDX-License-Identifier: Apache-2.0
// Sampler: run(n) with the GIL released, its state and result as NumPy arrays, checkpoints
// as bytes (the checkpoint file format, checkpoint.hpp), restore from them.
#include "sampler.hpp"

#include <pybind11/stl.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <functional>
#include <hamon/core/analysis/diagnostics.hpp>  // diagnose
#include <hamon/core/sampler/checkpoint.hpp>
#include <hamon/policies/device_spec.hpp>
#include <hamon/policies/dispatch.hpp>
#include <map>
#include <sstream>
#include <tuple>

#include "results.hpp"

namespace hamon_python {

namespace {

using Setter = std::function<void(hamon::NrptOptions&, const py::handle&)>;

/// One setter per keyword argument of Sampler(...) (NrptOptions' fields; the names as the
/// Python hamon's where the meaning is the same).
const std::map<std::string, Setter>& setters() {
  using O = hamon::NrptOptions;
  using H = const py::handle&;
  static const std::map<std::string, Setter> all = {
      {"n_chains", [](O& o, H v) { o.n_chains = v.cast<std::int32_t>(); }},
      {"beta_min", [](O& o, H v) { o.beta_min = v.cast<double>(); }},
      {"beta_max", [](O& o, H v) { o.beta_max = v.cast<double>(); }},
      {"beta_range",
       [](O& o, H v) { std::tie(o.beta_min, o.beta_max) = v.cast<std::pair<double, double>>(); }},
      {"betas",
       [](O& o, H v) {
         o.betas = v.is_none() ? std::vector<double>{} : from_numpy<double>(v, "betas");
       }},
      {"n_rounds", [](O& o, H v) { o.n_rounds = v.cast<std::int64_t>(); }},
      {"burn_in", [](O& o, H v) { o.burn_in = v.cast<std::int64_t>(); }},
      {"gibbs_steps_per_round", [](O& o, H v) { o.n_expl = v.cast<std::int32_t>(); }},
      {"seed", [](O& o, H v) { o.seed = v.cast<std::uint64_t>(); }},
      {"adapt_schedule", [](O& o, H v) { o.adapt_schedule = v.cast<bool>(); }},
      {"adapt_phases", [](O& o, H v) { o.adapt_phases = v.cast<std::int32_t>(); }},
      {"n_replicas", [](O& o, H v) { o.n_replicas = v.cast<std::int32_t>(); }},
      {"houdayer",
       [](O& o, H v) {
         o.cluster_moves =
             v.cast<bool>() ? hamon::ClusterMoves::houdayer : hamon::ClusterMoves::none;
       }},
      {"reference",
       [](O& o, H v) {
         const auto word = v.cast<std::string>();
         if (word == "automatic")
           o.reference = hamon::AnnealingReference::automatic;
         else if (word == "none")
           o.reference = hamon::AnnealingReference::none;
         else if (word == "independent")
           o.reference = hamon::AnnealingReference::independent;
         else
           throw py::value_error("reference: '" + word +
                                 "' is none of automatic, none, independent");
       }},
      {"samples_every", [](O& o, H v) { o.observers.samples_every = v.cast<std::int64_t>(); }},
      {"sample_nodes",
       [](O& o, H v) {
         o.observers.sample_nodes = v.is_none() ? std::vector<std::int64_t>{}
                                                : from_numpy<std::int64_t>(v, "sample_nodes");
       }},
      {"record_energies", [](O& o, H v) { o.observers.energies = v.cast<bool>(); }},
      {"record_index_process", [](O& o, H v) { o.observers.index_process = v.cast<bool>(); }},
      {"moments", [](O& o, H v) { o.observers.moments = v.cast<bool>(); }},
      {"edge_moments", [](O& o, H v) { o.observers.edge_moments = v.cast<bool>(); }},
      {"magnetization", [](O& o, H v) { o.observers.magnetization = v.cast<bool>(); }},
      {"moment_batches", [](O& o, H v) { o.observers.moment_batches = v.cast<std::int32_t>(); }},
  };
  return all;
}

}  // namespace

hamon::NrptOptions options_from(const py::kwargs& kwargs, std::string& device,
                                hamon::NrptOptions o) {
  for (auto item : kwargs) {
    const auto key = item.first.cast<std::string>();
    const py::handle value = item.second;
    if (key == "device") {
      device = value.cast<std::string>();
      continue;
    }
    const auto setter = setters().find(key);
    if (setter == setters().end()) throw py::type_error("Sampler: unknown option '" + key + "'");
    try {
      setter->second(o, value);
    } catch (const py::cast_error&) {
      // pybind11's own message names no option: say which, and what it got.
      throw py::type_error("Sampler: option '" + key + "' cannot take " +
                           py::repr(value).cast<std::string>());
    }
  }
  return o;
}

py::dict options_dict(const hamon::NrptOptions& o) {
  py::dict d;
  // The ladder as it was given: explicit betas, or a count and ends (the options'
  // fingerprint tells them apart, so a checkpoint needs the same form back).
  if (!o.betas.empty()) {
    d["betas"] = to_numpy(o.betas);
  } else {
    d["n_chains"] = o.n_chains;
    d["beta_min"] = o.beta_min;
    d["beta_max"] = o.beta_max;
  }
  d["n_rounds"] = o.n_rounds;
  d["burn_in"] = o.burn_in;
  d["gibbs_steps_per_round"] = o.n_expl;
  d["seed"] = o.seed;
  d["adapt_schedule"] = o.adapt_schedule;
  d["adapt_phases"] = o.adapt_phases;
  d["n_replicas"] = o.n_replicas;
  d["houdayer"] = o.cluster_moves == hamon::ClusterMoves::houdayer;
  d["reference"] = o.reference == hamon::AnnealingReference::automatic
                       ? std::string("automatic")
                       : std::string(hamon::to_string(o.reference));
  d["samples_every"] = o.observers.samples_every;
  d["sample_nodes"] = to_numpy(o.observers.sample_nodes);
  d["record_energies"] = o.observers.energies;
  d["record_index_process"] = o.observers.index_process;
  d["moments"] = o.observers.moments;
  d["edge_moments"] = o.observers.edge_moments;
  d["magnetization"] = o.observers.magnetization;
  d["moment_batches"] = o.observers.moment_batches;
  return d;
}

PySampler::PySampler(std::shared_ptr<const hamon::SpinModel> model, hamon::NrptOptions options,
                     hamon::DeviceDecision decision, const py::object& checkpoint)
    : model_(std::move(model)), options_(std::move(options)), decision_(std::move(decision)) {
  require_kokkos();
  const hamon::CheckpointIdentity expected = hamon::identity_of(*model_, options_);
  const bool fresh = checkpoint.is_none();
  const std::string bytes = fresh ? std::string() : checkpoint.cast<std::string>();
  engine_call([&] {
    std::istringstream in(bytes);
    if (model_->is_continuous()) {
      if (fresh) {
        real_ = hamon::make_real_sampler(decision_, *model_, options_, nullptr, nullptr);
      } else {
        const auto saved = hamon::read_checkpoint<double>(in, "checkpoint");
        hamon::check_identity(saved.identity, expected, "checkpoint");
        real_ = hamon::make_real_sampler(decision_, *model_, options_, nullptr, &saved.state);
      }
    } else if (fresh) {
      discrete_ = hamon::make_sampler(decision_, *model_, options_);
    } else {
      const auto saved = hamon::read_checkpoint<std::int8_t>(in, "checkpoint");
      hamon::check_identity(saved.identity, expected, "checkpoint");
      discrete_ = hamon::make_sampler(decision_, *model_, options_, nullptr, &saved.state);
    }
  });
}

PySampler::PySampler(std::shared_ptr<const hamon::SpinModel> model, hamon::NrptOptions options,
                     hamon::DeviceDecision decision, std::unique_ptr<hamon::SamplerBase> discrete,
                     std::unique_ptr<hamon::SamplerBaseOf<double>> real)
    : model_(std::move(model)),
      options_(std::move(options)),
      decision_(std::move(decision)),
      discrete_(std::move(discrete)),
      real_(std::move(real)) {}

void PySampler::release_views() {
  discrete_.reset();
  real_.reset();
}

template <class F>
decltype(auto) PySampler::with(F&& f) const {
  if (discrete_) return f(*discrete_);
  if (real_) return f(*real_);
  require_kokkos();
  throw std::runtime_error("hamon_kokkos: this Sampler was released when Kokkos finalised");
}

std::int64_t PySampler::run(std::int64_t n_rounds) {
  if (n_rounds < 0)
    throw py::value_error("run: n_rounds must be >= 0, got " + std::to_string(n_rounds));
  require_kokkos();
  // Ctrl-C ends the call after the round in progress (checked every 0.1 s at most, so a
  // fast round loop does not take the GIL each round): the run stays consistent.
  bool interrupted = false;
  auto last = std::chrono::steady_clock::now();
  const auto should_stop = [&] {
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::milliseconds(100)) return false;
    last = now;
    py::gil_scoped_acquire gil;
    interrupted = PyErr_CheckSignals() != 0;
    return interrupted;
  };
  const std::int64_t done =
      engine_call([&] { return with([&](auto& s) { return s.run(n_rounds, should_stop); }); });
  if (interrupted) throw py::error_already_set();
  return done;
}

std::int64_t PySampler::rounds_done() const {
  return with([](auto& s) { return s.rounds_done(); });
}
std::int64_t PySampler::measured_rounds() const {
  return with([](auto& s) { return s.measured_rounds(); });
}
std::string PySampler::execution_space() const {
  return with([](auto& s) { return s.execution_space(); });
}

py::array PySampler::state(bool by_chain) {
  return with([&](auto& s) -> py::array {
    const auto st = engine_call([&] { return s.state(); });
    const std::int64_t n = st.n_nodes, machines = st.n_machines;
    auto values = st.spins;
    if (by_chain) {
      // Row r * n_chains + k: replica r's chain k (temperature index, coldest last).
      for (std::int64_t c = 0; c < machines; ++c) {
        const auto m = st.machine_of_chain[static_cast<std::size_t>(c)];
        std::copy_n(st.spins.begin() + m * n, n, values.begin() + c * n);
      }
    }
    auto a = to_numpy(values, {machines, n});
    if constexpr (std::is_same_v<typename decltype(values)::value_type, double>) {
      return std::move(a);
    } else {
      return discrete_array(std::move(a), *model_);
    }
  });
}

py::array PySampler::betas() {
  return with(
      [](auto& s) { return py::array(to_numpy(engine_call([&] { return s.state(); }).betas)); });
}

py::dict PySampler::result() {
  require_kokkos();
  return result_dict(engine_call([&] { return with([](auto& s) { return s.result(); }); }),
                     *model_);
}

py::dict PySampler::diagnose() {
  require_kokkos();
  const hamon::NrptResult r = engine_call([&] { return with([](auto& s) { return s.result(); }); });
  return diagnosis_dict(hamon::diagnose(*model_, r));
}

py::bytes PySampler::checkpoint() {
  require_kokkos();
  std::ostringstream out;
  engine_call([&] {
    with([&](auto& s) {
      auto st = s.state();
      using Value = typename decltype(st.spins)::value_type;
      hamon::write_checkpoint<Value>(out,
                                     hamon::CheckpointOf<Value>{s.identity(), std::move(st), {}});
    });
  });
  return py::bytes(out.str());
}

py::dict PySampler::identity() const {
  const hamon::CheckpointIdentity id = with([](auto& s) { return s.identity(); });
  py::dict d;
  d["hamon_version"] = id.hamon_version;
  d["stream_version"] = id.stream_version;
  d["model_fingerprint"] = id.model_fingerprint;
  d["options_fingerprint"] = id.options_fingerprint;
  return d;
}

}  // namespace hamon_python

namespace hamon_python {

namespace {

/// Sampler(model, checkpoint=None, **options): routed here, once.
std::unique_ptr<PySampler> new_sampler(std::shared_ptr<hamon::SpinModel> model,
                                       const py::object& checkpoint, const py::kwargs& kwargs) {
  std::string device = "auto";
  hamon::NrptOptions options = options_from(kwargs, device);
  auto decision = hamon::resolve_for(*model, options, hamon::parse_device_spec(device));
  return std::make_unique<PySampler>(std::move(model), std::move(options), std::move(decision),
                                     checkpoint);
}

}  // namespace

void bind_sampler(py::module_& m) {
  py::class_<PySampler>(m, "Sampler",
                        "A resumable NRPT run (hamon::Sampler), routed once when it is made.")
      .def(py::init(&new_sampler), py::arg("model"), py::kw_only(),
           py::arg("checkpoint") = py::none(),
           "Sampler(model, *, n_chains=8, beta_min=0.0, beta_max=1.0, betas=None, "
           "n_rounds=1000, burn_in=0, gibbs_steps_per_round=1, seed=0, adapt_schedule=False, "
           "adapt_phases=5, n_replicas=1, houdayer=False, samples_every=0, sample_nodes=None, "
           "record_energies=False, record_index_process=False, moments=False, "
           "edge_moments=True, magnetization=False, moment_batches=32, device='auto', "
           "checkpoint=None): checkpoint (bytes from Sampler.checkpoint()) continues that run, "
           "which must be of the same model and options (CheckpointError otherwise).")
      .def(
          "run",
          [](PySampler& s, std::optional<std::int64_t> n) {
            return s.run(n ? *n
                           : std::max<std::int64_t>(
                                 0, s.options().burn_in + s.options().n_rounds - s.rounds_done()));
          },
          py::arg("n_rounds") = py::none(),
          "Runs n_rounds more rounds (default: up to burn_in + n_rounds); returns the rounds run.")
      .def(
          "extend",
          [](PySampler& s, std::int64_t n_more) {
            if (n_more < 0) throw py::value_error("extend: n_more must be >= 0");
            const std::int64_t burn_left =
                std::max<std::int64_t>(0, s.options().burn_in - s.rounds_done());
            return s.run(burn_left + n_more);
          },
          py::arg("n_more"), "Runs n_more more measured rounds (finishing burn-in first).")
      .def_property_readonly("rounds_done", &PySampler::rounds_done)
      .def_property_readonly("measured_rounds", &PySampler::measured_rounds)
      .def_property_readonly("execution_space", &PySampler::execution_space)
      .def_property_readonly(
          "model",
          [](const PySampler& s) { return std::const_pointer_cast<hamon::SpinModel>(s.model()); })
      .def_property_readonly("device", [](const PySampler& s) { return s.decision().describe(); })
      .def_property_readonly(
          "n_chains",
          [](const PySampler& s) {
            return static_cast<std::int64_t>(hamon::ladder_of(s.options()).size());
          })
      .def("state", &PySampler::state, py::kw_only(), py::arg("by_chain") = true,
           "The variables of every machine: rows by chain (replica r's chain k at "
           "r * n_chains + k, coldest last) or, by_chain=False, by machine.")
      .def("betas", &PySampler::betas, "The current ladder.")
      .def("result", &PySampler::result, "The measured rounds so far, as a dict of arrays.")
      .def(
          "samples", [](PySampler& s) { return s.result()["samples"]; },
          "The recorded samples (n_samples x sample nodes).")
      .def(
          "energies", [](PySampler& s) { return s.result()["energies"]; },
          "The recorded energies (measured rounds x chains), with record_energies=True.")
      .def("diagnose", &PySampler::diagnose,
           "Health checks, log Z and the cold chain's ESS (log Z and ESS need recorded energies).")
      .def("checkpoint", &PySampler::checkpoint,
           "The whole run as bytes (hamon's checkpoint format): Sampler.restore continues it.")
      .def_static(
          "restore",
          [](std::shared_ptr<hamon::SpinModel> model, const py::bytes& data,
             const py::kwargs& kwargs) { return new_sampler(std::move(model), data, kwargs); },
          py::arg("model"), py::arg("checkpoint"),
          "Sampler.restore(model, checkpoint, **options): the same as Sampler(model, "
          "checkpoint=checkpoint, **options).")
      .def_property_readonly("identity", &PySampler::identity)
      .def_property_readonly(
          "options", [](const PySampler& s) { return options_dict(s.options()); },
          "The run's options as keyword arguments: Sampler(model, "
          "checkpoint=data, **sampler.options) continues it.");
}

}  // namespace hamon_python
