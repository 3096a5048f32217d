// SPDX-License-Identifier: Apache-2.0
#pragma once
// Explicit instantiation of the round loop (Sampler, nrpt, sample) for one execution space (used
// once per enabled space by policies/src/nrpt_<space>.cpp, so the heavy templates compile once).
#include "hamon/core/impl/nrpt_impl.hpp"

#define HAMON_INSTANTIATE_NRPT(SPACE)                                                        \
  template ::hamon::NrptResult hamon::nrpt<SPACE>(const SPACE&, const ::hamon::SpinModel&,   \
                                                  const ::hamon::NrptOptions&);              \
  template ::hamon::NrptResult hamon::nrpt<SPACE>(                                           \
      const SPACE&, const ::hamon::DeviceModel<typename SPACE::memory_space>&,               \
      const ::hamon::NrptOptions&);                                                          \
  template ::hamon::NrptResult hamon::sample<SPACE>(const SPACE&, const ::hamon::SpinModel&, \
                                                    double, ::hamon::NrptOptions);           \
  template class ::hamon::Sampler<SPACE>;                                                    \
  template class ::hamon::Sampler<SPACE, double>;
