// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Python Sampler: a resumable hamon run (make_sampler / make_real_sampler, routed once
// when it is made) over a model, with its options; tuning.cpp makes them from a Plan too.
#include <hamon/core/model/spin_model.hpp>
#include <hamon/core/sampler/nrpt.hpp>
#include <hamon/core/sampler/sampler.hpp>
#include <hamon/policies/placement.hpp>
#include <memory>
#include <string>

#include "bindings.hpp"

namespace hamon_python {

/// NrptOptions from the keyword arguments of Sampler(...) (TypeError for an unknown one).
/// "device" is not an option of the run: it is left in `device`.
hamon::NrptOptions options_from(const py::kwargs& kwargs, std::string& device,
                                hamon::NrptOptions options = {});

/// The keyword arguments that give `options` back through options_from.
py::dict options_dict(const hamon::NrptOptions& options);

class PySampler final : public KokkosHolder {
 public:
  PySampler(std::shared_ptr<const hamon::SpinModel> model, hamon::NrptOptions options,
            hamon::DeviceDecision decision, const py::object& checkpoint);
  /// A sampler that already exists (a Plan's production sampler).
  PySampler(std::shared_ptr<const hamon::SpinModel> model, hamon::NrptOptions options,
            hamon::DeviceDecision decision, std::unique_ptr<hamon::SamplerBase> discrete,
            std::unique_ptr<hamon::SamplerBaseOf<double>> real);
  void release_views() override;

  std::int64_t run(std::int64_t n_rounds);
  std::int64_t rounds_done() const;
  std::int64_t measured_rounds() const;
  py::array state(bool by_chain);
  py::array betas();
  py::dict result();
  py::dict diagnose();
  py::bytes checkpoint();
  py::dict identity() const;
  std::string execution_space() const;
  const hamon::NrptOptions& options() const { return options_; }
  const hamon::DeviceDecision& decision() const { return decision_; }
  const std::shared_ptr<const hamon::SpinModel>& model() const { return model_; }

 private:
  template <class F>
  decltype(auto) with(F&& f) const;
  std::shared_ptr<const hamon::SpinModel> model_;
  hamon::NrptOptions options_;
  hamon::DeviceDecision decision_;
  std::unique_ptr<hamon::SamplerBase> discrete_;
  std::unique_ptr<hamon::SamplerBaseOf<double>> real_;
};

}  // namespace hamon_python
