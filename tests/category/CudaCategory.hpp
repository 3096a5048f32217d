#pragma once
#include <Kokkos_Core.hpp>
#define TEST_CATEGORY cuda
#define TEST_EXECSPACE Kokkos::Cuda
