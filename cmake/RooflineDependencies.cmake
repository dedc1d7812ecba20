# Finds every dependency as an imported target, from Debian packages. A missing required dependency stops
# configuration with the name of the Debian package that provides it (scripts/install-deps installs them all).

macro(roofline_require found_var what debian_package)
  if(NOT ${found_var})
    message(FATAL_ERROR "roofline: ${what} not found. Install the Debian package '${debian_package}' "
                        "(or run scripts/install-deps).")
  endif()
endmacro()

find_package(PkgConfig QUIET)
roofline_require(PKG_CONFIG_FOUND "pkg-config" "pkg-config")

find_package(benchmark CONFIG QUIET)
roofline_require(benchmark_FOUND "Google Benchmark" "libbenchmark-dev")

find_package(OpenMP QUIET COMPONENTS CXX)
roofline_require(OpenMP_CXX_FOUND "OpenMP for C++" "g++ (libgomp)")

pkg_check_modules(HWLOC QUIET IMPORTED_TARGET hwloc)
roofline_require(HWLOC_FOUND "hwloc" "libhwloc-dev")

find_package(Eigen3 3.3 CONFIG QUIET)
roofline_require(Eigen3_FOUND "Eigen" "libeigen3-dev")

find_package(nlohmann_json 3.9 CONFIG QUIET)
roofline_require(nlohmann_json_FOUND "nlohmann-json" "nlohmann-json3-dev")

find_package(CLI11 CONFIG QUIET)
roofline_require(CLI11_FOUND "CLI11" "libcli11-dev")

find_package(fmt CONFIG QUIET)
roofline_require(fmt_FOUND "fmt" "libfmt-dev")

find_package(SQLite3 QUIET)
roofline_require(SQLite3_FOUND "SQLite3" "libsqlite3-dev")

# GoogleTest only for the tests: the main job builds without it (scripts/install-deps installs it with --test).
set(ROOFLINE_HAVE_GTEST OFF)
if(ROOFLINE_BUILD_TESTS)
  find_package(GTest CONFIG QUIET)
  if(NOT GTest_FOUND)
    find_package(GTest QUIET)
  endif()
  if(GTest_FOUND)
    set(ROOFLINE_HAVE_GTEST ON)
  else()
    message(STATUS "roofline: GoogleTest not found (Debian 'libgtest-dev', or scripts/install-deps --test): "
                   "the tests are left out")
  endif()
endif()

# Optional dependencies: left out with a message, never a build failure. Sets <have_var> ON when
# <found_var> is true, else says what is missing and what is left out.
macro(roofline_optional have_var found_var what debian_packages left_out)
  if(${found_var})
    set(${have_var} ON)
  else()
    message(STATUS "roofline: ${what} not found (Debian '${debian_packages}'): ${left_out} is left out")
  endif()
endmacro()

# An optional dependency behind the option <with_var>: <have_var> is OFF unless the option is on,
# <find_command> (find_package or pkg_check_modules, with the arguments that follow) finds it and
# roofline_optional says ON. A macro, so that what the command sets stays in the caller's scope.
macro(roofline_find_optional have_var with_var found_var what debian_packages left_out find_command)
  set(${have_var} OFF)
  if(${with_var})
    cmake_language(CALL ${find_command} ${ARGN})
    roofline_optional(${have_var} ${found_var} "${what}" "${debian_packages}" "${left_out}")
  endif()
endmacro()

# Optional GEMM backends.
set(ROOFLINE_HAVE_ONEDNN OFF)
if(ROOFLINE_WITH_ONEDNN)
  # Debian's oneDNN is built with the OpenCL GPU runtime, and its CMake package calls
  # find_package(OpenCL REQUIRED), a fatal error when the OpenCL headers (ocl-icd-opencl-dev, only a
  # Recommends of libdnnl-dev) are missing. Look first, so that a missing piece leaves the backend out.
  find_package(OpenCL QUIET)
  set(_roofline_dnnl_usable ON)
  if(NOT OpenCL_FOUND)
    find_file(_roofline_dnnl_config dnnl-config.cmake
      PATH_SUFFIXES lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/dnnl lib/cmake/dnnl lib64/cmake/dnnl)
    if(_roofline_dnnl_config)
      file(READ "${_roofline_dnnl_config}" _roofline_dnnl_text)
      if(_roofline_dnnl_text MATCHES "DNNL_GPU_RUNTIME \"OCL\"")
        set(_roofline_dnnl_usable OFF)
        message(STATUS "roofline: oneDNN needs OpenCL's headers (Debian 'ocl-icd-opencl-dev'), not found: "
                       "the onednn GEMM backend is left out")
      endif()
    endif()
  endif()
  if(_roofline_dnnl_usable)
    find_package(dnnl CONFIG QUIET)
  endif()
  if(_roofline_dnnl_usable AND dnnl_FOUND)
    set(ROOFLINE_HAVE_ONEDNN ON)
  elseif(_roofline_dnnl_usable)
    message(STATUS "roofline: oneDNN not found (Debian 'libdnnl-dev'): the onednn GEMM backend is left out")
  endif()
endif()

roofline_find_optional(ROOFLINE_HAVE_OPENBLAS ROOFLINE_WITH_OPENBLAS OPENBLAS_FOUND "OpenBLAS" "libopenblas-dev"
  "the openblas GEMM backend" pkg_check_modules OPENBLAS QUIET IMPORTED_TARGET openblas)
message(STATUS "roofline: backends eigen=ON onednn=${ROOFLINE_HAVE_ONEDNN} openblas=${ROOFLINE_HAVE_OPENBLAS}")

# fleet (issue 17): MPI is the distributed engine of `roofline run --mpi`; optional, left out with a message.
roofline_find_optional(ROOFLINE_HAVE_MPI ROOFLINE_WITH_MPI MPI_CXX_FOUND "MPI" "libopenmpi-dev openmpi-bin"
  "`roofline run --mpi`" find_package MPI QUIET COMPONENTS CXX)
message(STATUS "roofline: mpi=${ROOFLINE_HAVE_MPI}")

# OpenCL target (issue 22): the ICD loader and headers (ocl-icd-opencl-dev, opencl-c-headers); optional, left out
# with a message. `roofline devices` says how to get it when it is left out.
roofline_find_optional(ROOFLINE_HAVE_OPENCL ROOFLINE_WITH_OPENCL OpenCL_FOUND "OpenCL" "ocl-icd-opencl-dev opencl-c-headers"
  "the OpenCL target (`roofline devices` lists only the CPU)" find_package OpenCL QUIET)
# CLBlast (issue 22): GEMV/GEMM on OpenCL devices; optional inside the OpenCL target, left out with a message.
set(ROOFLINE_HAVE_CLBLAST OFF)
if(ROOFLINE_HAVE_OPENCL)
  roofline_find_optional(ROOFLINE_HAVE_CLBLAST ROOFLINE_WITH_OPENCL CLBlast_FOUND "CLBlast" "libclblast-dev"
    "the OpenCL target's gemm suite" find_package CLBlast QUIET)
endif()
message(STATUS "roofline: opencl=${ROOFLINE_HAVE_OPENCL} clblast=${ROOFLINE_HAVE_CLBLAST}")

# CUDA target (issue 23): nvcc, the toolkit's runtime (linked statically: only the driver is needed where it runs)
# and cuBLASLt (linked dynamically: the machine's own, from its toolkit or PyTorch's wheels); NVML
# is dlopen'ed at run time, so no link-time dependency on the driver. enable_language(CUDA) only when nvcc is
# found, so a machine without CUDA (CI's Debian 12) configures and builds as fast as before, and says so.
set(ROOFLINE_HAVE_CUDA OFF)
if(ROOFLINE_WITH_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    find_package(CUDAToolkit QUIET)
  endif()
  if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND AND TARGET CUDA::cublasLt AND TARGET CUDA::cudart_static)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # The peak table's compute capabilities that this nvcc compiles (cmake/RooflineCudaArchitectures.cmake).
      include(RooflineCudaArchitectures)
      roofline_cuda_architectures("${CUDAToolkit_VERSION}" roofline_cuda_archs)
      if(NOT roofline_cuda_archs)
        message(FATAL_ERROR "roofline: nvcc ${CUDAToolkit_VERSION} compiles none of compute capabilities 8.0-10.0 "
                            "(11.1 or later needed): give -DROOFLINE_WITH_CUDA=OFF or a newer CUDA toolkit")
      endif()
      set(CMAKE_CUDA_ARCHITECTURES ${roofline_cuda_archs})
      message(STATUS "roofline: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES} (nvcc ${CUDAToolkit_VERSION})")
    endif()
    enable_language(CUDA)
    # C++17 for device code: CMake 3.25 (Debian 12) knows no CUDA20 dialect for nvcc, and the GPU machine may
    # have an older nvcc (the device check builds the probe there).
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(ROOFLINE_HAVE_CUDA ON)
  else()
    message(STATUS "roofline: CUDA (nvcc, the CUDA toolkit and cuBLASLt) not found: the CUDA target is left out")
  endif()
endif()
message(STATUS "roofline: cuda=${ROOFLINE_HAVE_CUDA}")
