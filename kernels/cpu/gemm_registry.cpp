// The registry of GEMM backends compiled into this build. The one place that knows which optional
// libraries were found at configure time (ROOFLINE_HAVE_ONEDNN / ROOFLINE_HAVE_OPENBLAS); every caller
// chooses backends by name at run time.
#include <algorithm>

#include "gemm_internal.hpp"

namespace roofline {

const std::vector<const GemmBackend*>& gemm_backends() {
  static const std::vector<const GemmBackend*> backends = [] {
    std::vector<const GemmBackend*> list{&gemm_detail::eigen_backend()};
#ifdef ROOFLINE_HAVE_ONEDNN
    list.push_back(&gemm_detail::onednn_backend());
#endif
#ifdef ROOFLINE_HAVE_OPENBLAS
    list.push_back(&gemm_detail::openblas_backend());
#endif
    return list;
  }();
  return backends;
}

std::vector<std::string_view> known_gemm_backend_names() { return {"eigen", "onednn", "openblas"}; }

const GemmBackend* find_gemm_backend(std::string_view name) {
  const auto& list = gemm_backends();
  const auto it = std::find_if(list.begin(), list.end(), [&](const GemmBackend* b) { return b->name() == name; });
  return it == list.end() ? nullptr : *it;
}

}  // namespace roofline
