// The llm chain with quantized weights (issue 48): each weight GEMM of the layer (and lm_head) as our
// dequant-dot GEMV (roofline/kernels/cpu/quant_dot.hpp: llama.cpp's block formats times activations quantized as llama.cpp
// quantizes them, one column after another over each chunk of rows, ggml's vec_dot path), behind the
// GemmProblem seam the chain times, so that a quantized step runs through the same spec, timing and
// validation as a bf16 one. The weights rotate over `copies` instances made before timing, so that a chain
// iteration never finds them in a cache (4x the last level or more); every output is checked after timing
// against the double-precision dequantized reference (every row of a small matrix, every 61st row of a large).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "roofline/common/vocabulary.hpp"
#include "roofline/kernels/cpu/gemm.hpp"
#include "roofline/kernels/cpu/quant_dot.hpp"

namespace roofline {

// Decode batches the quantized chain runs: the kernels are GEMVs (one activation column at a time), as
// llama.cpp's CPU path runs a small batch; above it that runtime switches to tiled GEMMs, which are not ours.
inline constexpr std::int64_t kQuantChainMaxBatch = 8;
// The one iteration's weights times their copies is at least this many times the last level cache.
inline constexpr double kQuantChainCacheFactor = 4.0;
// The chain's weights "backend" (labels.backend, context.suites.llm.backends.weights): our kernels.
inline constexpr const char* kQuantChainBackend = "dequant_dot";

// A storage format (llm::WeightFormat::name: "q8_0", "int4-g128") as a kernel format and int4 group; nothing
// for formats no dequant-dot kernel multiplies (fp8, int4-gG with G not a multiple of 32, native precisions).
struct QuantWeights {
  QuantFormat format = QuantFormat::q8_0;
  int group = kInt4Group;
};
std::optional<QuantWeights> quant_weights_of(const std::string& format);

// The best kernel of `format` this CPU runs (the table lists a format's ISAs best last), or nullptr.
const QuantDotVariant* best_quant_kernel(QuantFormat format, const IsaFeatures& features);

// Checks that `--measure` can time `format` here: throws InputError naming --weights and the formats that can.
void check_quant_measure(const std::string& format, const IsaFeatures& features);

// Bytes a prepared problem holds: the weights of every copy, the activations and the outputs.
double quant_problem_bytes(const QuantWeights& w, std::int64_t m, std::int64_t k, std::int64_t max_n, int copies);

// Prepares C(m x n) = W(m x k) X(k x n) with W in `w`'s format (copies instances, filled from `seed`), n <= max_n
// activation columns, on `threads` OpenMP threads (the caller pins them) with `kernel`.
std::shared_ptr<GemmProblem> prepare_quant_problem(const QuantDotVariant& kernel, const QuantWeights& w, std::int64_t m,
                                                   std::int64_t k, std::int64_t max_n, int threads, int copies,
                                                   std::uint64_t seed);

}  // namespace roofline
