# `cmake --install` produces a relocatable package: hamon::hamon plus hamonConfig.cmake.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(HAMON_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/hamon")

install(TARGETS hamon EXPORT hamonTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY core/hamon policies/hamon "${PROJECT_BINARY_DIR}/generated/hamon"
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(EXPORT hamonTargets NAMESPACE hamon:: DESTINATION ${HAMON_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/hamonConfig.cmake.in
  "${PROJECT_BINARY_DIR}/hamonConfig.cmake" INSTALL_DESTINATION ${HAMON_INSTALL_CMAKEDIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/hamonConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/hamonConfig.cmake"
              "${PROJECT_BINARY_DIR}/hamonConfigVersion.cmake"
              cmake/FindRandom123.cmake
        DESTINATION ${HAMON_INSTALL_CMAKEDIR})
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hamon/examples)
