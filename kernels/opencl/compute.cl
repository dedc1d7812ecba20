// Compute kernels of the OpenCL target (issue 22): 16 independent mad chains per work-item in vector width W of
// type T (VT = T, T2, ..., T16), each step x = mad(x, m, a) (int32: x * m + a). m, a, start and step come at run
// time so the compiler cannot fold the chains; with m = -1 and a = 3 every value stays a small exact number:
// after N steps chain c holds x0 (N even) or 3 - x0 (N odd), x0 = start + c * step. Each work-item writes the
// sum of its chains' lanes in ACC (float for fp16, so the sum stays exact), which the host checks.

#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef USE_FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#ifndef DOT_CHAINS  // the mad chains; dot_chains below is built on its own
#ifdef INTEGER
#define STEP(x) x = x * m + a
#else
#define STEP(x) x = mad(x, m, a)
#endif

#if W == 1
#define LANESUM(v) ((ACC)(v))
#elif W == 2
#define LANESUM(v) ((ACC)(v).s0 + (ACC)(v).s1)
#else
#define LANESUM(v) (LANESUM_HALF((v).lo) + LANESUM_HALF((v).hi))
#endif
#if W == 4
#define LANESUM_HALF(v) ((ACC)(v).s0 + (ACC)(v).s1)
#elif W == 8
#define LANESUM_HALF(v) ((ACC)(v).s0 + (ACC)(v).s1 + (ACC)(v).s2 + (ACC)(v).s3)
#elif W == 16
#define LANESUM_HALF(v) ((ACC)(v).s0 + (ACC)(v).s1 + (ACC)(v).s2 + (ACC)(v).s3 + \
                         (ACC)(v).s4 + (ACC)(v).s5 + (ACC)(v).s6 + (ACC)(v).s7)
#endif

__kernel void mad_chains(__global ACC* restrict out, const float mf, const float af, const float startf,
                         const float stepf, const int iterations) {
  const VT m = (VT)((T)mf);
  const VT a = (VT)((T)af);
  const T start = (T)startf;
  const T step = (T)stepf;
  // 16 chains: enough independent mads in flight to cover the FMA latency of two pipes on a CPU core even at
  // the widest vector (8 left PoCL's fp32 float16 at under half the native peak).
  VT x0 = (VT)(start), x1 = (VT)(start + step), x2 = (VT)(start + 2 * step), x3 = (VT)(start + 3 * step);
  VT x4 = (VT)(start + 4 * step), x5 = (VT)(start + 5 * step), x6 = (VT)(start + 6 * step);
  VT x7 = (VT)(start + 7 * step), x8 = (VT)(start + 8 * step), x9 = (VT)(start + 9 * step);
  VT x10 = (VT)(start + 10 * step), x11 = (VT)(start + 11 * step), x12 = (VT)(start + 12 * step);
  VT x13 = (VT)(start + 13 * step), x14 = (VT)(start + 14 * step), x15 = (VT)(start + 15 * step);
  for (int i = 0; i < iterations; ++i) {
    STEP(x0); STEP(x1); STEP(x2); STEP(x3); STEP(x4); STEP(x5); STEP(x6); STEP(x7);
    STEP(x8); STEP(x9); STEP(x10); STEP(x11); STEP(x12); STEP(x13); STEP(x14); STEP(x15);
  }
  out[get_global_id(0)] = LANESUM(x0) + LANESUM(x1) + LANESUM(x2) + LANESUM(x3) + LANESUM(x4) + LANESUM(x5) +
                          LANESUM(x6) + LANESUM(x7) + LANESUM(x8) + LANESUM(x9) + LANESUM(x10) + LANESUM(x11) +
                          LANESUM(x12) + LANESUM(x13) + LANESUM(x14) + LANESUM(x15);
}
#endif

// int8 dot products (cl_khr_integer_dot_product where the device has it; an exact emulation elsewhere, so the
// chains' logic is tested on every device): NCH = 16 x W independent int chains per work-item, each step
// x = dot(as_char4(x), m4) + a with m4 = (m, 0, 0, 0) and a from run time: with m = -1 and a = 3, x -> 3 - x as
// the mad chains (the values stay within a signed byte). A step is one 4-lane dot with accumulate: 8 ops.
#ifdef DOT_CHAINS
#ifdef cl_khr_integer_dot_product
#pragma OPENCL EXTENSION cl_khr_integer_dot_product : enable
#define DOT4(x, m4, a) (dot(x, m4) + (a))
#else
#define DOT4(x, m4, a) ((int)(x).s0 * (m4).s0 + (int)(x).s1 * (m4).s1 + (int)(x).s2 * (m4).s2 + \
                        (int)(x).s3 * (m4).s3 + (a))
#endif
#define NCH (16 * W)

__kernel void dot_chains(__global int* restrict out, const int m, const int a, const int start, const int step,
                         const int iterations) {
  const char4 m4 = (char4)((char)m, 0, 0, 0);
  int x[NCH];
#pragma unroll
  for (int c = 0; c < NCH; ++c) x[c] = start + (c & 63) * step;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < NCH; ++c) x[c] = DOT4(as_char4(x[c]), m4, a);
  }
  int sum = 0;
#pragma unroll
  for (int c = 0; c < NCH; ++c) sum += x[c];
  out[get_global_id(0)] = sum;
}
#endif
