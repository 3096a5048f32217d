// The round loop compiled for Kokkos::OpenMP (when this build enables it).
#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_OPENMP
#include "hamon/core/impl/nrpt_instantiate.hpp"
HAMON_INSTANTIATE_NRPT(Kokkos::OpenMP)
#endif
