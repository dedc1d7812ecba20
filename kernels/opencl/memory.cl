// Memory kernels of the OpenCL target (issue 22), on 32-bit unsigned words in vector width W (VT = uint, uint2,
// ..., uint16), so every check is exact and order-independent (modular sums). The host defines W and VT.
// One work-item per vector element (copy, triad, write); read reduces, one partial sum per work-item, summed and
// checked by the host: in a grid-stride loop (neighbouring work-items read neighbouring words: coalesced on a
// GPU) or, with CHUNKED (CPU devices), 16 neighbouring vectors per work-item.

#if W == 1
#define HSUM(v) (v)
#elif W == 2
#define HSUM(v) ((v).s0 + (v).s1)
#elif W == 4
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#elif W == 8
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3 + (v).s4 + (v).s5 + (v).s6 + (v).s7)
#elif W == 16
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3 + (v).s4 + (v).s5 + (v).s6 + (v).s7 + \
                 (v).s8 + (v).s9 + (v).sa + (v).sb + (v).sc + (v).sd + (v).se + (v).sf)
#endif

__kernel void mem_read(__global const VT* restrict a, __global uint* restrict partial, const uint n) {
  const uint gid = get_global_id(0);
  const uint stride = get_global_size(0);
  VT acc = (VT)(0);
#ifdef CHUNKED
  // A CPU device: 16 neighbouring vectors per work-item (the host launches n / 16 work-items). A CPU device
  // runs a work-group's work-items one after another on one thread, so this is one sequential stream per
  // thread. clpeak's pattern (16 fetches a work-group apart: 16 streams per thread) read less on PoCL here:
  // 28.5 against 32 GB/s of DRAM (medians of 6 interleaved runs at 256 MiB) and 84-102 against 83-116 at
  // 8 MiB; run as a second variant beside this one, it was the better in none of 5 pairs beside clpeak.
  uint i = gid * 16;
  for (uint j = 0; j < 16; ++j, ++i) acc += a[i];
  (void)n;
#else
  for (uint i = gid; i < n; i += stride) acc += a[i];
#endif
  partial[gid] = HSUM(acc);
}

__kernel void mem_copy(__global const VT* restrict a, __global VT* restrict b) {
  const uint i = get_global_id(0);
  b[i] = a[i];
}

__kernel void mem_triad(__global VT* restrict a, __global const VT* restrict b, __global const VT* restrict c,
                        const uint scalar) {
  const uint i = get_global_id(0);
  a[i] = b[i] + scalar * c[i];
}

// The value written at word index x: a multiplicative hash with an xor-shift, so consecutive words differ by
// no constant (a delta compressor cannot shrink them). The host's expected_word() is the same function.
#define HASH(x, seed) (((x) * 0x9E3779B1u ^ (seed)) ^ (((x) * 0x9E3779B1u ^ (seed)) >> 15))

__kernel void mem_write(__global VT* restrict a, const uint seed) {
  const uint i = get_global_id(0);
  const VT x = (VT)(i * W) + LANES;
  a[i] = HASH(x, (VT)(seed));
}
