// GEMV/GEMM through cuBLASLt: see gemm_cublaslt.hpp. Host C++: the descriptors, the heuristic's choice and the
// matmul calls; the operands' device kernels are in gemm_operands.cu.
#include "roofline/kernels/cuda/gemm_cublaslt.hpp"

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <cstdio>

#include "roofline/kernels/cuda/check.hpp"
#include "roofline/kernels/cuda/gemm_operands.hpp"

namespace roofline::cuda {
namespace {

// 32 MiB of workspace: what cuBLAS itself reserves on Hopper (CUBLAS_WORKSPACE_CONFIG's default there), so the
// heuristic may pick split-K and stream-K kernels.
constexpr std::size_t kWorkspaceBytes = 32U << 20U;

struct TypeInfo {
  cudaDataType_t input;
  cudaDataType_t output;
  cublasComputeType_t compute;
  cudaDataType_t scale;
};

TypeInfo type_info(GemmType t) {
  switch (t) {
    case GemmType::bf16: return {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F};
    case GemmType::fp16: return {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F};
    case GemmType::tf32: return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F};
    case GemmType::fp8_e4m3: return {CUDA_R_8F_E4M3, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F};
    case GemmType::int8: return {CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, CUDA_R_32I};
    case GemmType::fp32: return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F};
  }
  return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F};
}

void* device_alloc(std::size_t bytes, const char* what) {
  void* p = nullptr;
  check_cuda(cudaMalloc(&p, bytes), what);
  return p;
}

}  // namespace

const GemmTypeRow& gemm_type_row(GemmType t) {
  static constexpr std::array<GemmTypeRow, 6> rows{{
      {GemmType::bf16, "bf16", 2, 2, false, 0, true},
      {GemmType::fp16, "fp16", 2, 2, false, 0, true},
      {GemmType::tf32, "tf32", 4, 4, false, 0, false},
      {GemmType::fp8_e4m3, "fp8", 1, 4, false, 89, false},
      {GemmType::int8, "int8", 1, 4, true, 0, false},
      {GemmType::fp32, "fp32", 4, 4, false, 0, false},
  }};
  return rows.at(static_cast<std::size_t>(t));
}

// Each Impl frees what it holds in its own destructor, so a constructor that throws half-way (an allocation, a
// heuristic) leaks nothing: the unique_ptr destroys the part-built Impl.
struct LtContext::Impl {
  cublasLtHandle_t handle = nullptr;
  void* workspace = nullptr;
  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    if (workspace != nullptr) cudaFree(workspace);
    if (handle != nullptr) cublasLtDestroy(handle);
  }
};

LtContext::LtContext() : impl_(std::make_unique<Impl>()) {
  check_cublas(cublasLtCreate(&impl_->handle), "cublasLtCreate");
  impl_->workspace = device_alloc(kWorkspaceBytes, "cudaMalloc cuBLASLt workspace");
}

LtContext::~LtContext() = default;

struct LtGemm::Impl {
  LtContext::Impl* context = nullptr;
  GemmType type = GemmType::bf16;
  std::int64_t m = 0, n = 0, k = 0;
  void* a = nullptr;
  void* b = nullptr;
  void* d = nullptr;
  unsigned long long* scratch = nullptr;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr, d_layout = nullptr;
  cublasLtMatmulAlgo_t algo{};
  std::uint64_t flags = 0;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    if (a != nullptr) cudaFree(a);
    if (b != nullptr) cudaFree(b);
    if (d != nullptr) cudaFree(d);
    if (scratch != nullptr) cudaFree(scratch);
    if (a_layout != nullptr) cublasLtMatrixLayoutDestroy(a_layout);
    if (b_layout != nullptr) cublasLtMatrixLayoutDestroy(b_layout);
    if (d_layout != nullptr) cublasLtMatrixLayoutDestroy(d_layout);
    if (op != nullptr) cublasLtMatmulDescDestroy(op);
  }

  void describe() {
    const TypeInfo info = type_info(type);
    check_cublas(cublasLtMatmulDescCreate(&op, info.compute, info.scale), "cublasLtMatmulDescCreate");
    const cublasOperation_t transpose = CUBLAS_OP_T;
    const cublasOperation_t plain = CUBLAS_OP_N;
    check_cublas(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof transpose),
                 "cublasLtMatmulDescSetAttribute TRANSA");
    check_cublas(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &plain, sizeof plain),
                 "cublasLtMatmulDescSetAttribute TRANSB");
    if (type == GemmType::fp8_e4m3) {
      // As PyTorch's fp8 matmul with use_fast_accum: Hopper's fp8 kernels then skip the periodic promotion of the
      // partial sums to full fp32 (exact for our small integers either way).
      const std::int8_t fast_accum = 1;
      check_cublas(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast_accum, sizeof fast_accum),
                   "cublasLtMatmulDescSetAttribute FAST_ACCUM");
    }
    check_cublas(cublasLtMatrixLayoutCreate(&a_layout, info.input, k, m, k), "cublasLtMatrixLayoutCreate A");
    check_cublas(cublasLtMatrixLayoutCreate(&b_layout, info.input, k, n, k), "cublasLtMatrixLayoutCreate B");
    check_cublas(cublasLtMatrixLayoutCreate(&d_layout, info.output, m, n, m), "cublasLtMatrixLayoutCreate D");
  }

  void choose() {
    cublasLtMatmulPreference_t pref = nullptr;
    check_cublas(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
    const std::size_t workspace = kWorkspaceBytes;
    check_cublas(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                                      sizeof workspace), "cublasLtMatmulPreferenceSetAttribute");
    cublasLtMatmulHeuristicResult_t result{};
    int found = 0;
    const int status = cublasLtMatmulAlgoGetHeuristic(context->handle, op, a_layout, b_layout, d_layout, d_layout,
                                                      pref, 1, &result, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    if (status == CUBLAS_STATUS_NOT_SUPPORTED || (status == CUBLAS_STATUS_SUCCESS && found == 0)) {
      throw Unsupported(std::string("cuBLASLt has no ") + gemm_type_row(type).precision + " algorithm for m " +
                        std::to_string(m) + " n " + std::to_string(n) + " k " + std::to_string(k));
    }
    check_cublas(status, "cublasLtMatmulAlgoGetHeuristic");
    algo = result.algo;
    std::size_t written = 0;
    check_cublas(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS, &flags, sizeof flags,
                                                   &written), "cublasLtMatmulAlgoCapGetAttribute");
  }

  int config(cublasLtMatmulAlgoConfigAttributes_t attribute) const {
    std::uint32_t value = 0;
    std::size_t written = 0;
    if (cublasLtMatmulAlgoConfigGetAttribute(&algo, attribute, &value, sizeof value, &written) != CUBLAS_STATUS_SUCCESS) {
      return -1;
    }
    return static_cast<int>(value);
  }
};

LtGemm::LtGemm(LtContext& context, GemmType type, std::int64_t m, std::int64_t n, std::int64_t k)
    : impl_(std::make_unique<Impl>()) {
  Impl& g = *impl_;
  g.context = &context.impl();
  g.type = type;
  g.m = m;
  g.n = n;
  g.k = k;
  const GemmTypeRow& row = gemm_type_row(type);
  g.describe();
  g.choose();
  g.a = device_alloc(static_cast<std::size_t>(m * k * row.input_bytes), "cudaMalloc gemm A");
  g.b = device_alloc(static_cast<std::size_t>(k * n * row.input_bytes), "cudaMalloc gemm B");
  g.d = device_alloc(static_cast<std::size_t>(m * n * row.output_bytes), "cudaMalloc gemm D");
  g.scratch = static_cast<unsigned long long*>(device_alloc(sizeof(unsigned long long), "cudaMalloc gemm scratch"));
  fill_gemm_operand(type, g.a, k, m, 0);
  fill_gemm_operand(type, g.b, k, n, 2);
  check_cuda(cudaDeviceSynchronize(), "gemm operand fill");
}

LtGemm::~LtGemm() = default;

void LtGemm::run(std::int64_t iterations) {
  Impl& g = *impl_;
  const float alpha_f = 1.0F;
  const float beta_f = 0.0F;
  const std::int32_t alpha_i = 1;
  const std::int32_t beta_i = 0;
  const bool integer = gemm_type_row(g.type).integer;
  const void* alpha = integer ? static_cast<const void*>(&alpha_i) : static_cast<const void*>(&alpha_f);
  const void* beta = integer ? static_cast<const void*>(&beta_i) : static_cast<const void*>(&beta_f);
  for (std::int64_t i = 0; i < iterations; ++i) {
    check_cublas(cublasLtMatmul(g.context->handle, g.op, alpha, g.a, g.a_layout, g.b, g.b_layout, beta, g.d,
                                g.d_layout, g.d, g.d_layout, &g.algo, g.context->workspace, kWorkspaceBytes, nullptr),
                 "cublasLtMatmul");
  }
}

std::string LtGemm::validate() {
  Impl& g = *impl_;
  check_cuda(cudaMemset(g.d, 0, static_cast<std::size_t>(g.m * g.n * gemm_type_row(g.type).output_bytes)),
             "gemm D reset");
  run(1);
  const bool unit = gemm_type_row(g.type).unit_operands;
  const std::uint64_t wrong = count_gemm_mismatches(g.type, g.d, g.m, g.n, gemm_inner_sum(g.k, unit), g.scratch);
  if (wrong == 0) return "";
  return std::string(gemm_type_row(g.type).precision) + " m " + std::to_string(g.m) + " n " + std::to_string(g.n) +
         " k " + std::to_string(g.k) + ": " + std::to_string(wrong) + " of " + std::to_string(g.m * g.n) +
         " outputs differ from the closed form";
}

std::uint64_t LtGemm::impl_flags() const { return impl_->flags; }

bool LtGemm::tensor_core() const { return (impl_->flags & CUBLASLT_NUMERICAL_IMPL_FLAGS_TENSOR_OP_MASK) != 0; }

std::string LtGemm::algorithm() const {
  const Impl& g = *impl_;
  char flags[32];
  std::snprintf(flags, sizeof flags, "0x%llx", static_cast<unsigned long long>(g.flags));
  return "id " + std::to_string(g.config(CUBLASLT_ALGO_CONFIG_ID)) + " tile " +
         std::to_string(g.config(CUBLASLT_ALGO_CONFIG_TILE_ID)) + " stages " +
         std::to_string(g.config(CUBLASLT_ALGO_CONFIG_STAGES_ID)) + " splitK " +
         std::to_string(g.config(CUBLASLT_ALGO_CONFIG_SPLITK_NUM)) + " flags " + flags;
}

}  // namespace roofline::cuda
