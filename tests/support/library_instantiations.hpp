// SPDX-License-Identifier: Apache-2.0
#pragma once
// The library's explicit instantiations of the sampler and the trainer, declared for every
// backend this Kokkos has. A test that includes a template's definitions (to reach its
// detail parts) would otherwise instantiate the whole template again for the library's own
// execution spaces, in each such translation unit and for each backend; declared, the
// tests run the code the library ships and compile faster.
#include <Kokkos_Core.hpp>

#include "hamon/backend_list.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/train/rbm_trainer.hpp"

#define HAMON_TEST_LIBRARY_INSTANTIATIONS(name, Class, OPTION, tier) \
  extern template class ::hamon::Sampler<Kokkos::Class>;             \
  extern template class ::hamon::Sampler<Kokkos::Class, double>;     \
  extern template class ::hamon::RbmTrainer<Kokkos::Class>;
HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_TEST_LIBRARY_INSTANTIATIONS)
#undef HAMON_TEST_LIBRARY_INSTANTIATIONS
