// Private to the GEMM sources in kernels/: element types per precision, the buffers every backend
// owns (A, B, C in the shared layout of gemm.hpp), an OpenMP thread-count scope, and the backend
// singletons the registry lists.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include <omp.h>

#include "roofline/common/huge_pages.hpp"
#include "roofline/kernels/cpu/gemm.hpp"

namespace roofline::gemm_detail {

// bf16 as stored: the upper 16 bits of an IEEE fp32.
struct Bf16 {
  std::uint16_t bits = 0;
};
inline float to_float(Bf16 v) {
  const std::uint32_t u = static_cast<std::uint32_t>(v.bits) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
// Round to nearest even (exact for the small integers the fills use).
inline Bf16 to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return Bf16{static_cast<std::uint16_t>(u >> 16)};
}
inline double to_double(Bf16 v) { return to_float(v); }
template <class T>
double to_double(T v) {
  return static_cast<double>(v);
}
template <class T>
T from_int(int v) {
  if constexpr (std::is_same_v<T, Bf16>) {
    return to_bf16(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

template <class A, class B, class C>
struct GemmTypes {
  using a_type = A;
  using b_type = B;
  using c_type = C;
};

// Calls f(GemmTypes<A, B, C>{}) with the element types of `p` (see GemmOperands).
template <class F>
decltype(auto) with_gemm_types(Precision p, F&& f) {
  switch (p) {
    case Precision::fp64: return f(GemmTypes<double, double, double>{});
    case Precision::fp32: return f(GemmTypes<float, float, float>{});
    case Precision::bf16: return f(GemmTypes<Bf16, Bf16, float>{});
    case Precision::int8: return f(GemmTypes<std::int8_t, std::uint8_t, std::int32_t>{});
    case Precision::fp16:
    case Precision::tf32:
    case Precision::fp8:
    case Precision::int32: break;
  }
  throw std::invalid_argument("GEMM: precision " + std::string(to_string(p)) + " is not supported on the CPU");
}

// Sets the OpenMP thread count of the calling thread's next parallel regions (and so of libraries on
// the OpenMP runtime: Eigen, oneDNN) for a scope; restores it after.
class OmpThreadsScope {
 public:
  explicit OmpThreadsScope(int threads) : saved_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~OmpThreadsScope() { omp_set_num_threads(saved_); }
  OmpThreadsScope(const OmpThreadsScope&) = delete;
  OmpThreadsScope& operator=(const OmpThreadsScope&) = delete;

 private:
  int saved_;
};

// One problem's view of its operands (a GemmOperandSet, shared or its own) and its request, whose max_n and threads
// may be less than the set's.
class GemmBuffers {
 public:
  // nullptr: a set of its own for `request`; else `operands`, checked against the request. Poisons C either way.
  GemmBuffers(const GemmRequest& request, std::shared_ptr<GemmOperandSet> operands);
  [[nodiscard]] GemmOperands operands(std::int64_t n) const { return operands_->operands(n); }
  // On the request's team: the check of a point runs between its repetitions, on the threads it measured with.
  [[nodiscard]] GemmCheck check(std::int64_t n) const { return operands_->check(n, request_.threads); }
  [[nodiscard]] const GemmRequest& request() const { return request_; }
  template <class T>
  T* a() const { return static_cast<T*>(const_cast<void*>(operands_->operands(1).a)); }
  template <class T>
  T* b() const { return static_cast<T*>(const_cast<void*>(operands_->operands(1).b)); }
  template <class T>
  T* c() const { return static_cast<T*>(operands_->operands(1).c); }

  // A page-aligned block for a library's packed copy of A: from the process's pool of kept mappings
  // (huge_pages.hpp), from 4 MiB up on 2 MiB pages, as the DRAM roof these operands are placed against.
  using Block = std::unique_ptr<void, LargeFree>;
  static Block allocate(double bytes);

 private:
  GemmRequest request_;
  std::shared_ptr<GemmOperandSet> operands_;
};

// The backend singletons (one file each); the registry decides which are compiled in.
const GemmBackend& eigen_backend();
const GemmBackend& onednn_backend();
const GemmBackend& openblas_backend();

}  // namespace roofline::gemm_detail
