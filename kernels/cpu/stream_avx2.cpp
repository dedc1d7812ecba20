// STREAM loops for AVX2+FMA (compiled with -mavx2 -mfma only): ymm vectors, vmovntpd ymm streaming stores.
#include <immintrin.h>

#include "stream_isa.hpp"

ROOFLINE_STREAM_NT_VEC(__m256d, _mm256, 4, _mm256_fmadd_pd)

#define ROOFLINE_STREAM_FN stream_run_avx2
#include "stream_loops.hpp"
