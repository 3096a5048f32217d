// SPDX-License-Identifier: Apache-2.0
// autotune: a Plan (chains, ladder, sweeps per round; resolved once) whose production
// samplers are Python Samplers.
#include <pybind11/stl.h>

#include <hamon/policies/autotune.hpp>
#include <hamon/policies/device_spec.hpp>

#include "sampler.hpp"

namespace hamon_python {

void bind_tuning(py::module_& m) {
  py::class_<hamon::Plan>(m, "Plan", "A tuned NRPT configuration (hamon::Plan).")
      .def_readonly("n_chains", &hamon::Plan::n_chains)
      .def_property_readonly("betas", [](const hamon::Plan& p) { return to_numpy(p.betas); })
      .def_readonly("gibbs_steps_per_round", &hamon::Plan::n_expl)
      .def_property_readonly("Lambda", [](const hamon::Plan& p) { return p.tuning.Lambda; })
      .def_readonly("execution_space", &hamon::Plan::execution_space)
      .def_readonly("cache_hit", &hamon::Plan::cache_hit)
      .def_readonly("seconds", &hamon::Plan::seconds)
      .def(
          "sampler",
          [](const hamon::Plan& p, std::int64_t n_rounds, const py::kwargs& kwargs) {
            require_kokkos();
            std::string device;  // the plan's decision holds; a device here is an error
            hamon::NrptOptions base = options_from(kwargs, device);
            if (!device.empty()) throw py::type_error("Plan.sampler: the plan's device holds");
            if (base.burn_in == 0) base.burn_in = hamon::Plan::default_burn_in(n_rounds);
            const hamon::NrptOptions options = p.options_for(n_rounds, base);
            std::unique_ptr<hamon::SamplerBase> discrete;
            std::unique_ptr<hamon::SamplerBaseOf<double>> real;
            engine_call([&] {
              if (p.model->is_continuous()) {
                real = p.production_sampler_of<double>(options);
              } else {
                discrete = p.production_sampler(options);
              }
            });
            return std::make_unique<PySampler>(p.model, options, p.decision, std::move(discrete),
                                               std::move(real));
          },
          py::arg("n_rounds"),
          "A production Sampler of n_rounds measured rounds on the plan's ladder, started where "
          "tuning stopped (observers and burn_in as keyword arguments, as for Sampler; "
          "burn_in defaults to max(100, n_rounds / 10)).");

  m.def(
      "autotune",
      [](std::shared_ptr<hamon::SpinModel> model, std::pair<double, double> beta_range,
         std::uint64_t seed, std::optional<std::int32_t> n_chains, std::int32_t min_chains,
         std::int32_t max_chains, double target_acceptance, bool tune_exploration,
         std::int32_t gibbs_steps_per_round, bool use_cache, const std::string& device) {
        hamon::AutotuneOptions o;
        o.beta_min = beta_range.first;
        o.beta_max = beta_range.second;
        o.seed = seed;
        if (n_chains) {
          o.tune_chains = false;
          o.n_chains = *n_chains;
        }
        o.chains.min_chains = min_chains;
        o.chains.max_chains = max_chains;
        o.chains.target_acceptance = target_acceptance;
        o.tune_exploration = tune_exploration;
        o.n_expl = gibbs_steps_per_round;
        o.use_cache = use_cache;
        require_kokkos();
        const hamon::DeviceSpec spec = hamon::parse_device_spec(device);
        return engine_call([&] { return hamon::autotune(*model, o, spec); });
      },
      py::arg("model"), py::kw_only(), py::arg("beta_range") = std::make_pair(0.0, 1.0),
      py::arg("seed") = 0, py::arg("n_chains") = py::none(), py::arg("min_chains") = 2,
      py::arg("max_chains") = 128, py::arg("target_acceptance") = 0.5,
      py::arg("tune_exploration") = true, py::arg("gibbs_steps_per_round") = 1,
      py::arg("use_cache") = true, py::arg("device") = "auto",
      "Tunes the chain count, the ladder and the sweeps per round (docs/nrpt.md); n_chains "
      "fixes the count and tunes the ladder only.");
}

}  // namespace hamon_python
