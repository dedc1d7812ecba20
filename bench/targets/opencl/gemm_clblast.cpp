// The OpenCL gemm suite through CLBlast: operands made once per precision (resident on the device, sized for
// the largest batch), one DeviceWork per planned batch timed by CLBlast's event, checked exactly after timing.
#include <clblast.h>
#include <clblast_half.h>

#include <algorithm>

#include <fmt/format.h>

#include "roofline/common/gemm_labels.hpp"
#include "roofline/harness/gemm_shape.hpp"
#include "roofline/opencl/work.hpp"
#include "work_guard.hpp"

namespace roofline::opencl {
namespace {

// The weight and input entries: small integers whose every partial sum is exact. fp32: |A| <= 2, |B| <= 1, so
// |sum| <= 2K < 2^24. fp16: A is 1 on every 8th diagonal and 0 elsewhere, so |sum| <= K/8 <= 2048 for K <= 16384.
float a_value(bool half, std::int64_t i, std::int64_t j) {
  return half ? ((i + j) % 8 == 0 ? 1.0f : 0.0f) : static_cast<float>((i * 7 + j * 3) % 5 - 2);
}
float b_value(std::int64_t j, std::int64_t n) { return static_cast<float>((j * 5 + n * 11) % 3 - 1); }

struct Operands {
  Session::Impl* im = nullptr;
  bool half = false;
  std::int64_t m = 0, k = 0, n_max = 0;
  MemHandle a{nullptr, &clReleaseMemObject}, b{nullptr, &clReleaseMemObject}, c{nullptr, &clReleaseMemObject};

  template <typename T>
  void upload(cl_mem dst, std::int64_t rows, std::int64_t cols, float (*value)(bool, std::int64_t, std::int64_t)) {
    std::vector<T> v(static_cast<std::size_t>(rows * cols));
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t col = 0; col < cols; ++col) {
        const float x = value(half, r, col);
        v[static_cast<std::size_t>(r * cols + col)] = half ? static_cast<T>(FloatToHalf(x)) : static_cast<T>(x);
      }
    }
    im->write(dst, v.data(), v.size() * sizeof(T));
  }

  cl_int call(int n, cl_event* ev) {
    cl_command_queue q = im->queue;
    const auto sm = static_cast<std::size_t>(m), sk = static_cast<std::size_t>(k), sn = static_cast<std::size_t>(n);
    clblast::StatusCode st;
    using clblast::Layout;
    using clblast::Transpose;
    if (half) {
      const cl_half one = FloatToHalf(1.0f), zero = FloatToHalf(0.0f);
      st = n == 1 ? clblast::Gemv<cl_half>(Layout::kRowMajor, Transpose::kNo, sm, sk, one, a.get(), 0, sk, b.get(), 0,
                                           1, zero, c.get(), 0, 1, &q, ev)
                  : clblast::Gemm<cl_half>(Layout::kColMajor, Transpose::kYes, Transpose::kNo, sm, sn, sk, one, a.get(),
                                           0, sk, b.get(), 0, sk, zero, c.get(), 0, sm, &q, ev);
    } else {
      st = n == 1 ? clblast::Gemv<float>(Layout::kRowMajor, Transpose::kNo, sm, sk, 1.0f, a.get(), 0, sk, b.get(), 0,
                                         1, 0.0f, c.get(), 0, 1, &q, ev)
                  : clblast::Gemm<float>(Layout::kColMajor, Transpose::kYes, Transpose::kNo, sm, sn, sk, 1.0f, a.get(),
                                         0, sk, b.get(), 0, sk, 0.0f, c.get(), 0, sm, &q, ev);
    }
    return static_cast<cl_int>(st);
  }

  // Columns 0, n/2 and n-1 of C, every row, against the exact product.
  std::string validate(int n) {
    std::vector<float> got(static_cast<std::size_t>(m));
    std::vector<cl_half> got_half(static_cast<std::size_t>(m));
    for (int col : {0, n / 2, n - 1}) {
      const std::size_t offset = static_cast<std::size_t>(col) * static_cast<std::size_t>(m);
      const std::size_t elem = half ? 2 : 4;
      detail::check(clEnqueueReadBuffer(im->queue, c.get(), CL_TRUE, offset * elem, static_cast<std::size_t>(m) * elem,
                                        half ? static_cast<void*>(got_half.data()) : got.data(), 0, nullptr, nullptr),
                    "clEnqueueReadBuffer");
      for (std::int64_t i = 0; i < m; ++i) {
        double want = 0;
        for (std::int64_t j = 0; j < k; ++j) want += a_value(half, i, j) * b_value(j, col);
        const double have = half ? HalfToFloat(got_half[static_cast<std::size_t>(i)]) : got[static_cast<std::size_t>(i)];
        if (have != want) return fmt::format("C[{}][{}] is {}, expected {}", i, col, have, want);
      }
    }
    return "";
  }
};

std::shared_ptr<Operands> make_operands(Session& s, bool half, std::int64_t m, std::int64_t k, int n_max) {
  auto op = std::make_shared<Operands>();
  op->im = &s.impl();
  op->half = half;
  op->m = m;
  op->k = k;
  op->n_max = n_max;
  const std::size_t e = half ? 2 : 4;
  op->a = s.impl().buffer(static_cast<std::uint64_t>(m * k) * e);
  op->b = s.impl().buffer(static_cast<std::uint64_t>(k * n_max) * e);
  op->c = s.impl().buffer(static_cast<std::uint64_t>(m * n_max) * e);
  // B is column-major K x N: element (j, n) at n * K + j, i.e. "row" n, "column" j of a row-major N x K.
  const auto upload_b = [](bool, std::int64_t n, std::int64_t j) { return b_value(j, n); };
  if (half) {
    op->upload<cl_half>(op->a.get(), m, k, a_value);
    op->upload<cl_half>(op->b.get(), n_max, k, upload_b);
  } else {
    op->upload<float>(op->a.get(), m, k, a_value);
    op->upload<float>(op->b.get(), n_max, k, upload_b);
  }
  return op;
}
}  // namespace

bool have_clblast() { return true; }

std::vector<DeviceWork> gemm_work(const std::shared_ptr<Session>& s, const std::string& precision,
                                  const WorkOptions& o, std::vector<std::string>& notes) {
  const bool half = precision == "fp16";
  const std::int64_t m = o.gemm_m > 0 ? o.gemm_m : kDefaultGemmM;
  const std::int64_t k = o.gemm_k > 0 ? o.gemm_k : kDefaultGemmK;
  const std::vector<int> batches = gemm_batches(o);
  const int n_max = *std::max_element(batches.begin(), batches.end());
  if (half && k > 16384) {
    notes.push_back(fmt::format("{}: HGEMM left out: K {} above 16384 cannot be checked exactly in fp16", s->facts().id(), k));
    return {};
  }
  auto op = guarded_call(*s, [&] { return make_operands(*s, half, m, k, n_max); });
  const double e = half ? 2 : 4;
  std::vector<DeviceWork> works;
  const auto one_call = [&](int n) {
    return guarded_call(*s, [&] { cl_event ev = nullptr; const cl_int st = op->call(n, &ev);
                                  if (ev != nullptr) { clWaitForEvents(1, &ev); clReleaseEvent(ev); }
                                  return st; });
  };
  for (int n : batches) {
    // Untimed first call: CLBlast compiles its kernels for this routine and size here.
    const cl_int first = one_call(n);
    if (first != CL_SUCCESS) {
      notes.push_back(fmt::format("{}: CLBlast {} batch {} failed (status {}): left out", s->facts().id(), precision, n, first));
      continue;
    }
    DeviceWork w;
    w.name = gemm_name(precision, m, k, n);
    w.labels = {{"suite", "gemm"}, {"kernel", n == 1 ? "gemv" : "gemm"}, {"backend", "clblast"},
                {"precision", precision}, {"implementation", n == 1 ? "clblast::Gemv" : "clblast::Gemm"}};
    const int element = half ? 2 : 4;  // HGEMM is fp16 throughout, SGEMV/SGEMM fp32
    w.labels.update(gemm_labels_json({m, n, k}, {element, element, element}));
    w.run = guarded(s, [op, n](std::int64_t iters) {
      bool t = true;
      return op->im->timed_commands(iters, [&](cl_event* ev) { return op->call(n, ev); }, t);
    });
    w.validate = guarded(s, [op, n] { return op->validate(n); });
    const double dm = static_cast<double>(m), dk = static_cast<double>(k), dn = n;
    w.flop = 2 * dm * dn * dk;
    w.bytes = e * (dm * dk + dk * dn + dm * dn);  // compulsory traffic, as the CPU gemm suite counts it
    w.working_set_bytes = w.bytes;
    w.device_timed = s->device_timing();
    w.min_time_s = o.min_time_s;
    w.repetitions = o.repetitions;
    works.push_back(std::move(w));
  }
  return works;
}

}  // namespace roofline::opencl
