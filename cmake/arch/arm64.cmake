# ARM64 (aarch64): the NEON STREAM loops, peaks and dequant-dot kernels (Advanced SIMD is part of every ARMv8-A core,
# so no flags), each extension's kernels with its own flags, Eigen's NEON copy, the facts from MIDR and HWCAP/HWCAP2.
# Chosen by cmake/RooflineArch.cmake.
# GCC's note that passing std::pair<double, double> changed in GCC 10.1 (-Wpsabi) concerns linking objects of GCC 9 with
# GCC 10 and later; every object of this build comes from one compiler, and the notes' thousands of lines buried the
# build's real warnings.
add_compile_options($<$<COMPILE_LANG_AND_ID:CXX,GNU>:-Wno-psabi>)
function(roofline_arch_kernels target)
  target_sources(${target} PRIVATE arch_arm64.cpp stream_neon.cpp peak_neon.cpp quant_dot_neon.cpp)
  # The dot product (SDOT) is an ARMv8.2 extension: only its translation units may emit it (chosen from HWCAP asimddp).
  roofline_isa_sources(${target} "-march=armv8.2-a+dotprod" peak_neon_dot.cpp quant_dot_neon_dot.cpp)
  # Half-precision arithmetic (FMLA .8h) is ARMv8.2's FP16 extension: chosen where HWCAP says asimdhp.
  roofline_isa_sources(${target} "-march=armv8.2-a+fp16" peak_neon_fp16.cpp)
  # The int8 matrix multiply (SMMLA) and bf16 (BFDOT, BFMMLA) extensions, ARMv8.6's and optional from ARMv8.2: chosen
  # where HWCAP2 says i8mm and bf16.
  roofline_isa_sources(${target} "-march=armv8.2-a+i8mm" peak_neon_i8mm.cpp)
  roofline_isa_sources(${target} "-march=armv8.2-a+bf16" peak_neon_bf16.cpp)
  # SVE (vector length agnostic): its translation units alone are built with +sve, chosen where HWCAP says sve.
  roofline_isa_sources(${target} "-march=armv8.2-a+sve" stream_sve.cpp peak_sve.cpp)
  # One Eigen copy: its NEON path is on for every aarch64 build (the localized object keeps the pattern of x86-64's).
  include(RooflineEigenVariants)
  roofline_eigen_variant(${target} neon "")
endfunction()

set(ROOFLINE_ARCH_FACTS_SOURCES facts/cpu_arm64.cpp)
set(ROOFLINE_ARCH_FACTS_TESTS facts/test_machine_arm64.cpp)
set(ROOFLINE_ARCH_KERNEL_TESTS cpu/host_features_arm64.cpp cpu/test_stream_arm64.cpp cpu/test_peak_arm64.cpp
    cpu/test_quant_dot_arm64.cpp)
