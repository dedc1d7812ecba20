// The compute-peak metadata table gathered from the ISA files, dispatch, the OpenMP wrapper and the
// closed-form validators. The kernels and their rows live in one translation unit per ISA (peak_*.cpp,
// see peak_isa.hpp); this file has baseline flags.
#include "roofline/kernels/cpu/peak.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <tuple>
#include <vector>

#include "arch.hpp"
#include "peak_isa.hpp"
#include "roofline/kernels/cpu/amx_tile.hpp"

namespace roofline {
namespace {
using namespace peak_isa;

// Every ISA's rows (peak_isa.hpp), in one table sorted by engine, precision, ISA, register width and then
// operation, so that the variants of one row (precision, ISA, width) are contiguous with the best first
// (an FMA before the mul/add pair that stands in for it). Tile variants keep their files' order.
const std::vector<PeakVariant>& table() {
  static const std::vector<PeakVariant> rows = [] {
    std::vector<PeakVariant> all;
    for (const PeakRows* part : arch::peak_row_tables()) {
      all.insert(all.end(), part->rows, part->rows + part->count);
    }
    // SVE's rows at the CPU's vector length, before the sort (it orders by width).
    const int scalable_bits = arch::scalable_vector_bits();
    for (PeakVariant& v : all) {
      if (!v.scalable || scalable_bits <= 0) continue;
      v.vector_bits = scalable_bits;
      v.ops_per_instruction = peak_lanes(v.op, v.precision, scalable_bits) * peak_ops_per_lane(v.op, v.precision);
    }
    const auto key = [](const PeakVariant& v) {
      return std::tuple(v.engine(), v.precision, v.isa, v.vector_bits, v.op);
    };
    std::stable_sort(all.begin(), all.end(), [&](const PeakVariant& a, const PeakVariant& b) { return key(a) < key(b); });
    return all;
  }();
  return rows;
}

// The operation a row measures: mul+add stands in for an FMA; a dot product and a matrix multiply (BFDOT, BFMMLA) are
// rows of their own.
PeakOp row_op(PeakOp op) { return op == PeakOp::muladd ? PeakOp::fma : op; }

bool same_row(const PeakVariant& a, const PeakVariant& b) {
  if (a.op == PeakOp::tile || b.op == PeakOp::tile) return a.name == b.name;  // TDPBSSD and TDPBUSD both run
  return a.precision == b.precision && a.isa == b.isa && a.vector_bits == b.vector_bits && row_op(a.op) == row_op(b.op);
}
}  // namespace

std::string_view to_string(PeakOp op) {
  switch (op) {
    case PeakOp::fma: return "fma";
    case PeakOp::muladd: return "muladd";
    case PeakOp::dot: return "dot";
    case PeakOp::tile: return "tile";
    case PeakOp::mmla: return "mmla";
  }
  return "unknown";
}

std::string_view PeakVariant::unit() const { return is_integer(precision) ? "OP/s" : "FLOP/s"; }

std::span<const PeakVariant> peak_variants() { return table(); }

bool peak_runnable(const PeakVariant& v, const IsaFeatures& f) {
  if (v.fn == nullptr) return false;
  if (!f.supports(v.isa)) return false;
  if ((v.required & kNeedsFma) && !(f.fma && f.avx)) return false;
  if ((v.required & kNeedsAvx2) && !(f.avx2 && f.supports(Isa::avx2))) return false;
  if ((v.required & kNeedsAvx512) && !f.supports(Isa::avx512)) return false;
  if ((v.required & kNeedsAvx512Bf16) && !f.avx512_bf16) return false;
  if ((v.required & kNeedsAvx512Fp16) && !f.avx512_fp16) return false;
  if ((v.required & kNeedsAvx512Vnni) && !f.avx512_vnni) return false;
  if ((v.required & kNeedsAvxVnni) && !f.supports(Isa::avx_vnni)) return false;
  if ((v.required & kNeedsAmxTile) && !f.supports(Isa::amx)) return false;
  if ((v.required & kNeedsAmxBf16) && !f.amx_bf16) return false;
  if ((v.required & kNeedsAmxInt8) && !f.amx_int8) return false;
  if ((v.required & kNeedsAmxFp16) && !f.amx_fp16) return false;
  if ((v.required & kNeedsNeonDotprod) && !f.neon_dotprod) return false;
  if ((v.required & kNeedsNeonFp16) && !f.neon_fp16) return false;
  if ((v.required & kNeedsNeonI8mm) && !f.neon_i8mm) return false;
  if ((v.required & kNeedsNeonBf16) && !f.neon_bf16) return false;
  return true;
}

std::optional<std::string> peak_build_gap(const PeakVariant& v) {
  if (v.fn != nullptr) return std::nullopt;
  if (v.required & kNeedsAmxFp16) return "toolchain lacks AMX-FP16 (needs -mamx-fp16: GCC 13 or later)";
  return "this build lacks the kernel";
}

PeakSelection select_peak_variants(const IsaFeatures& features) {
  const std::vector<PeakVariant>& variants = table();
  PeakSelection s;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const PeakVariant& v = variants[i];
    if (i > 0 && same_row(v, variants[i - 1])) continue;  // rows are contiguous; handle each once
    const PeakVariant* chosen = nullptr;
    for (std::size_t j = i; j < variants.size() && same_row(variants[j], v); ++j) {
      if (peak_runnable(variants[j], features)) {
        chosen = &variants[j];
        break;
      }
    }
    if (chosen != nullptr) {
      s.runnable.push_back(chosen);
    } else {
      s.not_supported.push_back(&v);
    }
  }
  return s;
}

PeakInputs default_peak_inputs(const PeakVariant& v) {
  // Powers of two and small integers: exact in every precision used, far from denormals and overflow.
  if (v.op == PeakOp::tile) {
    // fp32 accumulators: bf16 x + N * 32 * 2^-20 stays below 16 (spacing 2^-20) for N <= 2^16; fp16 uses
    // 2^-14, its smallest normal (TDPFP16PS may flush denormal inputs), and stays below 256 (spacing 2^-15).
    if (v.precision == Precision::fp16) return {1.0, std::ldexp(1.0, -14), 1.0, std::ldexp(1.0, -8)};
    if (!is_integer(v.precision)) return {1.0, std::ldexp(1.0, -20), 1.0, std::ldexp(1.0, -8)};
    return {2.0, 3.0, 0.0, 1000.0};  // x + 192 N
  }
  switch (v.precision) {
    case Precision::fp64:
    case Precision::fp32: return {1.0, std::ldexp(1.0, -20), 1.0, std::ldexp(1.0, -8)};  // x + N * 2^-20
    case Precision::bf16: return {1.0, std::ldexp(1.0, -20), 1.0, std::ldexp(1.0, -8)};  // x + N * 2^-19
    case Precision::fp16: return {-1.0, 3.0, 1.0, std::ldexp(1.0, -5)};  // x, 3 - x, x, ... (period 2)
    case Precision::int8: return {2.0, 3.0, 0.0, 1000.0};               // x + 12 N
    case Precision::tf32:
    case Precision::fp8:
    case Precision::int32: break;  // no CPU peak kernel runs these (device precisions)
  }
  return {};
}

std::int64_t max_peak_iterations(const PeakVariant& v) {
  // Tiles: 2^16 trips of 4 instructions at 16 cycles keep a call near 4M cycles (a few ms, like the vector
  // kernels' calls), and the accumulators exact (fp32 below 16, int32 below 2^24).
  if (v.op == PeakOp::tile) return std::int64_t{1} << 16;
  switch (v.precision) {
    case Precision::fp64:
    case Precision::fp32: return std::int64_t{1} << 23;  // acc stays below 16: fp32 spacing there is 2^-20
    // acc stays below 16 (two 2^-20 adds per trip; BFMMLA's four: below 32, where fp32's spacing is 2^-19)
    case Precision::bf16: return std::int64_t{1} << 22;
    case Precision::fp16: return std::numeric_limits<std::int64_t>::max();  // bounded by construction
    // 12 * 2^27 + 19000 fits int32 (SMMLA's 24 per trip: 2^26)
    case Precision::int8: return v.op == PeakOp::mmla ? std::int64_t{1} << 26 : std::int64_t{1} << 27;
    case Precision::tf32:
    case Precision::fp8:
    case Precision::int32: break;  // no CPU peak kernel runs these
  }
  return 0;
}

void run_peak(const PeakVariant& v, int threads, std::int64_t iterations, const PeakInputs& in, double* out) {
  const int per_thread = v.accumulators();
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    v.fn(iterations, in, out + static_cast<std::ptrdiff_t>(t) * per_thread);
  }
}

double peak_expected(const PeakVariant& v, std::int64_t iterations, const PeakInputs& in, int chain) {
  const double x0 = in.start + chain * in.chain_step;
  const auto n = static_cast<double>(iterations);
  if (v.op == PeakOp::dot) return x0 + n * 2.0 * in.multiplier * in.addend;
  if (v.op == PeakOp::mmla) return x0 + n * 4.0 * in.multiplier * in.addend;
  if (v.op == PeakOp::tile) return x0 + n * 2.0 * kTileGroups * in.multiplier * in.addend;  // 32 m a per trip
  // x_N = m^N x0 + a (1 + m + ... + m^(N-1))
  const double m = in.multiplier;
  if (m == 1.0) return x0 + n * in.addend;
  if (m == -1.0) return iterations % 2 == 0 ? x0 : in.addend - x0;
  const double mn = std::pow(m, n);
  return mn * x0 + in.addend * (1.0 - mn) / (1.0 - m);
}

std::optional<std::string> validate_peak(const PeakVariant& v, std::int64_t iterations, const PeakInputs& in,
                                         int threads, const double* out) {
  const int lanes = v.lanes();
  for (int t = 0; t < threads; ++t) {
    for (int c = 0; c < v.chains; ++c) {
      const double expected = peak_expected(v, iterations, in, c);
      for (int l = 0; l < lanes; ++l) {
        const double got = out[(static_cast<std::ptrdiff_t>(t) * v.chains + c) * lanes + l];
        if (got != expected) {  // exact: every value on the way is representable (default_peak_inputs)
          std::ostringstream msg;
          msg.precision(17);
          msg << v.name << ": thread " << t << " chain " << c << " lane " << l << " holds " << got
              << ", expected " << expected << " after " << iterations << " iterations";
          return msg.str();
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace roofline
