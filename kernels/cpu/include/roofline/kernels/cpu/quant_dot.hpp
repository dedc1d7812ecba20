// Dequant-dot kernels (issue 38): the dot products quantized-model runtimes run on a CPU, the weights in
// their block formats times an activation vector quantized as those runtimes quantize it, one row of the
// weights after another (a GEMV; a batch is one GEMV per activation column, as ggml's vec_dot path runs it).
// The block layouts are llama.cpp's (ggml-common.h), multiplied as its CPU kernels do (unpack to int8,
// integer dot products, one float scale per block):
//   q8_0  34 B per 32 weights: fp16 d, 32 x int8                       x q8_0 activations (fp16 d, 32 x int8)
//   q4_0  18 B per 32: fp16 d, 16 bytes of nibbles (low: weight j, high: j + 16), weight = d (q - 8)
//                                                                       x q8_0 activations
//   q4_k  144 B per 256: fp16 d, dmin, 12 bytes of 6-bit scales and mins for 8 sub-blocks of 32, 128 bytes
//         of nibbles (chunk c of 64 weights: low nibbles of qs[32c..] then the high ones), weight = d sc q - dmin m
//                                                                       x q8_k activations (fp32 d, 256 x int8,
//                                                                         16 int16 sums of 16)
//   q5_k  176 B per 256: q4_k's scales, 32 bytes of fifth bits (bit 2c / 2c+1 of qh[l] for chunk c), nibbles
//                                                                       x q8_k
//   q6_k  210 B per 256: 128 bytes of low nibbles, 64 of 2-bit highs, 16 int8 scales of 16 weights, fp16 d;
//         weight = d sc (q - 32)                                        x q8_k
//   int4  (int4-gG, GPTQ/AWQ-style symmetric) 2 + G/2 B per G: fp16 d, G/2 bytes of nibbles (low: weight j,
//         high: j + G/2), weight = d (q - 8)                            x fp32 activations (unpacked to fp32, FMA)
// One kernel per format and ISA (scalar, AVX2, AVX-VNNI, AVX-512, AVX-512 VNNI on x86-64; scalar, NEON, NEON with
// SDOT on ARM64; int4 has no int8 product, so no VNNI or SDOT rows), each in the translation unit of its ISA, chosen
// at run time from cpuid (HWCAP on ARM64). Every result
// is validated against an independent double-precision reference (dequantize both operands, then dot).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roofline/common/huge_pages.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {

enum class QuantFormat { q8_0, q4_0, q4_k, q5_k, q6_k, int4 };

std::string_view to_string(QuantFormat f);  // "q8_0", "q4_0", "q4_k", "q5_k", "q6_k", "int4"
std::optional<QuantFormat> parse_quant_format(std::string_view name);
std::span<const QuantFormat> all_quant_formats();

// The int4 group size the measured rows use (GPTQ's and AWQ's default); the kernels take any multiple of 32.
inline constexpr int kInt4Group = 128;

// What the activation vector is: "q8_0" (fp16 d + 32 int8), "q8_k" (fp32 d + 256 int8 + 16 int16 sums) or "fp32".
std::string_view quant_activations(QuantFormat f);
// Weights per block (int4: the group size) and the bytes of one weight block.
int quant_block_weights(QuantFormat f, int group = kInt4Group);
int quant_block_bytes(QuantFormat f, int group = kInt4Group);
// Bytes of a row of `cols` weights (cols a multiple of the block), and of the activation vector of `cols`.
std::int64_t quant_row_bytes(QuantFormat f, std::int64_t cols, int group = kInt4Group);
std::int64_t quant_activation_bytes(QuantFormat f, std::int64_t cols);

// A weight matrix in its block format, row-major (each row its blocks), and activation vectors in the
// format's activation layout. Made once before timing (make_quant_*), never inside a kernel.
struct QuantMatrix {
  QuantFormat format = QuantFormat::q8_0;
  int group = kInt4Group;  // int4 only
  std::int64_t rows = 0;
  std::int64_t cols = 0;  // a multiple of the block (256 fits every format)
  std::vector<std::uint8_t, LargePageAllocator<std::uint8_t>> bytes;  // DRAM-sized: on huge pages, as the DRAM roof
  [[nodiscard]] std::int64_t row_bytes() const { return quant_row_bytes(format, cols, group); }
};
struct QuantVector {
  QuantFormat format = QuantFormat::q8_0;  // the weights' format it multiplies
  std::int64_t cols = 0;
  // At least 64-byte aligned (allocate_large): int4's fp32 activations are loaded a full vector at a time, and a
  // heap block's 16-byte alignment put every 512-bit load across two cache lines in some runs and not in others
  // (dequant int4 at 1 thread 16.2 or 19.9 Gweights/s by run on an Intel AMX guest: issue 59's undecided A/A).
  std::vector<std::uint8_t, LargePageAllocator<std::uint8_t>> bytes;
};

// Weights of every value the format can hold (random bytes from `seed`; the fp16 scales from a small set of
// exact values), and an activation vector of random values in [-1, 1) quantized as the runtime does it
// (q8_0 / q8_k: d = max |x| / 127, q = round(x / d); q8_k also keeps its sums of 16). Throws
// std::invalid_argument when cols is not a multiple of the block or group is not a positive multiple of 32.
QuantMatrix make_quant_matrix(QuantFormat f, std::int64_t rows, std::int64_t cols, std::uint64_t seed,
                              int group = kInt4Group);
QuantVector make_quant_vector(QuantFormat f, std::int64_t cols, std::uint64_t seed);
// make_quant_matrix into `m`, keeping its storage when it holds the new matrix (no new pages: the compute suite
// makes every format's DRAM-sized GEMV weights in one allocation).
void fill_quant_matrix(QuantMatrix& m, QuantFormat f, std::int64_t rows, std::int64_t cols, std::uint64_t seed,
                       int group = kInt4Group);

// One thread's kernel: y[r - begin] = row r of the weights . x, for r in [begin, end).
//   w: the matrix's bytes; row_bytes: its row stride; cols: weights per row; group: int4's group size;
//   x: the activation vector's bytes.
using QuantDotFn = void (*)(const std::uint8_t* w, std::int64_t row_bytes, std::int64_t cols, int group,
                            const std::uint8_t* x, std::int64_t begin, std::int64_t end, float* y);

// One kernel: a format at an ISA (its row in the results file).
struct QuantDotVariant {
  std::string_view name;         // "dequant_dot_q4_k_avx512_vnni"
  QuantFormat format;
  std::string_view isa_name;     // "scalar", "avx2", "avx_vnni", "avx512", "avx512_vnni"; "neon", "neon_dotprod"
  Isa isa;                       // the --max-isa level that allows it (avx512_vnni: avx512; neon_dotprod: neon)
  int vector_bits;
  std::uint32_t required;        // PeakFeature bits (peak.hpp)
  bool needs_f16c;               // the fp16 scales converted with vcvtph2ps
  std::string_view instruction;  // the hot integer (or fp32) product, for people
  QuantDotFn fn;
};

// Every variant, by format then ISA (scalar first).
std::span<const QuantDotVariant> quant_dot_variants();
bool quant_dot_runnable(const QuantDotVariant& v, const IsaFeatures& features);
// The scalar kernel of a format (runs on any x86-64).
const QuantDotVariant& quant_dot_scalar(QuantFormat f);

// The counting convention: a weight times its activation is one multiply-add, 2 FLOP, at every batch column.
inline constexpr double kQuantFlopPerWeight = 2.0;

// Runs `v` over every row of `w` for each of `batch` activation vectors on `threads` OpenMP threads (rows
// split evenly; the caller pins them), `repeats` times over in one parallel region (a call long enough to
// time when the weights sit in L1). y holds batch x w.rows floats, column-major: y[b * rows + r].
// `thread_seconds`, when given (`threads` elements), gets each thread's own time on its rows added (stream.hpp's
// run_stream_kernel says why); quant_gemv_rows says which rows each thread had.
void run_quant_gemv(const QuantDotVariant& v, const QuantMatrix& w, const QuantVector* x, int batch, int threads,
                    float* y, int repeats = 1, double* thread_seconds = nullptr);
// The rows thread t of `threads` computes in run_quant_gemv: [begin, end).
std::pair<std::int64_t, std::int64_t> quant_gemv_rows(std::int64_t rows, int threads, int t);

// The double-precision reference of row r . x: both operands dequantized by ggml's formulas, then summed.
// `magnitude` (when given) receives the sum of |weight x activation|, the scale of the rounding error.
double quant_dot_reference(const QuantMatrix& w, const QuantVector& x, std::int64_t row, double* magnitude = nullptr);

// Checks every output against the reference: |y - ref| <= 1e-4 x sum |w x| + 1e-6 (float accumulation in
// another order; a wrong layout or scale is off by the order of the sum itself). Returns a message naming
// the first mismatch, or nothing. `row_stride` > 1 checks every row_stride-th row only (rows 0, s, 2s, ...; the
// last row too), for GEMVs over DRAM-sized weights.
std::optional<std::string> validate_quant_gemv(const QuantMatrix& w, const QuantVector* x, int batch, const float* y,
                                               std::int64_t row_stride = 1);

}  // namespace roofline
