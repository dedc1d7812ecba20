// The memory kernels of kernels/opencl/memory.cl on one device: sizing (capped at the device's max allocation),
// pseudo-random contents, timing through the Session, and an exact check of every result after timing.
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"
#include "roofline_opencl_sources.hpp"
#include "prepared.hpp"
#include "roofline/opencl/device_plan.hpp"

namespace roofline::opencl {
namespace {

// The work-group size of the chunked read on a CPU device: larger groups than the other kernels', fewer groups to
// schedule per pass (256 and the device's maximum, 4096 on PoCL, read the same within noise: 32/31, 32/29, 35/36,
// 37/31, 35/35 GB/s in 5 interleaved rounds at 256 MiB).
constexpr std::uint64_t kChunkedLocal = 256;

// The widest vector width: every buffer holds a whole number of its work-groups.
constexpr std::uint64_t kWidest = 16;

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

std::string check_result(MemoryKernel k, const std::vector<cl_uint>& a, const std::vector<cl_uint>& b,
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

void check_width(int width) {
  for (int w : kVectorWidths) {
    if (w == width) return;
  }
  throw InputError(fmt::format("OpenCL vector width {} is not one of 1, 2, 4, 8, 16", width));
}

PreparedMemory::PreparedMemory(Session& s, MemoryKernel k, std::uint64_t bytes) : s_(s), k_(k) {
  const std::uint64_t arrays = static_cast<std::uint64_t>(arrays_counted(k));
  const std::uint64_t per_buffer = bytes / arrays;
  const std::uint64_t cap = s.facts().max_allocation_bytes;
  if (cap > 0 && per_buffer > cap) {
    notes_.push_back(fmt::format("{} per buffer capped at the device's max allocation, {}",
                                 format_bytes(static_cast<double>(per_buffer)), format_bytes(static_cast<double>(cap))));
  }
  words_ = planned_words(k, bytes, cap, s.local_size());  // as the plan names it (device_plan.hpp)
  if (words_ == 0) {
    throw InputError(fmt::format("OpenCL {} of {} is below one work-group ({} bytes per buffer)", to_string(k),
                                 format_bytes(static_cast<double>(bytes)), kWidest * s.local_size() * 4));
  }
  // The kernels index words with 32-bit unsigned integers.
  if (words_ > 0xFFFFFFFFull) throw InputError("OpenCL memory kernels index at most 2^32 - 1 words per buffer");
  const bool triad = k == MemoryKernel::triad;
  a_ = random_words(words_, 1);
  if (triad) {
    b_ = random_words(words_, 2);
    c_ = random_words(words_, 3);
  }
  Session::Impl& im = s.impl();
  const std::uint64_t size = words_ * 4;
  ma_ = im.buffer(size);
  mb_ = im.buffer(k == MemoryKernel::copy || triad ? size : 4);
  mc_ = im.buffer(triad ? size : 4);
  im.write(ma_.get(), a_.data(), size);
  if (triad) {
    im.write(mb_.get(), b_.data(), size);
    im.write(mc_.get(), c_.data(), size);
  }
}

std::uint64_t PreparedMemory::bytes_per_launch(int width) {
  if (k_ == MemoryKernel::read) return width_state(width).words * 4;
  return words_ * 4 * static_cast<std::uint64_t>(arrays_counted(k_));
}

std::uint64_t PreparedMemory::global_size(int width) { return width_state(width).global; }

std::uint64_t PreparedMemory::local_size(int width) { return width_state(width).local; }

PreparedMemory::Width& PreparedMemory::width_state(int width) {
  check_width(width);
  auto it = widths_.find(width);
  if (it != widths_.end()) return it->second;
  Width w;
  Session::Impl& im = s_.impl();
  const std::uint64_t local = s_.local_size();
  const std::uint64_t vecs = words_ / static_cast<std::uint64_t>(width);
  // read: as many work-items as fill every compute unit 8 times over, each summing an equal share.
  const std::uint64_t units = static_cast<std::uint64_t>(std::max(1, s_.facts().compute_units));
  // (a buffer too small for one work-group of 16 fetches each reads grid-stride instead)
  const bool chunked = k_ == MemoryKernel::read && s_.facts().type == "cpu" && vecs >= 16 * local;
  // read on a CPU device: 16 neighbouring vectors per work-item (memory.cl's CHUNKED).
  w.local = local;
  // (grown only while the work-items still cover the buffer in whole groups: what a launch leaves unread is
  // not counted, bytes_per_launch, but a read should cover its working set)
  while (chunked && w.local * 2 <= std::min<std::uint64_t>(kChunkedLocal, s_.facts().max_work_group_size) &&
         vecs >= 16 * w.local * 2 && (vecs / 16) % (w.local * 2) == 0) {
    w.local *= 2;
  }
  w.global = chunked ? std::max(w.local, vecs / 16 / w.local * w.local)
             : k_ == MemoryKernel::read ? std::max(local, std::min(vecs, units * local * 8) / local * local)
                                        : vecs;
  const std::uint64_t used_vecs = chunked ? w.global * 16 : vecs / w.global * w.global;
  w.words = used_vecs * static_cast<std::uint64_t>(width);
  const std::string kname = "mem_" + to_string(k_);
  double built = 0;
  w.kernel = im.kernel(kMemoryClSource, build_options(width, chunked), kname.c_str(), built);
  build_seconds += built;
  w.partial = im.buffer(k_ == MemoryKernel::read ? w.global * 4 : 4);
  cl_kernel kn = w.kernel.get();
  cl_mem pa = ma_.get(), pb = mb_.get(), pc = mc_.get(), pp = w.partial.get();
  const cl_uint scalar = 3, seed = 0x5EEDu;
  switch (k_) {
    case MemoryKernel::read:
      set_arg(kn, 0, pa); set_arg(kn, 1, pp); set_arg(kn, 2, static_cast<cl_uint>(used_vecs));
      break;
    case MemoryKernel::copy: set_arg(kn, 0, pa); set_arg(kn, 1, pb); break;
    case MemoryKernel::triad: set_arg(kn, 0, pa); set_arg(kn, 1, pb); set_arg(kn, 2, pc); set_arg(kn, 3, scalar); break;
    case MemoryKernel::write: set_arg(kn, 0, pa); set_arg(kn, 1, seed); break;
  }
  return widths_.emplace(width, std::move(w)).first->second;
}

double PreparedMemory::run(int width, std::int64_t launches, bool& device_timed) {
  Width& w = width_state(width);
  return s_.impl().launch_many(w.kernel.get(), w.global, launches, device_timed, w.local);
}

std::string PreparedMemory::validate(int width) {
  Width& w = width_state(width);
  Session::Impl& im = s_.impl();
  const bool read = k_ == MemoryKernel::read;
  std::vector<cl_uint> got(read ? w.global : words_);
  im.read(read ? w.partial.get() : k_ == MemoryKernel::copy ? mb_.get() : ma_.get(), got.data(), got.size() * 4);
  if (read) {  // the words this width summed
    const std::vector<cl_uint> summed(a_.begin(), a_.begin() + static_cast<std::ptrdiff_t>(w.words));
    return check_result(k_, summed, b_, c_, got, 3, 0x5EEDu);
  }
  return check_result(k_, a_, b_, c_, got, 3, 0x5EEDu);
}

Timing measure_memory(Session& s, MemoryKernel k, int width, std::uint64_t bytes, int reps) {
  check_width(width);
  if (reps < 1) throw InputError("OpenCL memory: at least one repetition");
  PreparedMemory pm(s, k, bytes);
  Timing t;
  t.notes = pm.notes();
  t.global_size = pm.global_size(width);
  t.local_size = pm.local_size(width);
  t.build_seconds = pm.build_seconds;
  bool timed = true;
  t.warmup_seconds = pm.run(width, 1, timed);  // PoCL compiles per work-group size here
  t.device_timing = timed;
  for (int r = 0; r < reps; ++r) {
    t.seconds.push_back(pm.run(width, 1, timed));
    t.device_timing = t.device_timing && timed;
  }
  if (!t.device_timing) t.notes.push_back("the device gave no profiling times: kernels timed on the host clock");
  t.work_per_rep = pm.bytes_per_launch(width);
  t.bytes_per_buffer = pm.bytes_per_buffer();
  t.validation_error = pm.validate(width);
  t.validated = t.validation_error.empty();
  return t;
}

}  // namespace roofline::opencl
