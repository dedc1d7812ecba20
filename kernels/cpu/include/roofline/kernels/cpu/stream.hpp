// STREAM-style bandwidth kernels over fp64 arrays: copy, scale, add, triad (STREAM's definitions), a
// read-only sum, a write-only fill, and non-temporal (streaming-store) variants of copy, triad and fill.
// What each kernel reads, writes and computes is the one STREAM table every target uses
// (roofline/common/stream_kernels.hpp); stream_kernels() adds the CPU's columns, and bytes are computed from it only.
// Kernels run their own OpenMP region with a static partition (stream_chunk) that the first-touch
// initialization uses too, so every thread touches the same pages in init and in the timed kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/common/stream_kernels.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {

// One row per kernel: the common table's row (StreamKernelRow: name, words, FLOPs, streaming stores, formula) in fp64
// words, with the CPU's columns derived from it (write-allocate traffic, the lowest ISA). Arrays a, b, c are used in
// that order (copy c=a, scale b=s*c uses b and c; see stream_kernel_uses()).
struct StreamKernelInfo {
  StreamKernel kernel;
  std::string_view name;       // as in results files: "copy", "triad_nt", ...
  int words_read;              // fp64 words read per element (STREAM's count)
  int words_written;           // fp64 words written per element (write-allocate not counted)
  // fp64 words of memory traffic per element with write-allocate: each cached store also reads its line
  // first (copy 3, triad 4, write 2); streaming stores (the _nt kernels) do not, so theirs equals STREAM's.
  int words_write_allocate;
  int flops_per_element;       // scale 1, add 1, triad 2 (mul + add; an FMA is 2 FLOP)
  Isa needs_isa;               // lowest ISA level that has the kernel (movntpd is SSE2)
  bool non_temporal;           // streaming stores that bypass the caches
  std::string_view formula;    // for people: "c = a", "a = b + s*c", ...
};

// The table, in the order above.
const std::vector<StreamKernelInfo>& stream_kernels();
const StreamKernelInfo& stream_kernel_info(StreamKernel kernel);
std::optional<StreamKernel> parse_stream_kernel(std::string_view name);

// Arrays a kernel touches, by STREAM's definitions (read or written).
struct StreamArrayUse {
  bool a = false;
  bool b = false;
  bool c = false;
};
StreamArrayUse stream_kernel_uses(StreamKernel kernel);
// Number of distinct arrays the kernel touches (1, 2 or 3).
int stream_array_count(StreamKernel kernel);

// Bytes one pass over n elements moves, STREAM's convention: (words read + words written) x 8 x n.
std::uint64_t stream_bytes_per_pass(StreamKernel kernel, std::size_t n);
// The same pass counted with write-allocate traffic: words_write_allocate x 8 x n.
std::uint64_t stream_bytes_per_pass_write_allocate(StreamKernel kernel, std::size_t n);
// Bytes of all arrays the kernel touches: array count x 8 x n.
std::uint64_t stream_working_set_bytes(StreamKernel kernel, std::size_t n);

// The arrays, each at least n elements, 64-byte aligned; arrays the kernel does not use may be null.
struct StreamArrays {
  double* a = nullptr;
  double* b = nullptr;
  double* c = nullptr;
  std::size_t n = 0;
};

// STREAM's scalar and this suite's initial values (exact in binary floating point, distinct per array,
// so a kernel that did nothing or wrote the wrong array is caught by the validator).
inline constexpr double kStreamScalar = 3.0;
inline constexpr double kStreamInitA = 1.0;
inline constexpr double kStreamInitB = 2.0;
inline constexpr double kStreamInitC = 0.5;
inline constexpr double kStreamFillValue = 4.0;

// Thread t's part [begin, end) of n elements among `threads`: contiguous blocks whose boundaries are
// multiples of 8 elements (64 bytes), so each block starts on a cache line.
struct StreamRange {
  std::size_t begin;
  std::size_t end;
};
StreamRange stream_chunk(std::size_t n, int threads, int t);

// The ISA level whose code run_stream_kernel uses for this kernel under `features` (avx512, avx2 or sse).
Isa stream_kernel_isa(StreamKernel kernel, const IsaFeatures& features);

// Elements one iteration of the kernel's unrolled loop handles under `features` (read: two blocks of its
// accumulators, 128 doubles with AVX-512; the others: one vector). A thread's block that is a whole number
// of steps runs no tail at all; a tail is done in whole vectors (scalars only below one vector, which
// blocks of whole cache lines never have). Plan sizes so that n is a multiple of threads x step.
std::size_t stream_step_elements(StreamKernel kernel, const IsaFeatures& features);

// Who writes which elements in stream_init.
enum class StreamTouch {
  own_chunks,  // each thread its stream_chunk, as it measures: the first touch that places pages on NUMA nodes
  shared       // 2 MiB blocks handed to whichever thread is free: on one NUMA node, where the toucher does not decide
               // where a page lies, the zeroing of fresh pages (the tail of a grown mapping) is spread over the team
};
// Writes the initial values into the arrays `kernel` uses, from an OpenMP team of `threads` threads: call it from
// the pinned team right after allocation (first touch).
void stream_init(StreamKernel kernel, const StreamArrays& arrays, int threads,
                 StreamTouch touch = StreamTouch::own_chunks);
// Writes `value` into x[0..n) the same way (each thread its stream_chunk): one array put back to its initial value.
void stream_fill(double* x, std::size_t n, double value, int threads);

// Runs `kernel` `repeats` times over the arrays on `threads` threads (one OpenMP region, static
// partition; each thread repeats its own block, which is correct because every kernel is idempotent on
// the initial values). Returns the sum of the last pass for `read`, 0 otherwise. Bytes moved:
// repeats x stream_bytes_per_pass(kernel, n).
// `thread_seconds`, when given (`threads` elements), gets each thread's own time on its block added (from its start
// to its end, the fork and the barrier left out): the per-thread rates of a statically split call, which the gate
// compares to tell a host that slowed one vCPU (its SMT sibling loaded) from the code (issue 59).
double run_stream_kernel(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                         const IsaFeatures& features, double* thread_seconds = nullptr);

// Relative tolerance of the validator: STREAM's epsilon for fp64. Every element is computed exactly from
// the initial values (1, 2, 0.5, 3), so any real mismatch is far above it; the sum of `read` is exact too.
inline constexpr double kStreamTolerance = 1e-13;

struct StreamCheck {
  bool ok = true;
  std::string message;  // on failure: kernel, array, index, expected and found value
};

// Checks every element of every array the kernel touches against its closed-form value after any number
// of passes, and the returned sum of `read` (pass 0 for other kernels) against n x a.
StreamCheck validate_stream(StreamKernel kernel, const StreamArrays& arrays, double read_sum, int threads);
// The read's own result alone: its sum against n x a. For a read of an array whose elements were checked since it
// was last written (read never writes), this is the whole check; validate_stream does it too.
StreamCheck validate_read_sum(const StreamArrays& arrays, double read_sum);

}  // namespace roofline
