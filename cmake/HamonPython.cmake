# SPDX-License-Identifier: Apache-2.0
# HAMON_PYTHON: the Python extension module hamon_kokkos (python/), built from this build
# tree's hamon::hamon, so the tests and the module share one library build. On by default
# where Python 3 (interpreter, headers, NumPy) and pybind11 are found (Debian:
# python3-dev, python3-numpy, pybind11-dev); -DHAMON_PYTHON=ON where they are not is an error.
set(_hamon_python_default OFF)
set(_hamon_python_why "needs Python 3 with NumPy and pybind11")
# Not by default under nvcc_wrapper (the CUDA preset), with sanitizers (the asan preset: a
# sanitized module loads only into a sanitized interpreter), nor when cross-compiling (the
# interpreter found is the build machine's).
if(HAMON_TOP_LEVEL AND NOT CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper"
   AND NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize" AND NOT CMAKE_CROSSCOMPILING)
  if(NOT Python3_EXECUTABLE)
    # The first python3 on PATH that imports NumPy (-DPython3_EXECUTABLE=... chooses another):
    # a pyenv shim often comes first on PATH without NumPy, before the system's with it.
    string(REPLACE ":" ";" _hamon_path "$ENV{PATH}")
    foreach(_dir IN LISTS _hamon_path)
      if(EXISTS "${_dir}/python3")
        execute_process(COMMAND "${_dir}/python3" -c "import numpy" RESULT_VARIABLE _rc
                        OUTPUT_QUIET ERROR_QUIET)
        if(_rc EQUAL 0)
          set(Python3_EXECUTABLE "${_dir}/python3")
          break()
        endif()
      endif()
    endforeach()
  endif()
  find_package(Python3 3.8 QUIET COMPONENTS Interpreter Development.Module NumPy)
  # pybind11's config uses the Python3 found above (its "new" FindPython mode).
  find_package(pybind11 2.6 CONFIG QUIET)
  if(Python3_FOUND AND Python3_NumPy_FOUND AND pybind11_FOUND)
    set(_hamon_python_default ON)
  endif()
elseif(HAMON_TOP_LEVEL)
  set(_hamon_python_why "not by default with nvcc_wrapper, sanitizers or a cross compiler")
else()
  set(_hamon_python_why "not by default where hamon is a subdirectory")
endif()
option(HAMON_PYTHON "Build the Python module hamon_kokkos (pybind11)" ${_hamon_python_default})
if(NOT HAMON_PYTHON)
  message(STATUS "hamon: Python module off (HAMON_PYTHON; ${_hamon_python_why})")
  return()
endif()
if(NOT Python3_FOUND)
  find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter Development.Module NumPy)
endif()
if(NOT pybind11_FOUND)
  find_package(pybind11 2.6 CONFIG REQUIRED)
endif()
message(STATUS "hamon: Python module hamon_kokkos for Python ${Python3_VERSION}, "
               "pybind11 ${pybind11_VERSION}")
# The module is a shared object that links the static libraries: their code must be
# position-independent (the same instructions otherwise; the bits it computes do not change).
set_target_properties(hamon hamon_core PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_subdirectory(python)
