// The OpenBLAS backend: CBLAS sgemm/dgemm on the shared layout (A row-major = A^T column-major, so
// C = A B is gemm(ColMajor, Trans, NoTrans)), and sgemv/dgemv at batch 1. OpenBLAS runs its own
// pthreads (Debian's libopenblas0-pthread), sized with openblas_set_num_threads in select_batch; they
// are not the pinned OpenMP team, so OpenBLAS places them itself. The kernel it runs is chosen by its own
// CPU detection or OPENBLAS_CORETYPE from the environment, which is reported and never overridden.
#include <cblas.h>

#include <cstdlib>
#include <limits>

#include "gemm_internal.hpp"

namespace roofline::gemm_detail {
namespace {

std::string corename() {
  const char* name = openblas_get_corename();
  return name ? name : "unknown";
}

class OpenblasProblem final : public GemmProblem {
 public:
  OpenblasProblem(const GemmRequest& request, std::shared_ptr<GemmOperandSet> operands)
      : buffers_(request, std::move(operands)) {}

  void select_batch(std::int64_t n) override {
    const GemmRequest& r = buffers_.request();
    if (n < 1 || n > r.max_n) throw std::out_of_range("GEMM batch outside 1..max_n");
    n_ = n;
    openblas_set_num_threads(r.threads);
  }

  void run() override {
    if (buffers_.request().precision == Precision::fp32) {
      multiply<float>(cblas_sgemv, cblas_sgemm);
    } else {
      multiply<double>(cblas_dgemv, cblas_dgemm);
    }
  }

  [[nodiscard]] GemmCheck validate() const override { return buffers_.check(n_); }
  [[nodiscard]] std::string implementation() const override {
    const bool fp32 = buffers_.request().precision == Precision::fp32;
    const char* routine = n_ == 1 ? (fp32 ? "sgemv" : "dgemv") : (fp32 ? "sgemm" : "dgemm");
    return std::string("openblas ") + routine + " " + corename() + ", " +
           std::to_string(buffers_.request().threads) + " OpenBLAS thread(s)";
  }
  [[nodiscard]] double pack_seconds() const override { return 0.0; }
  GemmOperands operands() override { return buffers_.operands(n_); }

 private:
  // C = A B in precision T with that precision's CBLAS gemv (batch 1) and gemm.
  template <typename T, typename Gemv, typename Gemm>
  void multiply(Gemv gemv, Gemm gemm) {
    const GemmRequest& r = buffers_.request();
    const auto m = static_cast<blasint>(r.m), k = static_cast<blasint>(r.k), n = static_cast<blasint>(n_);
    if (n == 1) {
      gemv(CblasRowMajor, CblasNoTrans, m, k, T{1}, buffers_.a<T>(), k, buffers_.b<T>(), 1, T{0}, buffers_.c<T>(), 1);
    } else {
      gemm(CblasColMajor, CblasTrans, CblasNoTrans, m, n, k, T{1}, buffers_.a<T>(), k, buffers_.b<T>(), k, T{0},
           buffers_.c<T>(), m);
    }
  }

  GemmBuffers buffers_;
  std::int64_t n_ = 1;
};

class OpenblasBackend final : public GemmBackend {
 public:
  [[nodiscard]] std::string_view name() const override { return "openblas"; }
  // fp32 only, and batch 64: on CPUs it does not know, OpenBLAS falls back to SSE3 kernels whose
  // batch-1024 call takes seconds.
  [[nodiscard]] GemmQuickPlan quick_plan() const override { return {{Precision::fp32}, false, 64, {}}; }
  [[nodiscard]] std::vector<std::string> notes(const IsaFeatures& features) const override {
    const std::string core = corename();
    const bool generic = core == "Prescott" || core == "Core2" || core == "Nehalem" || core == "Katmai" || core == "Atom";
    if (!features.supports(Isa::avx2) || !generic) return {};
    return {"gemm: OpenBLAS runs its '" + core +
            "' kernels here (its CPU detection does not know this CPU; OPENBLAS_CORETYPE chooses others, e.g. "
            "SkylakeX or Haswell). Reported as run, never overridden."};
  }
  [[nodiscard]] std::vector<Precision> precisions() const override { return {Precision::fp32, Precision::fp64}; }
  [[nodiscard]] std::unique_ptr<GemmProblem> prepare(const GemmRequest& request,
                                                     std::shared_ptr<GemmOperandSet> operands) const override {
    if (request.precision != Precision::fp32 && request.precision != Precision::fp64) {
      throw GemmUnsupported("openblas: precision " + std::string(to_string(request.precision)) +
                            " is not run (fp32, fp64 only)");
    }
    constexpr std::int64_t kMaxDim = std::numeric_limits<blasint>::max();  // 32-bit in Debian's OpenBLAS
    if (request.m > kMaxDim || request.k > kMaxDim || request.max_n > kMaxDim) {
      throw GemmUnsupported("openblas: a dimension exceeds its index range");
    }
    auto p = std::make_unique<OpenblasProblem>(request, std::move(operands));
    p->select_batch(1);
    return p;
  }
  [[nodiscard]] double footprint_bytes(const GemmRequest& request) const override {
    return gemm_operand_footprint(request);
  }
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> library_facts(const IsaFeatures&) const override {
    const char* config = openblas_get_config();
    const int parallel = openblas_get_parallel();
    return {{"corename", corename()},
            {"config", config ? config : ""},
            {"parallel", parallel == 0 ? "sequential" : parallel == 1 ? "pthreads" : "OpenMP"}};
  }
  [[nodiscard]] std::vector<std::string> environment() const override { return {"OPENBLAS_CORETYPE"}; }
};

}  // namespace

const GemmBackend& openblas_backend() {
  static const OpenblasBackend backend;
  return backend;
}

}  // namespace roofline::gemm_detail
