// The round loop compiled for Kokkos::Cuda (when this build enables it).
#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include "hamon/core/impl/nrpt_instantiate.hpp"
HAMON_INSTANTIATE_NRPT(Kokkos::Cuda)
#endif
