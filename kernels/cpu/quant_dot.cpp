// The dequant-dot metadata table gathered from the ISA files (quant_blocks.hpp), dispatch, the data the
// kernels run on (weights and quantized activations, made before timing) and the OpenMP GEMV wrapper.
// Baseline flags: nothing here runs ISA-specific code.
#include "roofline/kernels/cpu/quant_dot.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "arch.hpp"
#include "quant_blocks.hpp"
#include "roofline/kernels/cpu/peak.hpp"

namespace roofline {
namespace {
using namespace quant;

constexpr std::array<QuantFormat, 6> kFormats{QuantFormat::q8_0, QuantFormat::q4_0, QuantFormat::q4_k,
                                              QuantFormat::q5_k, QuantFormat::q6_k, QuantFormat::int4};

constexpr std::int64_t kRowChunk = 4;

const std::vector<QuantDotVariant>& table() {
  static const std::vector<QuantDotVariant> rows = [] {
    const std::span<const QuantIsaRow> isas = arch::quant_isa_rows();
    static std::vector<std::string> names;  // the variants' names live as long as the table
    names.reserve(kFormats.size() * isas.size());
    std::vector<QuantDotVariant> all;
    for (const QuantFormat f : kFormats) {
      for (const QuantIsaRow& i : isas) {
        const QuantDotFn fn = i.kernels->fn[static_cast<int>(f)];
        if (fn == nullptr) continue;  // int4 has no integer-product (VNNI) kernel
        names.push_back(fmt::format("dequant_dot_{}_{}", to_string(f), i.name));
        const std::string_view instruction = f == QuantFormat::int4 ? i.int4_instruction : i.int8_instruction;
        all.push_back({names.back(), f, i.name, i.isa, i.bits, i.required, i.f16c, instruction, fn});
      }
    }
    return all;
  }();
  return rows;
}

std::uint16_t float_to_half_exact(float v) {
  // Only the scales below are converted: powers of two times small odd integers, exact in fp16.
  std::uint32_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  const int exp = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  const std::uint32_t mant = (bits >> 13) & 0x3ffu;
  if (exp <= 0 || exp >= 31) throw std::logic_error("quant_dot: a scale outside the normal fp16 range");
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exp) << 10) | mant);
}

void check_shape(QuantFormat f, std::int64_t rows, std::int64_t cols, int group) {
  if (f == QuantFormat::int4 && (group <= 0 || group % 32 != 0)) {
    throw std::invalid_argument(fmt::format("quant_dot: int4 group {} is not a positive multiple of 32", group));
  }
  const int block = quant_block_weights(f, group);
  if (rows < 0 || cols <= 0 || cols % block != 0) {
    throw std::invalid_argument(fmt::format("quant_dot: {} rows of {} weights: not a multiple of the {} block of {}",
                                            rows, cols, to_string(f), block));
  }
  if (quant_activations(f) == "q8_k" && cols % kQkK != 0) throw std::invalid_argument("quant_dot: q8_k needs 256 | cols");
}

}  // namespace

std::string_view to_string(QuantFormat f) {
  switch (f) {
    case QuantFormat::q8_0: return "q8_0";
    case QuantFormat::q4_0: return "q4_0";
    case QuantFormat::q4_k: return "q4_k";
    case QuantFormat::q5_k: return "q5_k";
    case QuantFormat::q6_k: return "q6_k";
    case QuantFormat::int4: return "int4";
  }
  return "unknown";
}

std::optional<QuantFormat> parse_quant_format(std::string_view name) {
  for (const QuantFormat f : kFormats) {
    if (to_string(f) == name) return f;
  }
  return std::nullopt;
}

std::span<const QuantFormat> all_quant_formats() { return kFormats; }

std::string_view quant_activations(QuantFormat f) {
  switch (f) {
    case QuantFormat::q8_0:
    case QuantFormat::q4_0: return "q8_0";
    case QuantFormat::int4: return "fp32";
    default: return "q8_k";
  }
}

int quant_block_weights(QuantFormat f, int group) {
  switch (f) {
    case QuantFormat::q8_0:
    case QuantFormat::q4_0: return kQk0;
    case QuantFormat::int4: return group;
    default: return kQkK;
  }
}

int quant_block_bytes(QuantFormat f, int group) {
  switch (f) {
    case QuantFormat::q8_0: return sizeof(BlockQ8_0);
    case QuantFormat::q4_0: return sizeof(BlockQ4_0);
    case QuantFormat::q4_k: return sizeof(BlockQ4K);
    case QuantFormat::q5_k: return sizeof(BlockQ5K);
    case QuantFormat::q6_k: return sizeof(BlockQ6K);
    case QuantFormat::int4: return 2 + group / 2;
  }
  return 0;
}

std::int64_t quant_row_bytes(QuantFormat f, std::int64_t cols, int group) {
  return cols / quant_block_weights(f, group) * quant_block_bytes(f, group);
}

std::int64_t quant_activation_bytes(QuantFormat f, std::int64_t cols) {
  const std::string_view a = quant_activations(f);
  if (a == "fp32") return cols * 4;
  if (a == "q8_0") return cols / kQk0 * static_cast<std::int64_t>(sizeof(BlockQ8_0));
  return cols / kQkK * static_cast<std::int64_t>(sizeof(BlockQ8K));
}

QuantMatrix make_quant_matrix(QuantFormat f, std::int64_t rows, std::int64_t cols, std::uint64_t seed, int group) {
  QuantMatrix m;
  fill_quant_matrix(m, f, rows, cols, seed, group);
  return m;
}

void fill_quant_matrix(QuantMatrix& m, QuantFormat f, std::int64_t rows, std::int64_t cols, std::uint64_t seed, int group) {
  check_shape(f, rows, cols, group);
  m.format = f;
  m.group = group;
  m.rows = rows;
  m.cols = cols;
  // The storage kept when it is large enough: a DRAM-sized matrix is paged in once for every format made in it.
  const auto size = static_cast<std::size_t>(rows * m.row_bytes());
  if (m.bytes.capacity() < size) m.bytes = decltype(m.bytes)();
  m.bytes.resize(size);
  // 8 random bytes per step of splitmix64 (a few times faster than mt19937_64: DRAM-sized matrices in tens of ms).
  // Step s's state is seed + (s + 1) * the increment, so the steps are independent and the team fills them: the same
  // bytes as one thread's sequence, in a fraction of the time (issue 60: the quick profile fills six 256 MiB
  // matrices). The pages were first touched by the resize above, so where they live does not change.
  const std::size_t size_bytes = m.bytes.size();
  const auto steps = static_cast<std::int64_t>((size_bytes + 7) / 8);
  std::uint8_t* out = m.bytes.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < steps; ++s) {
    std::uint64_t z = seed + static_cast<std::uint64_t>(s + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const auto at = static_cast<std::size_t>(s) * 8;
    std::memcpy(out + at, &z, std::min<std::size_t>(8, size_bytes - at));
  }
  std::mt19937_64 rng(seed);
  // The fp16 scales (d, and the K formats' dmin) from exact values of magnitude 2^-8 .. 2^-3 (an odd integer 1..15
  // times a power of two, negative one time in four), so that every value the quants can take multiplies into a
  // finite, moderate weight; 7 bits of one draw each (a table of the 128 values: millions of blocks per matrix).
  static const std::array<std::uint16_t, 128> kScales = [] {
    std::array<std::uint16_t, 128> t{};
    for (std::size_t i = 0; i < t.size(); ++i) {
      const float odd = static_cast<float>(1 + 2 * (i % 8));
      t[i] = float_to_half_exact(odd * std::ldexp(1.0f, -8 - static_cast<int>(i / 8 % 4)) * (i / 32 == 0 ? -1.0f : 1.0f));
    }
    return t;
  }();
  const std::int64_t block_bytes = quant_block_bytes(f, group);
  const std::int64_t blocks = rows * cols / quant_block_weights(f, group);
  for (std::int64_t b = 0; b < blocks; ++b) {
    std::uint8_t* p = m.bytes.data() + b * block_bytes;
    const std::uint64_t r = rng();
    const std::uint16_t d = kScales[r & 127], dmin = kScales[(r >> 7) & 127];
    if (f == QuantFormat::q6_k) {
      std::memcpy(p + offsetof(BlockQ6K, d), &d, 2);
    } else {
      std::memcpy(p, &d, 2);
      if (f == QuantFormat::q4_k || f == QuantFormat::q5_k) std::memcpy(p + 2, &dmin, 2);
    }
  }
}

QuantVector make_quant_vector(QuantFormat f, std::int64_t cols, std::uint64_t seed) {
  check_shape(f, 0, cols, f == QuantFormat::int4 ? kInt4Group : 32);
  QuantVector v{f, cols, {}};
  v.bytes.resize(static_cast<std::size_t>(quant_activation_bytes(f, cols)));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(static_cast<std::size_t>(cols));
  for (float& e : x) e = dist(rng);
  const std::string_view kind = quant_activations(f);
  if (kind == "fp32") {
    std::memcpy(v.bytes.data(), x.data(), x.size() * sizeof(float));
    return v;
  }
  // quantize_row_q8_0 / q8_K: d = max |x| / 127 per block, q = round(x / d).
  const int block = kind == "q8_0" ? kQk0 : kQkK;
  for (std::int64_t b = 0; b < cols / block; ++b) {
    const float* xb = x.data() + b * block;
    float amax = 0.0f;
    for (int j = 0; j < block; ++j) amax = std::max(amax, std::abs(xb[j]));
    const float d = amax / 127.0f;
    const float id = d > 0.0f ? 1.0f / d : 0.0f;
    std::int8_t q[kQkK];
    for (int j = 0; j < block; ++j) q[j] = static_cast<std::int8_t>(std::clamp(std::lround(xb[j] * id), -127L, 127L));
    if (kind == "q8_0") {
      auto& out = reinterpret_cast<BlockQ8_0*>(v.bytes.data())[b];
      // The scale as fp16 (what ggml stores), rounded to the nearest representable value above 2^-14.
      const int e = static_cast<int>(std::floor(std::log2(std::max(d, 1e-4f))));
      const float step = std::ldexp(1.0f, e - 10);
      out.d = float_to_half_exact(std::round(std::max(d, 1e-4f) / step) * step);
      std::memcpy(out.qs, q, kQk0);
    } else {
      auto& out = reinterpret_cast<BlockQ8K*>(v.bytes.data())[b];
      out.d = d;
      std::memcpy(out.qs, q, kQkK);
      for (int g = 0; g < kQkK / 16; ++g) {
        int s = 0;
        for (int j = 0; j < 16; ++j) s += q[16 * g + j];
        out.bsums[g] = static_cast<std::int16_t>(s);
      }
    }
  }
  return v;
}

std::span<const QuantDotVariant> quant_dot_variants() { return table(); }

bool quant_dot_runnable(const QuantDotVariant& v, const IsaFeatures& f) {
  if (v.fn == nullptr || !f.supports(v.isa)) return false;
  if ((v.required & kNeedsFma) && !(f.fma && f.avx)) return false;
  if ((v.required & kNeedsAvx2) && !(f.avx2 && f.supports(Isa::avx2))) return false;
  if ((v.required & kNeedsAvx512) && !f.supports(Isa::avx512)) return false;
  if ((v.required & kNeedsAvx512Vnni) && !f.avx512_vnni) return false;
  if ((v.required & kNeedsAvxVnni) && !f.supports(Isa::avx_vnni)) return false;
  if ((v.required & kNeedsNeonDotprod) && !f.neon_dotprod) return false;
  return !v.needs_f16c || f.f16c;
}

const QuantDotVariant& quant_dot_scalar(QuantFormat f) {
  for (const QuantDotVariant& v : table()) {
    if (v.format == f && v.isa == Isa::scalar) return v;
  }
  throw std::logic_error("quant_dot: a format without its scalar kernel");
}

std::pair<std::int64_t, std::int64_t> quant_gemv_rows(std::int64_t rows, int threads, int t) {
  return {rows * t / threads, rows * (t + 1) / threads};
}

void run_quant_gemv(const QuantDotVariant& v, const QuantMatrix& w, const QuantVector* x, int batch, int threads,
                    float* y, int repeats, double* thread_seconds) {
  if (v.format != w.format) throw std::logic_error("run_quant_gemv: the kernel's format is not the matrix's");
  const std::int64_t rows = w.rows;
  const std::int64_t row_bytes = w.row_bytes();
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const auto [begin, end] = quant_gemv_rows(rows, omp_get_num_threads(), t);
    const auto start = std::chrono::steady_clock::now();
    // Rows in chunks of kRowChunk, every column over a chunk before the next: the weights come from memory once
    // and from L1 for the other columns (ggml's vec_dot GEMV blocks its rows the same way).
    for (int i = 0; i < repeats; ++i) {
      for (std::int64_t r = begin; r < end; r += kRowChunk) {
        const std::int64_t stop = std::min(end, r + kRowChunk);
        for (int c = 0; c < batch; ++c) {
          v.fn(w.bytes.data(), row_bytes, w.cols, w.group, x[c].bytes.data(), r, stop, y + c * rows + r);
        }
      }
    }
    if (thread_seconds != nullptr) {
      thread_seconds[t] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  }
}

}  // namespace roofline
