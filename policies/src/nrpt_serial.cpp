// The round loop compiled for Kokkos::Serial (when this build enables it).
#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_SERIAL
#include "hamon/core/impl/nrpt_instantiate.hpp"
HAMON_INSTANTIATE_NRPT(Kokkos::Serial)
#endif
