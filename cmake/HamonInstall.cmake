# SPDX-License-Identifier: Apache-2.0
# `cmake --install` produces a relocatable package:
#   find_package(hamon 0.1 [COMPONENTS cli mpi])
#   hamon::hamon      the library: policies/ over hamon::core (public: Kokkos, Random123,
#                     and MPI::MPI_CXX when built with HAMON_ENABLE_MPI; zlib stays private)
#   hamon::core       core/ alone, which hamon::hamon links: what a user links is hamon::hamon
#   hamon::cli        the `hamon` program (component cli, when it was built)
#   hamon_MPI         ON when built with HAMON_ENABLE_MPI (component mpi: found only then)
#   hamon_floating_point(<target>)   the FP flags for code instantiating hamon's templates
# Version checks accept the same major.minor at or above the request (SameMinorVersion
# while the major version is 0: every 0.x minor may change the API).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(HAMON_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/hamon")

install(TARGETS hamon_core hamon EXPORT hamonTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY core/hamon policies/hamon "${PROJECT_BINARY_DIR}/generated/hamon"
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(EXPORT hamonTargets NAMESPACE hamon:: DESTINATION ${HAMON_INSTALL_CMAKEDIR})
if(TARGET hamon_cli)
  install(TARGETS hamon_cli EXPORT hamonCliTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT hamonCliTargets NAMESPACE hamon:: DESTINATION ${HAMON_INSTALL_CMAKEDIR})
endif()

get_target_property(HAMON_LIBRARY_TYPE hamon TYPE)
configure_package_config_file(cmake/hamonConfig.cmake.in
  "${PROJECT_BINARY_DIR}/hamonConfig.cmake" INSTALL_DESTINATION ${HAMON_INSTALL_CMAKEDIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/hamonConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/hamonConfig.cmake"
              "${PROJECT_BINARY_DIR}/hamonConfigVersion.cmake"
              cmake/FindRandom123.cmake
              cmake/HamonFloatingPoint.cmake
        DESTINATION ${HAMON_INSTALL_CMAKEDIR})
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hamon/examples)
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
