// The memory kernels of kernels/opencl/memory.cl on one device: sizing (capped at the device's max allocation),
// pseudo-random contents, timing through the Session, and an exact check of every result after timing.
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"
#include "roofline_opencl_sources.hpp"
#include "session_impl.hpp"

namespace roofline::opencl {
namespace {

// splitmix64: a fast generator whose output no compressor can shrink (unlike ptr[i] = i).
std::vector<cl_uint> random_words(std::uint64_t n, std::uint64_t seed) {
  std::vector<cl_uint> v(n);
  std::uint64_t x = seed;
  for (auto& w : v) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    w = static_cast<cl_uint>(z ^ (z >> 31));
  }
  return v;
}

// memory.cl's HASH for one word index.
cl_uint expected_word(cl_uint x, cl_uint seed) {
  const cl_uint h = (x * 0x9E3779B1u) ^ seed;
  return h ^ (h >> 15);
}

std::string build_options(int width, bool chunked) {
  std::string lanes = width == 1 ? "0u" : fmt::format("(uint{})(", width);
  for (int l = 0; width > 1 && l < width; ++l) lanes += fmt::format("{}{}u", l == 0 ? "" : ",", l);
  if (width > 1) lanes += ")";
  const std::string vt = width == 1 ? "uint" : fmt::format("uint{}", width);
  return fmt::format("-DW={} -DVT={} -DLANES={}{}", width, vt, lanes, chunked ? " -DCHUNKED" : "");  // no spaces: build options are not quoted
}

void check_width(int width) {
  for (int w : kVectorWidths) {
    if (w == width) return;
  }
  throw InputError(fmt::format("OpenCL vector width {} is not one of 1, 2, 4, 8, 16", width));
}

// Words per buffer: bytes / arrays, capped at the max allocation (said), a whole number of work-groups.
std::uint64_t words_per_buffer(const Session& s, MemoryKernel k, int width, std::uint64_t bytes, Timing& t) {
  const std::uint64_t arrays = static_cast<std::uint64_t>(arrays_counted(k));
  std::uint64_t per_buffer = bytes / arrays;
  const std::uint64_t cap = s.facts().max_allocation_bytes;
  if (cap > 0 && per_buffer > cap) {
    t.notes.push_back(fmt::format("{} per buffer capped at the device's max allocation, {}",
                                  format_bytes(static_cast<double>(per_buffer)), format_bytes(static_cast<double>(cap))));
    per_buffer = cap;
  }
  const std::uint64_t grain = static_cast<std::uint64_t>(width) * s.local_size();
  const std::uint64_t words = per_buffer / 4 / grain * grain;
  if (words == 0) {
    throw InputError(fmt::format("OpenCL {} of {} is below one work-group ({} bytes per buffer)", to_string(k),
                                 format_bytes(static_cast<double>(bytes)), grain * 4));
  }
  // The kernels index words with 32-bit unsigned integers.
  if (words > 0xFFFFFFFFull) throw InputError("OpenCL memory kernels index at most 2^32 - 1 words per buffer");
  return words;
}

std::string validate(MemoryKernel k, const std::vector<cl_uint>& a, const std::vector<cl_uint>& b,
                     const std::vector<cl_uint>& c, const std::vector<cl_uint>& got, cl_uint scalar, cl_uint seed) {
  if (k == MemoryKernel::read) {
    cl_uint want = 0, sum = 0;
    for (cl_uint w : a) want += w;  // modular: exact in any order
    for (cl_uint w : got) sum += w;
    return sum == want ? "" : fmt::format("read: sum {} of the partial sums, expected {}", sum, want);
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const cl_uint want = k == MemoryKernel::copy    ? a[i]
                         : k == MemoryKernel::triad ? b[i] + scalar * c[i]
                                                    : expected_word(static_cast<cl_uint>(i), seed);
    if (got[i] != want) return fmt::format("{}: word {} holds {}, expected {}", to_string(k), i, got[i], want);
  }
  return "";
}
}  // namespace

Timing measure_memory(Session& s, MemoryKernel k, int width, std::uint64_t bytes, int reps) {
  check_width(width);
  if (reps < 1) throw InputError("OpenCL memory: at least one repetition");
  Timing t;
  const std::uint64_t local = s.local_size();
  std::uint64_t vecs = words_per_buffer(s, k, width, bytes, t) / static_cast<std::uint64_t>(width);
  // read: as many work-items as fill every compute unit 8 times over, each summing an equal share.
  const std::uint64_t units = static_cast<std::uint64_t>(std::max(1, s.facts().compute_units));
  const std::uint64_t global = k == MemoryKernel::read ? std::min(vecs, units * local * 8) / local * local : vecs;
  vecs = vecs / global * global;
  const std::uint64_t words = vecs * static_cast<std::uint64_t>(width);
  const std::uint64_t size = words * 4;
  Session::Impl& im = s.impl();
  const std::string kname = "mem_" + to_string(k);
  const bool chunked = k == MemoryKernel::read && s.facts().type == "cpu";
  KernelHandle kernel = im.kernel(kMemoryClSource, build_options(width, chunked), kname.c_str(), t.build_seconds);

  const bool triad = k == MemoryKernel::triad;
  const std::vector<cl_uint> a = random_words(words, 1);
  const std::vector<cl_uint> b = triad ? random_words(words, 2) : std::vector<cl_uint>{};
  const std::vector<cl_uint> c = triad ? random_words(words, 3) : std::vector<cl_uint>{};
  const cl_uint scalar = 3, seed = 0x5EEDu;
  MemHandle ma = im.buffer(size), mb = im.buffer(k == MemoryKernel::copy || k == MemoryKernel::triad ? size : 4);
  MemHandle mc = im.buffer(k == MemoryKernel::triad ? size : 4);
  im.write(ma.get(), a.data(), size);
  if (k == MemoryKernel::triad) {
    im.write(mb.get(), b.data(), size);
    im.write(mc.get(), c.data(), size);
  }
  MemHandle partial = im.buffer(k == MemoryKernel::read ? global * 4 : 4);

  cl_mem pa = ma.get(), pb = mb.get(), pc = mc.get(), pp = partial.get();
  const auto n = static_cast<cl_uint>(vecs);
  switch (k) {
    case MemoryKernel::read: set_arg(kernel.get(), 0, pa); set_arg(kernel.get(), 1, pp); set_arg(kernel.get(), 2, n); break;
    case MemoryKernel::copy: set_arg(kernel.get(), 0, pa); set_arg(kernel.get(), 1, pb); break;
    case MemoryKernel::triad:
      set_arg(kernel.get(), 0, pa); set_arg(kernel.get(), 1, pb); set_arg(kernel.get(), 2, pc);
      set_arg(kernel.get(), 3, scalar);
      break;
    case MemoryKernel::write: set_arg(kernel.get(), 0, pa); set_arg(kernel.get(), 1, seed); break;
  }
  run_timed(im, kernel.get(), global, reps, t);
  t.work_per_rep = size * static_cast<std::uint64_t>(arrays_counted(k));
  t.bytes_per_buffer = size;

  std::vector<cl_uint> got(k == MemoryKernel::read ? global : words);
  im.read(k == MemoryKernel::read ? pp : k == MemoryKernel::copy ? pb : pa, got.data(), got.size() * 4);
  t.validation_error = validate(k, a, b, c, got, scalar, seed);
  t.validated = t.validation_error.empty();
  return t;
}

}  // namespace roofline::opencl
