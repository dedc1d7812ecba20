// The STREAM kernels' metadata table, first-touch initialization, run-time ISA dispatch and validators.
// The loops themselves live in stream_loops.hpp, built once per ISA (stream_sse2/avx2/avx512.cpp, stream_neon.cpp),
// chosen by the architecture's seam (arch.hpp).
#include "roofline/kernels/cpu/stream.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <omp.h>

#include "arch.hpp"

namespace roofline {

const std::vector<StreamKernelInfo>& stream_kernels() {
  // Each row of the one STREAM table (roofline/common/stream_kernels.hpp) in fp64 words, with the CPU's columns: the
  // traffic with write-allocate, and the lowest ISA (the streaming stores' movntpd is SSE2, STNP NEON).
  static const std::vector<StreamKernelInfo> table = [] {
    std::vector<StreamKernelInfo> rows;
    for (const StreamKernelRow& r : kStreamKernelRows) {
      rows.push_back({r.kernel, r.name, r.words_read, r.words_written, stream_words_write_allocate(r.kernel),
                      r.flops_per_element, r.non_temporal ? arch::stream_baseline_isa() : Isa::scalar, r.non_temporal, r.formula});
    }
    return rows;
  }();
  return table;
}

const StreamKernelInfo& stream_kernel_info(StreamKernel kernel) {
  return stream_kernels()[static_cast<std::size_t>(kernel)];
}

std::optional<StreamKernel> parse_stream_kernel(std::string_view name) { return stream_kernel_named(name); }

StreamArrayUse stream_kernel_uses(StreamKernel kernel) {
  switch (kernel) {
    case StreamKernel::copy:
    case StreamKernel::copy_nt: return {true, false, true};
    case StreamKernel::scale: return {false, true, true};
    case StreamKernel::add:
    case StreamKernel::triad:
    case StreamKernel::triad_nt: return {true, true, true};
    case StreamKernel::read:
    case StreamKernel::write:
    case StreamKernel::write_nt: return {true, false, false};
  }
  return {};
}

int stream_array_count(StreamKernel kernel) {
  const StreamArrayUse u = stream_kernel_uses(kernel);
  return int(u.a) + int(u.b) + int(u.c);
}

std::uint64_t stream_bytes_per_pass(StreamKernel kernel, std::size_t n) {
  return static_cast<std::uint64_t>(stream_words_per_element(kernel)) * sizeof(double) * n;
}

std::uint64_t stream_bytes_per_pass_write_allocate(StreamKernel kernel, std::size_t n) {
  return static_cast<std::uint64_t>(stream_kernel_info(kernel).words_write_allocate) * sizeof(double) * n;
}

std::uint64_t stream_working_set_bytes(StreamKernel kernel, std::size_t n) {
  return static_cast<std::uint64_t>(stream_array_count(kernel)) * sizeof(double) * n;
}

StreamRange stream_chunk(std::size_t n, int threads, int t) {
  if (threads <= 1) return {0, n};
  const auto bound = [&](int i) -> std::size_t {
    if (i >= threads) return n;
    const std::size_t raw = n / threads * i + n % threads * i / threads;
    return raw / 8 * 8;
  };
  return {bound(t), bound(t + 1)};
}

Isa stream_kernel_isa(StreamKernel, const IsaFeatures& features) { return arch::stream_isa(features); }

std::size_t stream_step_elements(StreamKernel kernel, const IsaFeatures& features) {
  // Must match stream_loops.hpp: NtVec::kWidth doubles per vector, read unrolled over 2 x kReadLanes.
  const std::size_t width = arch::stream_vector_doubles(features);
  return kernel == StreamKernel::read ? 2 * 8 * width : width;
}

void stream_init(StreamKernel kernel, const StreamArrays& x, int threads, StreamTouch touch) {
  const StreamArrayUse use = stream_kernel_uses(kernel);
  const auto write = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (use.a) x.a[i] = kStreamInitA;
      if (use.b) x.b[i] = kStreamInitB;
      if (use.c) x.c[i] = kStreamInitC;
    }
  };
  if (touch == StreamTouch::shared) {
    constexpr std::size_t kBlock = (2u << 20) / sizeof(double);
    const auto blocks = static_cast<std::int64_t>((x.n + kBlock - 1) / kBlock);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::size_t begin = static_cast<std::size_t>(b) * kBlock;
      write(begin, std::min(x.n, begin + kBlock));
    }
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const StreamRange r = stream_chunk(x.n, omp_get_num_threads(), omp_get_thread_num());
    write(r.begin, r.end);
  }
}

void stream_fill(double* x, std::size_t n, double value, int threads) {
#pragma omp parallel num_threads(threads)
  {
    const StreamRange r = stream_chunk(n, omp_get_num_threads(), omp_get_thread_num());
    for (std::size_t i = r.begin; i < r.end; ++i) x[i] = value;
  }
}

double run_stream_kernel(StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                         const IsaFeatures& features, double* thread_seconds) {
  if (repeats < 1 || threads < 1) {
    std::fprintf(stderr, "run_stream_kernel: repeats and threads must be >= 1\n");
    std::abort();
  }
  return arch::stream_run(stream_kernel_isa(kernel, features), kernel, arrays, threads, repeats, thread_seconds);
}

namespace {

// The value each array holds after any number of passes of `kernel` over the initial values.
struct Expected {
  double a = kStreamInitA;
  double b = kStreamInitB;
  double c = kStreamInitC;
};

Expected expected_values(StreamKernel kernel) {
  Expected e;
  switch (kernel) {
    case StreamKernel::copy:
    case StreamKernel::copy_nt: e.c = e.a; break;
    case StreamKernel::scale: e.b = kStreamScalar * e.c; break;
    case StreamKernel::add: e.c = e.a + e.b; break;
    case StreamKernel::triad:
    case StreamKernel::triad_nt: e.a = e.b + kStreamScalar * e.c; break;
    case StreamKernel::write:
    case StreamKernel::write_nt: e.a = kStreamFillValue; break;
    case StreamKernel::read: break;
  }
  return e;
}

bool close(double found, double expected) {
  return std::fabs(found - expected) <= kStreamTolerance * std::fabs(expected);
}

// First index (or n) where array x differs from `expected`, scanned by `threads` threads. A branch-free
// count first (it vectorizes, so checking stays memory-bound even on 1 GiB arrays), the index only when
// something is wrong.
std::size_t first_mismatch(const double* x, std::size_t n, double expected, int threads) {
  const double tolerance = kStreamTolerance * std::fabs(expected);
  std::size_t bad = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : bad)
  for (std::size_t i = 0; i < n; ++i) bad += !(std::fabs(x[i] - expected) <= tolerance);
  if (bad == 0) return n;
  for (std::size_t i = 0; i < n; ++i) {
    if (!close(x[i], expected)) return i;
  }
  return n;
}

}  // namespace

StreamCheck validate_stream(StreamKernel kernel, const StreamArrays& x, double read_sum, int threads) {
  const StreamKernelInfo& info = stream_kernel_info(kernel);
  const StreamArrayUse use = stream_kernel_uses(kernel);
  const Expected e = expected_values(kernel);
  char buffer[256];
  const struct {
    bool used;
    const char* name;
    const double* data;
    double expected;
  } arrays[] = {{use.a, "a", x.a, e.a}, {use.b, "b", x.b, e.b}, {use.c, "c", x.c, e.c}};
  for (const auto& arr : arrays) {
    if (!arr.used) continue;
    const std::size_t i = first_mismatch(arr.data, x.n, arr.expected, threads);
    if (i < x.n) {
      std::snprintf(buffer, sizeof buffer, "%s: %s[%zu] = %.17g, expected %.17g (n = %zu, tolerance %g relative)",
                    std::string(info.name).c_str(), arr.name, i, arr.data[i], arr.expected, x.n, kStreamTolerance);
      return {false, buffer};
    }
  }
  if (kernel == StreamKernel::read) return validate_read_sum(x, read_sum);
  return {};
}

StreamCheck validate_read_sum(const StreamArrays& x, double read_sum) {
  const double expected = kStreamInitA * static_cast<double>(x.n);
  if (!close(read_sum, expected)) {
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, "read: sum = %.17g, expected %.17g (n = %zu, tolerance %g relative)", read_sum,
                  expected, x.n, kStreamTolerance);
    return {false, buffer};
  }
  return {};
}

}  // namespace roofline
