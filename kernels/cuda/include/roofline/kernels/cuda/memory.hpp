// The CUDA memory kernels (issue 23): read, copy, triad and write over device buffers, 16-byte loads and stores,
// grid-stride, four independent 16-byte accesses per thread per step so enough bytes are in flight to cover HBM's
// latency. Each is a row of the one STREAM table (roofline/common/stream_kernels.hpp: its name, the words it reads and
// writes, 4-byte words here); the validators replay each kernel's closed form on
// the device and count mismatches, so a 4 GiB check costs one pass rather than a copy to the host.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "roofline/common/stream_kernels.hpp"

namespace roofline::cuda {

enum class MemoryKernel { read, copy, triad, write };
inline constexpr std::array<MemoryKernel, 4> kMemoryKernels{MemoryKernel::read, MemoryKernel::copy,
                                                            MemoryKernel::triad, MemoryKernel::write};

constexpr StreamKernel stream_kernel(MemoryKernel k) {
  return k == MemoryKernel::read ? StreamKernel::read
         : k == MemoryKernel::copy ? StreamKernel::copy
         : k == MemoryKernel::triad ? StreamKernel::triad
                                    : StreamKernel::write;
}

// STREAM's count, the table's: the arrays a kernel names per element (read 1, copy 2, triad 3, write 1), 4-byte words each.
struct MemoryKernelRow {
  MemoryKernel kernel;
  const char* name;
  int arrays_read;
  int arrays_written;
};
constexpr MemoryKernelRow memory_row(MemoryKernel k) {
  const StreamKernelRow& r = stream_kernel_row(stream_kernel(k));
  return {k, r.name.data(), r.words_read, r.words_written};  // the table's names are literals: terminated
}

// Three device buffers of `words` 32-bit words each (a multiple of 4: whole 16-byte vectors) and a two-word
// device scratch (`scratch[0]` the read kernel's sum, `scratch[1]` the validators' mismatch count).
struct MemoryBuffers {
  void* a = nullptr;  // written (copy, triad, write)
  void* b = nullptr;  // read
  void* c = nullptr;  // read (triad)
  std::uint64_t words = 0;
  std::uint32_t* scratch = nullptr;
};

// How many blocks of `threads` threads of kernel `k` stay resident on one SM (its registers and shared memory:
// cudaOccupancyMaxActiveBlocksPerMultiprocessor), for a grid that fills every SM once. The kernels are compiled
// for blocks of 256 threads (__launch_bounds__): launch them with that.
int memory_blocks_per_sm(MemoryKernel k, int threads);
// Writes the inputs kernel `k` reads (b, and c for triad; a zeroed), outside any timing.
void fill_memory(MemoryKernel k, const MemoryBuffers& buffers);
// One launch: `passes` passes over the buffers (several for L2-sized buffers, so launch cost stays small),
// `blocks` x `threads_per_block` threads. Asynchronous on the default stream.
void launch_memory(MemoryKernel k, const MemoryBuffers& buffers, int passes, int blocks, int threads_per_block);
// After timing: one more launch of `k` from a reset state, its output compared with the closed form.
// "" when right, else what was wrong.
std::string validate_memory(MemoryKernel k, const MemoryBuffers& buffers, int blocks, int threads_per_block);

// The closed forms the validators use, inline so host tests check them without CUDA. b holds (i * 37) mod 256:
// 37 is odd, so every 256 consecutive words are a permutation of 0..255 (sum 32640) and the read kernel's sum of
// `words` words has a closed form; the values differ word to word, so no compression could shrink them.
constexpr std::uint32_t memory_pattern(std::uint64_t i) { return static_cast<std::uint32_t>((i * 37U) & 255U); }
// triad's second input c; a = b + kTriadScalar * c stays below 2^24, exact in fp32.
constexpr std::uint32_t triad_pattern(std::uint64_t i) { return static_cast<std::uint32_t>((i * 11U) & 7U); }
inline constexpr float kTriadScalar = 3.0F;
inline constexpr std::uint32_t kWriteValue = 0x5a5a5a5aU;
constexpr std::uint32_t expected_read_sum(std::uint64_t words) {
  std::uint64_t sum = (words / 256U) * 32640U;
  for (std::uint64_t i = words - words % 256U; i < words; ++i) sum += memory_pattern(i);
  return static_cast<std::uint32_t>(sum);
}

}  // namespace roofline::cuda
