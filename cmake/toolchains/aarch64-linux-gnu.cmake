# Cross-building roofline for ARM64 Linux on an x86-64 Debian (issue 62), with Debian's cross compiler and the :arm64
# libraries of multiarch (scripts/test arm64 installs both):
#   cmake -S . -B build/arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
# Tests run through qemu-user (CMAKE_CROSSCOMPILING_EMULATOR: ctest and gtest_discover_tests call it). Its CPU is
# QEMU_CPU from the environment (qemu-user reads it; -cpu is not given here, so that one build is tested at every
# vector length): `max` has NEON, dot product, fp16, i8mm, bf16, SVE and SVE2; `max,sve=off` takes SVE away;
# `max,sve256=on` caps SVE at 256 bits (the largest sveN=on is the vector length: `qemu-aarch64 -cpu max,help`).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Debian's multiarch layout: the :arm64 libraries, their CMake packages and .pc files under lib/aarch64-linux-gnu of
# the one /usr (headers are shared), the header-only packages (Eigen, nlohmann-json, CLI11) arch-independent.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
find_program(ROOFLINE_QEMU_AARCH64 qemu-aarch64 REQUIRED)
# The guest's dynamic loader must be the one of the C library it loads. The :arm64 libraries (hwloc, Google Benchmark,
# libgomp, libstdc++) and their libc.so.6 live in multiarch's /lib/aarch64-linux-gnu (libc6:arm64), so the loader is
# multiarch's /lib/ld-linux-aarch64.so.1: `-L /`. Not `-L /usr/aarch64-linux-gnu`, the cross compiler's sysroot: its
# loader (libc6-arm64-cross, 2.36-8cross1) then loaded multiarch's libc.so.6 (2.36-9+deb12u14) beside it, and the two
# disagree on the layout of the loader's _rtld_global (the stack cache's list head at +0x1178 in one, +0x1180 in the
# other), so every pthread_create walked the stack cache forever: each test that started a second thread (the STREAM
# kernels at 2 threads, Eigen's GEMMs) spun at 100% CPU until its timeout. qemu-user was not at fault (issue 62).
if(NOT EXISTS /lib/ld-linux-aarch64.so.1)
  message(FATAL_ERROR "aarch64-linux-gnu: /lib/ld-linux-aarch64.so.1 is missing: the :arm64 C library (libc6:arm64) "
                      "runs the tests under qemu-user (scripts/install-deps --arm64 installs it)")
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR ${ROOFLINE_QEMU_AARCH64} -L /)
