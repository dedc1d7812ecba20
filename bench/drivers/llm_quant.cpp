// The quantized weights of the llm chain as GemmProblems over the dequant-dot kernels: see llm_quant.hpp.
#include "roofline/drivers/llm_quant.hpp"

#include <algorithm>
#include <charconv>
#include <span>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline {

namespace {

// Matrices above this many weights are checked every kRowStride-th row (the whole check would outlast the run).
constexpr std::int64_t kCheckAllWeights = std::int64_t{1} << 20;
constexpr std::int64_t kRowStride = 61;

class QuantGemvProblem final : public GemmProblem {
 public:
  QuantGemvProblem(const QuantDotVariant& kernel, std::vector<QuantMatrix> copies, std::vector<QuantVector> x, int threads)
      : kernel_(kernel), copies_(std::move(copies)), x_(std::move(x)), threads_(threads) {
    y_.resize(static_cast<std::size_t>(copies_.front().rows) * x_.size());
  }

  void select_batch(std::int64_t n) override {
    if (n < 1 || n > static_cast<std::int64_t>(x_.size())) {
      throw std::logic_error(fmt::format("quantized GEMV: batch {} outside 1..{}", n, x_.size()));
    }
    n_ = static_cast<int>(n);
  }

  // The next copy of the weights each call: a chain iteration streams them from memory.
  void run() override {
    last_ = next_;
    next_ = (next_ + 1) % copies_.size();
    run_quant_gemv(kernel_, copies_[last_], x_.data(), n_, threads_, y_.data());
  }

  [[nodiscard]] GemmCheck validate() const override {
    const QuantMatrix& w = copies_[last_];
    const std::int64_t stride = w.rows * w.cols > kCheckAllWeights ? kRowStride : 1;
    if (auto err = validate_quant_gemv(w, x_.data(), n_, y_.data(), stride)) return {false, *err};
    return {};
  }

  [[nodiscard]] std::string implementation() const override {
    return fmt::format("{} ({}), rows split over {} OpenMP threads, {} cop{} of the weights", kernel_.name,
                       kernel_.instruction, threads_, copies_.size(), copies_.size() == 1 ? "y" : "ies");
  }

  [[nodiscard]] double pack_seconds() const override { return 0.0; }

  GemmOperands operands() override {
    const QuantMatrix& w = copies_[last_];
    return {Precision::int8, GemmShape{w.rows, n_, w.cols}, w.bytes.data(), x_.front().bytes.data(), y_.data()};
  }

 private:
  const QuantDotVariant& kernel_;
  std::vector<QuantMatrix> copies_;
  std::vector<QuantVector> x_;
  std::vector<float> y_;
  int threads_ = 1;
  int n_ = 1;
  std::size_t next_ = 0, last_ = 0;
};

}  // namespace

std::optional<QuantWeights> quant_weights_of(const std::string& format) {
  if (format.rfind("int4-g", 0) == 0) {
    int g = 0;
    const char* last = format.data() + format.size();
    const auto [end, ec] = std::from_chars(format.data() + 6, last, g);
    if (ec != std::errc() || end != last || g <= 0 || g % 32 != 0) return std::nullopt;
    return QuantWeights{QuantFormat::int4, g};
  }
  const std::optional<QuantFormat> f = parse_quant_format(format);
  if (!f || *f == QuantFormat::int4) return std::nullopt;  // "int4" alone is no storage format
  return QuantWeights{*f, kInt4Group};
}

const QuantDotVariant* best_quant_kernel(QuantFormat format, const IsaFeatures& features) {
  const QuantDotVariant* best = nullptr;
  for (const QuantDotVariant& v : quant_dot_variants()) {
    if (v.format == format && quant_dot_runnable(v, features)) best = &v;
  }
  return best;
}

void check_quant_measure(const std::string& format, const IsaFeatures& features) {
  const std::optional<QuantWeights> w = quant_weights_of(format);
  if (!w || best_quant_kernel(w->format, features) == nullptr) {
    throw InputError(fmt::format("--weights {}: --measure has no dequant-dot kernel for it on this CPU (it times bf16, "
                                 "fp32, int8, q8_0, q4_0, q4_k, q5_k, q6_k and int4-gG with G a multiple of 32)", format));
  }
}

double quant_problem_bytes(const QuantWeights& w, std::int64_t m, std::int64_t k, std::int64_t max_n, int copies) {
  return static_cast<double>(copies) * static_cast<double>(m * quant_row_bytes(w.format, k, w.group)) +
         static_cast<double>(max_n) * (static_cast<double>(quant_activation_bytes(w.format, k)) + 4.0 * static_cast<double>(m));
}

std::shared_ptr<GemmProblem> prepare_quant_problem(const QuantDotVariant& kernel, const QuantWeights& w, std::int64_t m,
                                                   std::int64_t k, std::int64_t max_n, int threads, int copies,
                                                   std::uint64_t seed) {
  std::vector<QuantMatrix> matrices;
  for (int c = 0; c < std::max(1, copies); ++c) matrices.push_back(make_quant_matrix(w.format, m, k, seed + 7919 * c, w.group));
  std::vector<QuantVector> x;
  for (std::int64_t c = 0; c < std::max<std::int64_t>(1, max_n); ++c) {
    x.push_back(make_quant_vector(w.format, k, seed + 104729 + static_cast<std::uint64_t>(c)));
  }
  return std::make_shared<QuantGemvProblem>(kernel, std::move(matrices), std::move(x), threads);
}

}  // namespace roofline
