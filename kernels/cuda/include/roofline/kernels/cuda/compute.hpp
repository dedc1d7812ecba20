// The CUDA-core FMA chains (issue 23): fp64, fp32, fp16x2 and bf16x2, kChains independent chains per thread
// (enough to cover the FMA pipe's latency at full occupancy). Each chain is x = x * a + b with a = -1 and b = kB
// passed at run time (so the compiler cannot fold them): after an even number of steps x is back to its seed,
// after an odd number it is kB - seed, exact in every precision, so the validator checks every thread's result
// in closed form. Thread 0 of each block records clock64() around its loop: the SM clock under load.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace roofline::cuda {

enum class ComputeKind { fp64, fp32, fp16x2, bf16x2 };
inline constexpr std::array<ComputeKind, 4> kComputeKinds{ComputeKind::fp64, ComputeKind::fp32, ComputeKind::fp16x2,
                                                          ComputeKind::bf16x2};
inline constexpr int kChains = 8;
// The kernel's inner block: kFmaStepsPerBlock steps of every chain (128 FMAs), fully unrolled, behind an int
// counter; a launch's `iterations` are whole blocks of it.
inline constexpr int kFmaStepsPerBlock = 16;
inline constexpr int kFmaThreads = 256;  // the block size the kernel is compiled for (__launch_bounds__)
inline constexpr int kFmaB = 3;

struct ComputeRow {
  ComputeKind kind;
  const char* name;       // "fp16x2"
  const char* precision;  // the results file's precision: "fp16"
  int lanes;              // values per register: 2 for the paired 16-bit types
};
// Plain data, so the CUDA target's plan (built without CUDA) names the FMA entries from the same rows.
inline constexpr std::array<ComputeRow, 4> kComputeRows{{
    {ComputeKind::fp64, "fp64", "fp64", 1},
    {ComputeKind::fp32, "fp32", "fp32", 1},
    {ComputeKind::fp16x2, "fp16x2", "fp16", 2},
    {ComputeKind::bf16x2, "bf16x2", "bf16", 2},
}};
constexpr const ComputeRow& compute_row(ComputeKind k) { return kComputeRows.at(static_cast<std::size_t>(k)); }

// FLOP of one launch: threads x iterations x chains x lanes x 2 (an FMA is 2 FLOP).
constexpr double fma_flop(ComputeKind k, std::uint64_t threads, std::int64_t iterations, int lanes) {
  (void)k;
  return static_cast<double>(threads) * static_cast<double>(iterations) * kChains * lanes * 2.0;
}

// The closed form of one thread's output: the sum over its chains and lanes of each value after `iterations`
// steps (seed(thread, chain, lane) = thread % 8 + chain + lane).
constexpr double expected_fma_output(std::uint64_t thread, std::int64_t iterations, int lanes) {
  double sum = 0;
  for (int chain = 0; chain < kChains; ++chain) {
    for (int lane = 0; lane < lanes; ++lane) {
      const double seed = static_cast<double>(thread % 8 + chain + lane);
      sum += iterations % 2 == 0 ? seed : kFmaB - seed;
    }
  }
  return sum;
}

// One launch of `blocks` x `threads_per_block` threads, `iterations` steps of every chain. `out`: a device array
// of one double per thread; `clocks`: two uint64 per block (clock64 at the start and end of thread 0's loop) or
// nullptr. `iterations` a multiple of kFmaStepsPerBlock, `threads_per_block` at most kFmaThreads (CudaError
// otherwise). Asynchronous on the default stream.
void launch_fma(ComputeKind k, int blocks, int threads_per_block, std::int64_t iterations, double* out,
                std::uint64_t* clocks);
// How many blocks of `threads` threads of kind `k`'s kernel stay resident on one SM
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor): the grid fills every SM once, whatever registers it needs.
int fma_blocks_per_sm(ComputeKind k, int threads);
// Copies `out` back and compares every thread's value with expected_fma_output. "" when right.
std::string validate_fma(ComputeKind k, const double* out, std::uint64_t threads, std::int64_t iterations);

// An empty kernel of one block of `threads_per_block` threads, for launch latency: what one launch costs when it
// does nothing (asynchronous on the default stream).
void launch_empty(int threads_per_block);

}  // namespace roofline::cuda
