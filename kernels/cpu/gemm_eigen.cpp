// The Eigen backend: fp32 and fp64 GEMV/GEMM through Eigen 3's products on the shared layout (A
// row-major, B and C column-major). The SIMD level is chosen at run time among the copies compiled per
// ISA (gemm_eigen_variant.hpp). Threads: batch 1 (GEMV) and batches too narrow for Eigen's own GEMM
// threading (fewer than nr columns per thread) split the rows of A over the pinned OpenMP team, each
// thread calling Eigen on its block; wider batches use Eigen's own OpenMP parallel GEMM on T threads.
// Eigen allocates its packing buffers inside each product call: that is part of the library call timed.
#include <Eigen/Core>

#include "arch.hpp"
#include "gemm_eigen_variant.hpp"
#include "gemm_internal.hpp"

namespace roofline::gemm_detail {
namespace {

EigenVariant choose_variant(const IsaFeatures& features) { return arch::eigen_variant(features); }

std::string eigen_version() {
  return std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
         std::to_string(EIGEN_MINOR_VERSION);
}

class EigenProblem final : public GemmProblem {
 public:
  EigenProblem(const GemmRequest& request, std::shared_ptr<GemmOperandSet> operands)
      : buffers_(request, std::move(operands)), variant_(choose_variant(request.features)) {}

  void select_batch(std::int64_t n) override {
    if (n < 1 || n > buffers_.request().max_n) throw std::out_of_range("GEMM batch outside 1..max_n");
    n_ = n;
    const int threads = buffers_.request().threads;
    row_split_ = threads > 1 && n < static_cast<std::int64_t>(threads) * variant_.nr;
  }

  void run() override {
    const GemmRequest& r = buffers_.request();
    if (r.precision == Precision::fp32) {
      variant_.gemm_f32(buffers_.a<float>(), buffers_.b<float>(), buffers_.c<float>(), r.m, n_, r.k, r.threads,
                        row_split_);
    } else {
      variant_.gemm_f64(buffers_.a<double>(), buffers_.b<double>(), buffers_.c<double>(), r.m, n_, r.k,
                        r.threads, row_split_);
    }
  }

  [[nodiscard]] GemmCheck validate() const override { return buffers_.check(n_); }

  [[nodiscard]] std::string implementation() const override {
    const int threads = buffers_.request().threads;
    std::string s = "eigen " + eigen_version() + " " + variant_.isa + " (" + variant_.simd + ") " +
                    (n_ == 1 ? "gemv" : "gemm");
    if (threads == 1) return s + ", 1 thread";
    if (row_split_) return s + ", rows of A split over " + std::to_string(threads) + " OpenMP threads";
    return s + ", Eigen's OpenMP parallel product on " + std::to_string(threads) + " threads";
  }

  [[nodiscard]] double pack_seconds() const override { return 0.0; }
  GemmOperands operands() override { return buffers_.operands(n_); }

 private:
  GemmBuffers buffers_;
  EigenVariant variant_;
  std::int64_t n_ = 1;
  bool row_split_ = false;
};

class EigenBackend final : public GemmBackend {
 public:
  [[nodiscard]] std::string_view name() const override { return "eigen"; }
  [[nodiscard]] GemmQuickPlan quick_plan() const override { return {{}, true, 64, {}}; }
  [[nodiscard]] std::vector<Precision> precisions() const override { return {Precision::fp32, Precision::fp64}; }
  [[nodiscard]] std::unique_ptr<GemmProblem> prepare(const GemmRequest& request,
                                                     std::shared_ptr<GemmOperandSet> operands) const override {
    if (request.precision != Precision::fp32 && request.precision != Precision::fp64) {
      throw GemmUnsupported("eigen: precision " + std::string(to_string(request.precision)) +
                            " is not run (fp32, fp64 only)");
    }
    auto p = std::make_unique<EigenProblem>(request, std::move(operands));
    p->select_batch(1);
    return p;
  }
  [[nodiscard]] double footprint_bytes(const GemmRequest& request) const override {
    return gemm_operand_footprint(request);
  }
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> library_facts(
      const IsaFeatures& features) const override {
    const EigenVariant v = choose_variant(features);
    return {{"version", eigen_version()},
            {"variant", v.isa},
            {"simd", v.simd},
            {"threading", "OpenMP (Eigen's parallel GEMM; rows of A split over the team for GEMV)"}};
  }
};

}  // namespace

const GemmBackend& eigen_backend() {
  static const EigenBackend backend;
  return backend;
}

}  // namespace roofline::gemm_detail
