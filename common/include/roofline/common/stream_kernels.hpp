// The STREAM kernels as data (likwid-bench style, BabelStream's one table of weights): per element, the words a kernel
// reads and writes and the FLOPs it does. Every target's STREAM kernels take their names and their byte and FLOP
// counts from this table only: the CPU's (roofline/kernels/cpu/stream.hpp, fp64 words), the OpenCL device's
// (roofline/opencl/measure.hpp) and the CUDA device's (roofline/kernels/cuda/memory.hpp), 4-byte words there; a
// target says its word size, not the counts.
// Header-only and C++17 (the CUDA kernels include it through nvcc).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace roofline {

enum class StreamKernel { copy, scale, add, triad, read, write, copy_nt, triad_nt, write_nt };

struct StreamKernelRow {
  StreamKernel kernel;
  std::string_view name;     // as in results files: "copy", "triad_nt", ...
  int words_read;            // words read per element (STREAM's count)
  int words_written;         // words written per element (write-allocate not counted)
  int flops_per_element;     // scale 1, add 1, triad 2 (mul + add; an FMA is 2 FLOP), read 1 (the sum's add)
  bool non_temporal;         // streaming stores that bypass the caches (no write-allocate read of the line)
  std::string_view formula;  // for people: "c = a", "a = b + s*c", ...
};

// The table, in StreamKernel's order. Arrays a, b, c are STREAM's (copy c = a, scale b = s*c, triad a = b + s*c).
inline constexpr std::array<StreamKernelRow, 9> kStreamKernelRows{{
    {StreamKernel::copy, "copy", 1, 1, 0, false, "c = a"},
    {StreamKernel::scale, "scale", 1, 1, 1, false, "b = s*c"},
    {StreamKernel::add, "add", 2, 1, 1, false, "c = a + b"},
    {StreamKernel::triad, "triad", 2, 1, 2, false, "a = b + s*c"},
    {StreamKernel::read, "read", 1, 0, 1, false, "sum += a"},
    {StreamKernel::write, "write", 0, 1, 0, false, "a = v"},
    {StreamKernel::copy_nt, "copy_nt", 1, 1, 0, true, "c = a (streaming stores)"},
    {StreamKernel::triad_nt, "triad_nt", 2, 1, 2, true, "a = b + s*c (streaming stores)"},
    {StreamKernel::write_nt, "write_nt", 0, 1, 0, true, "a = v (streaming stores)"},
}};

constexpr const StreamKernelRow& stream_kernel_row(StreamKernel kernel) {
  return kStreamKernelRows[static_cast<std::size_t>(kernel)];
}

// The kernel named `name`; nullopt when no row has that name.
constexpr std::optional<StreamKernel> stream_kernel_named(std::string_view name) {
  for (const StreamKernelRow& r : kStreamKernelRows) {
    if (r.name == name) return r.kernel;
  }
  return std::nullopt;
}

// Words one element moves, STREAM's convention: read + written (copy 2, triad 3, read and write 1).
constexpr int stream_words_per_element(StreamKernel kernel) {
  const StreamKernelRow& r = stream_kernel_row(kernel);
  return r.words_read + r.words_written;
}

// Words one element moves where each cached store first reads its line (write-allocate): STREAM's count plus the
// words written, unless the stores are streaming (copy 3, triad 4, write 2; the _nt kernels as STREAM counts them).
constexpr int stream_words_write_allocate(StreamKernel kernel) {
  const StreamKernelRow& r = stream_kernel_row(kernel);
  return stream_words_per_element(kernel) + (r.non_temporal ? 0 : r.words_written);
}

}  // namespace roofline
