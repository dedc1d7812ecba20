# x86-64: the SSE2 baseline, the AVX2/AVX-512/VNNI/BF16/FP16/AMX translation units (each with its own flags and
# chosen at run time from cpuid), the Eigen copies per ISA level, the facts from cpuid. Chosen by
# cmake/RooflineArch.cmake.
function(roofline_arch_kernels target)
  # the seam, the SSE2 baseline (any x86-64), and AMX's operands and scalar replay of the tile instructions (issue 13)
  target_sources(${target} PRIVATE arch_x86_64.cpp stream_sse2.cpp peak_baseline.cpp amx_tile.cpp)
  # ISA-specific sources (issue 3: non-temporal stores; issue 4: peak kernels), e.g.
  # roofline_isa_sources(${target} "-mavx512f -mavx512bw -mavx512vl -mavx512dq" peak_avx512.cpp)
  # bandwidth (issue 3)
  roofline_isa_sources(${target} "-mavx2 -mfma" stream_avx2.cpp)
  roofline_isa_sources(${target} "-mavx512f -mavx512bw -mavx512vl -mavx512dq -mprefer-vector-width=512" stream_avx512.cpp)
  # compute peak (issue 4): one translation unit per ISA, each with only its own target flags.
  set(ROOFLINE_AVX512_FLAGS "-mavx512f -mavx512dq -mavx512bw -mavx512vl")
  roofline_isa_sources(${target} "-mavx -mfma" peak_fma.cpp)
  roofline_isa_sources(${target} "${ROOFLINE_AVX512_FLAGS}" peak_avx512.cpp)
  roofline_isa_sources(${target} "${ROOFLINE_AVX512_FLAGS} -mavx512bf16" peak_avx512_bf16.cpp)
  roofline_isa_sources(${target} "${ROOFLINE_AVX512_FLAGS} -mavx512fp16" peak_avx512_fp16.cpp)
  roofline_isa_sources(${target} "${ROOFLINE_AVX512_FLAGS} -mavx512vnni" peak_avx512_vnni.cpp)
  roofline_isa_sources(${target} "-mavx2 -mavxvnni" peak_avx_vnni.cpp)
  # dequant-dot (issue 38): one translation unit per ISA; F16C converts the blocks' fp16 scales.
  roofline_isa_sources(${target} "-mavx2 -mfma -mf16c" quant_dot_avx2.cpp)
  roofline_isa_sources(${target} "-mavx2 -mfma -mf16c -mavxvnni" quant_dot_avx_vnni.cpp)
  # GCC 12's AVX-512 headers trip -Wmaybe-uninitialized on their own `__Y = __Y` placeholders once inlined at -O3
  # (GCC bug 105593, fixed in GCC 13): off for these two translation units only.
  roofline_isa_sources(${target} "${ROOFLINE_AVX512_FLAGS} -mfma -mf16c -Wno-maybe-uninitialized" quant_dot_avx512.cpp)
  roofline_isa_sources(${target} "${ROOFLINE_AVX512_FLAGS} -mfma -mf16c -mavx512vnni -Wno-maybe-uninitialized"
                       quant_dot_avx512_vnni.cpp)
  # AMX tiles (issue 13). AMX-FP16 (TDPFP16PS) needs -mamx-fp16, which GCC 12 lacks: the row then says
  # "not supported: toolchain lacks AMX-FP16" (peak_build_gap) instead of failing the build.
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag(-mamx-fp16 ROOFLINE_HAVE_AMX_FP16)
  set(ROOFLINE_AMX_FLAGS "-mamx-tile -mamx-bf16 -mamx-int8")
  if(ROOFLINE_HAVE_AMX_FP16)
    string(APPEND ROOFLINE_AMX_FLAGS " -mamx-fp16")
    target_compile_definitions(${target} PRIVATE ROOFLINE_HAVE_AMX_FP16=1)
  endif()
  roofline_isa_sources(${target} "${ROOFLINE_AMX_FLAGS}" peak_amx.cpp)

  # gemm (issues 5, 6): one Eigen copy per ISA level (cmake/RooflineEigenVariants.cmake), and the optional
  # backends only when their library was found; the registry (gemm_registry.cpp) is the one place that
  # reads the ROOFLINE_HAVE_* definitions.
  include(RooflineEigenVariants)
  roofline_eigen_variant(${target} avx512 "-mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma")
  roofline_eigen_variant(${target} avx2 "-mavx2 -mfma")
  roofline_eigen_variant(${target} baseline "")
  # A false positive in Eigen's headers under -fsanitize: GCC 12 with ASan+UBSan reports "'__Y' is used
  # uninitialized" inside the AVX-512 intrinsics (ptranspose, _mm512_unpacklo_ps) inlined into this one
  # copy; the release build is clean. Only that flag, only this translation unit, only the sanitize build.
  if(ROOFLINE_SANITIZE)
    target_compile_options(roofline_eigen_avx512 PRIVATE -Wno-uninitialized)
  endif()
endfunction()

set(ROOFLINE_ARCH_FACTS_SOURCES facts/cpu_x86_64.cpp facts/cpuid.cpp facts/amx_probe.cpp)
set(ROOFLINE_ARCH_FACTS_TESTS facts/test_machine_x86_64.cpp facts/test_amx.cpp)
set(ROOFLINE_ARCH_KERNEL_TESTS cpu/host_features_x86_64.cpp cpu/test_stream_x86_64.cpp cpu/test_peak.cpp
    cpu/test_amx_tile.cpp)
