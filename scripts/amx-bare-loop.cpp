// The yardstick for the AMX tile ceilings (issue 13's speed target: roofline's AMX bf16 and int8 ceilings at
// 1 and all threads reach at least 0.95 of this loop, run in the same sitting). A bare intrinsics loop, on
// purpose written apart from kernels/cpu/peak_amx.cpp (intrinsics, not inline asm): 4 accumulator tiles, A and B
// in 4 more, full 16 x 64-byte tiles, TDPBF16PS or TDPBSSD, one OpenMP thread per core, best of 20 calls.
// It checks one accumulator element so a silently skipped loop cannot pass for a fast one.
//
// Build and run on a machine with AMX (Linux 5.16+), beside `roofline run` (scripts/amx-speed-check does both,
// alternating, best of several):
//   g++ -O2 -fopenmp -mamx-tile -mamx-bf16 -mamx-int8 scripts/amx-bare-loop.cpp -o amx-bare-loop
//   OMP_PROC_BIND=close OMP_PLACES=cores ./amx-bare-loop 1 && ./amx-bare-loop 2
// Prints: "bare bf16 threads:T <FLOP/s>" and "bare int8 threads:T <OP/s>" (base units, one line each).
#include <immintrin.h>
#include <omp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

struct alignas(64) TileConfig {
  std::uint8_t palette_id = 1, start_row = 0, reserved[14] = {};
  std::uint16_t colsb[16] = {};
  std::uint8_t rows[16] = {};
};

constexpr long kTrips = 1 << 16;  // x 4 instructions x 16 cycles: about 4M cycles per call

// One thread's loop; returns C[0][0] of the first accumulator.
template <bool Bf16>
float loop() {
  TileConfig cfg;
  for (int t = 0; t < 8; ++t) {
    cfg.colsb[t] = 64;
    cfg.rows[t] = 16;
  }
  _tile_loadconfig(&cfg);
  alignas(64) static thread_local std::uint8_t a[1024], b[1024], c[1024];
  std::memset(c, 0, sizeof c);
  if (Bf16) {
    const std::uint16_t one = 0x3f80, tiny = 0x3580;  // bf16 1.0 and 2^-20
    for (int i = 0; i < 512; ++i) {
      std::memcpy(a + 2 * i, &one, 2);
      std::memcpy(b + 2 * i, &tiny, 2);
    }
  } else {
    std::memset(a, 1, sizeof a);
    std::memset(b, 1, sizeof b);
  }
  asm volatile("" ::: "memory");  // GCC's tile intrinsics declare no memory operands
  _tile_loadd(0, c, 64);
  _tile_loadd(1, c, 64);
  _tile_loadd(2, c, 64);
  _tile_loadd(3, c, 64);
  _tile_loadd(4, a, 64);
  _tile_loadd(5, a, 64);
  _tile_loadd(6, b, 64);
  _tile_loadd(7, b, 64);
  for (long i = 0; i < kTrips; ++i) {
    if (Bf16) {
      _tile_dpbf16ps(0, 4, 6);
      _tile_dpbf16ps(1, 4, 7);
      _tile_dpbf16ps(2, 5, 6);
      _tile_dpbf16ps(3, 5, 7);
    } else {
      _tile_dpbssd(0, 4, 6);
      _tile_dpbssd(1, 4, 7);
      _tile_dpbssd(2, 5, 6);
      _tile_dpbssd(3, 5, 7);
    }
  }
  _tile_stored(0, c, 64);
  asm volatile("" ::: "memory");
  _tile_release();
  float f = 0;
  if (Bf16) {
    std::memcpy(&f, c, 4);
  } else {
    std::int32_t v = 0;
    std::memcpy(&v, c, 4);
    f = static_cast<float>(v);
  }
  return f;
}

template <bool Bf16>
double best_rate(int threads) {
  double best = 0;
  for (int call = 0; call < 20; ++call) {
    bool ok = true;
    const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads) reduction(&& : ok)
    {
      const float x = loop<Bf16>();
      // bf16: 2^16 trips x 32 products of 2^-20 = 2; int8: 2^16 x 64 x 1 = 4194304.
      ok = ok && x == (Bf16 ? 2.0f : 4194304.0f);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!ok) {
      std::fprintf(stderr, "amx-bare-loop: wrong accumulator: the loop did not run as written\n");
      std::exit(1);
    }
    // 4 instructions per trip; 16384 FLOP (bf16) or 32768 OP (int8) per instruction.
    best = std::max(best, threads * 4.0 * kTrips * (Bf16 ? 16384.0 : 32768.0) / s);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  if (threads < 1) {
    std::fprintf(stderr, "amx-bare-loop: threads must be a positive integer\n");
    return 2;
  }
  // ARCH_REQ_XCOMP_PERM (0x1023) for XFEATURE_XTILEDATA (18): once per process, inherited by the threads.
  if (syscall(SYS_arch_prctl, 0x1023, 18) != 0) {
    std::fprintf(stderr, "amx-bare-loop: the kernel refused the AMX tile permission (no AMX, or Linux < 5.16)\n");
    return 1;
  }
  std::printf("bare bf16 threads:%d %.6g\n", threads, best_rate<true>(threads));
  std::printf("bare int8 threads:%d %.6g\n", threads, best_rate<false>(threads));
  return 0;
}
