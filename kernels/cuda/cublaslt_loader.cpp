// cuBLASLt loaded when the CUDA target first asks for it, not when the binary starts (issue 46). Its library is
// 540 MB: linked dynamically, the loader mapped and relocated it at every start of every command (roofline --help
// took 0.58 s on a 2-vCPU guest with the CUDA toolkit and no GPU, most of the quick profile's 1 s outside its
// suites). CUDA's lazy module loading covers device code, not this; so the 14 entry points the target uses are
// defined here with cublasLt.h's own signatures and forward to the library opened with dlopen on first call. A
// machine without the library gets CUBLAS_STATUS_NOT_INITIALIZED from every one, which the target reports as it
// reports any cuBLASLt failure.
#include <dlfcn.h>

#include <cublasLt.h>

namespace {

void* library() {
  static void* const handle = [] {
    void* h = dlopen(ROOFLINE_CUBLASLT_LIBRARY, RTLD_NOW | RTLD_LOCAL);  // the toolkit found at configure time
    if (h == nullptr) h = dlopen(ROOFLINE_CUBLASLT_SONAME, RTLD_NOW | RTLD_LOCAL);  // the loader's search path
    return h;
  }();
  return handle;
}

template <class F>
F entry(const char* name) {
  void* h = library();
  return h == nullptr ? nullptr : reinterpret_cast<F>(dlsym(h, name));
}

}  // namespace

// The entry point `name` of the library, called with `args`; NOT_INITIALIZED when the library or the symbol is missing.
#define ROOFLINE_CUBLASLT_FORWARD(name, ...)                                  \
  static const auto f = entry<decltype(&::name)>(#name);                      \
  return f == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : f(__VA_ARGS__)

extern "C" {

cublasStatus_t CUBLASWINAPI cublasLtCreate(cublasLtHandle_t* handle) { ROOFLINE_CUBLASLT_FORWARD(cublasLtCreate, handle); }

cublasStatus_t CUBLASWINAPI cublasLtDestroy(cublasLtHandle_t handle) { ROOFLINE_CUBLASLT_FORWARD(cublasLtDestroy, handle); }

cublasStatus_t CUBLASWINAPI cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha,
                                           const void* a, cublasLtMatrixLayout_t a_desc, const void* b,
                                           cublasLtMatrixLayout_t b_desc, const void* beta, const void* c,
                                           cublasLtMatrixLayout_t c_desc, void* d, cublasLtMatrixLayout_t d_desc,
                                           const cublasLtMatmulAlgo_t* algo, void* workspace, size_t workspace_bytes,
                                           cudaStream_t stream) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmul, handle, desc, alpha, a, a_desc, b, b_desc, beta, c, c_desc, d, d_desc, algo,
                            workspace, workspace_bytes, stream);
}

cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* layout, cudaDataType type, uint64_t rows,
                                                       uint64_t cols, int64_t ld) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatrixLayoutCreate, layout, type, rows, cols, ld);
}

cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatrixLayoutDestroy, layout);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* desc, cublasComputeType_t compute,
                                                     cudaDataType_t scale) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmulDescCreate, desc, compute, scale);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmulDescDestroy, desc);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr,
                                                           const void* buf, size_t bytes) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmulDescSetAttribute, desc, attr, buf, bytes);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmulPreferenceCreate, pref);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmulPreferenceDestroy, pref);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                                 cublasLtMatmulPreferenceAttributes_t attr,
                                                                 const void* buf, size_t bytes) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmulPreferenceSetAttribute, pref, attr, buf, bytes);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                                                           cublasLtMatrixLayout_t a_desc, cublasLtMatrixLayout_t b_desc,
                                                           cublasLtMatrixLayout_t c_desc, cublasLtMatrixLayout_t d_desc,
                                                           cublasLtMatmulPreference_t pref, int requested,
                                                           cublasLtMatmulHeuristicResult_t results[], int* returned) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmulAlgoGetHeuristic, handle, desc, a_desc, b_desc, c_desc, d_desc, pref, requested,
                            results, returned);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t* algo,
                                                                 cublasLtMatmulAlgoConfigAttributes_t attr, void* buf,
                                                                 size_t bytes, size_t* written) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmulAlgoConfigGetAttribute, algo, attr, buf, bytes, written);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoCapGetAttribute(const cublasLtMatmulAlgo_t* algo,
                                                              cublasLtMatmulAlgoCapAttributes_t attr, void* buf,
                                                              size_t bytes, size_t* written) {
  ROOFLINE_CUBLASLT_FORWARD(cublasLtMatmulAlgoCapGetAttribute, algo, attr, buf, bytes, written);
}

}  // extern "C"
