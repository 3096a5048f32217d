#pragma once
#include <Kokkos_Core.hpp>
#define TEST_CATEGORY openmp
#define TEST_EXECSPACE Kokkos::OpenMP
