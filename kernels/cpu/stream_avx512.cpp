// STREAM loops for AVX-512 (compiled with -mavx512f/bw/vl/dq and a 512-bit preferred vector width):
// zmm vectors, so that one load or store moves a whole 64-byte line; vmovntpd zmm streaming stores.
#include <immintrin.h>

#include "stream_isa.hpp"

ROOFLINE_STREAM_NT_VEC(__m512d, _mm512, 8, _mm512_fmadd_pd)

#define ROOFLINE_STREAM_FN stream_run_avx512
#include "stream_loops.hpp"
