# The one place that picks the target architecture's sources (issue 62). ROOFLINE_ARCH is x86_64 or arm64, from the
# processor CMake builds for (CMAKE_SYSTEM_PROCESSOR: the host's, or the toolchain file's when cross-building:
# cmake/toolchains/aarch64-linux-gnu.cmake); cmake/arch/<arch>.cmake then says what that architecture compiles:
#   roofline_arch_kernels(<target>)   its kernel translation units (each with its ISA's flags) and the seam's
#                                     implementation kernels/cpu/arch_<arch>.cpp (kernels/cpu/arch.hpp);
#   ROOFLINE_ARCH_FACTS_SOURCES       its CPU facts behind bench/facts/cpu_arch.hpp (cpuid or MIDR/HWCAP);
#   ROOFLINE_ARCH_KERNEL_TESTS, ROOFLINE_ARCH_FACTS_TESTS   the tests of those (tests/kernels, tests/bench).
# A new architecture (RISC-V vector) is one more line here and one more cmake/arch file.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(ROOFLINE_ARCH x86_64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(ROOFLINE_ARCH arm64)
else()
  message(FATAL_ERROR "roofline: no kernels for processor '${CMAKE_SYSTEM_PROCESSOR}' (x86_64 and aarch64 are built; "
                      "cmake/RooflineArch.cmake says how to add one)")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/arch/${ROOFLINE_ARCH}.cmake)
