// SPDX-License-Identifier: Apache-2.0
#pragma once
// Explicit instantiation of the round loop (Sampler, nrpt, sample) for one execution space (used
// once per enabled space by policies/src/nrpt_<space>.cpp, so the heavy templates compile once).
// The sampler of continuous models (Sampler<Space, double>) has a translation unit of its own
// (policies/src/continuous_<space>.cpp, HAMON_INSTANTIATE_CONTINUOUS), so that a parallel
// build compiles the two side by side; the nrpt one only declares it.
#include "hamon/core/sampler/detail/nrpt_impl.hpp"

#define HAMON_INSTANTIATE_NRPT(SPACE)                                                        \
  extern template class ::hamon::Sampler<SPACE, double>;                                     \
  template ::hamon::NrptResult hamon::nrpt<SPACE>(const SPACE&, const ::hamon::SpinModel&,   \
                                                  const ::hamon::NrptOptions&);              \
  template ::hamon::NrptResult hamon::nrpt<SPACE>(                                           \
      const SPACE&, const ::hamon::DeviceModel<typename SPACE::memory_space>&,               \
      const ::hamon::NrptOptions&);                                                          \
  template ::hamon::NrptResult hamon::sample<SPACE>(const SPACE&, const ::hamon::SpinModel&, \
                                                    double, ::hamon::NrptOptions);           \
  template class ::hamon::Sampler<SPACE>;

#define HAMON_INSTANTIATE_CONTINUOUS(SPACE) template class ::hamon::Sampler<SPACE, double>;
