// The compute kernels of kernels/opencl/compute.cl on one device: 16 independent mad chains per work-item, enough
// work-groups to fill every compute unit, and the closed-form check of every work-item's result.
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline_opencl_sources.hpp"
#include "session_impl.hpp"

namespace roofline::opencl {
namespace {

constexpr int kChains = 16;                // compute.cl's x0..x15
constexpr float kMultiplier = -1.0f;       // x -> 3 - x: period 2, every value exact in every type
constexpr float kAddend = 3.0f;

struct KindInfo {
  const char* scalar;   // OpenCL C type of the chains
  const char* acc;      // type of the written sums
  const char* defines;  // extension and integer switches
  float start, step;    // chain c starts at start + c * step
};

KindInfo kind_info(ComputeKind k) {
  switch (k) {
    case ComputeKind::fp32: return {"float", "float", "", 1.0f, 1.0f / 32};
    case ComputeKind::fp64: return {"double", "double", "-DUSE_FP64", 1.0f, 1.0f / 32};
    case ComputeKind::fp16: return {"half", "float", "-DUSE_FP16", 1.0f, 1.0f / 32};
    case ComputeKind::int32: return {"int", "int", "-DINTEGER", 1.0f, 1.0f};
  }
  return {"float", "float", "", 1.0f, 1.0f / 32};
}

void check_supported(const Session& s, ComputeKind k, int width) {
  bool ok_width = false;
  for (int w : kVectorWidths) ok_width = ok_width || w == width;
  if (!ok_width) throw InputError(fmt::format("OpenCL vector width {} is not one of 1, 2, 4, 8, 16", width));
  if (k == ComputeKind::fp64 && !s.facts().fp64) {
    throw InputError(fmt::format("{} has no cl_khr_fp64: fp64 cannot be measured", s.facts().id()));
  }
  if (k == ComputeKind::fp16 && !s.facts().fp16) {
    throw InputError(fmt::format("{} has no cl_khr_fp16: fp16 cannot be measured", s.facts().id()));
  }
}

// What every work-item must have written: the sum over chains and lanes of x0 (even steps) or 3 - x0 (odd).
double expected_sum(const KindInfo& info, int width, std::int64_t iterations) {
  double sum = 0;
  for (int c = 0; c < kChains; ++c) {
    const double x0 = static_cast<double>(info.start) + c * static_cast<double>(info.step);
    sum += width * (iterations % 2 == 0 ? x0 : static_cast<double>(kAddend) - x0);
  }
  return sum;
}

std::vector<double> read_sums(Session::Impl& im, cl_mem out, ComputeKind k, std::uint64_t n) {
  std::vector<double> sums(n);
  if (k == ComputeKind::fp64) {
    im.read(out, sums.data(), n * sizeof(double));
  } else if (k == ComputeKind::int32) {
    std::vector<cl_int> v(n);
    im.read(out, v.data(), n * sizeof(cl_int));
    for (std::uint64_t i = 0; i < n; ++i) sums[i] = v[i];
  } else {
    std::vector<cl_float> v(n);
    im.read(out, v.data(), n * sizeof(cl_float));
    for (std::uint64_t i = 0; i < n; ++i) sums[i] = v[i];
  }
  return sums;
}
}  // namespace

Timing measure_compute(Session& s, ComputeKind k, int width, std::int64_t iterations, int reps, int groups_per_unit) {
  check_supported(s, k, width);
  if (reps < 1 || iterations < 1 || iterations > 0x7FFFFFFF || groups_per_unit < 1) {
    throw InputError("OpenCL compute: repetitions, iterations (< 2^31) and groups per unit must be positive");
  }
  const KindInfo info = kind_info(k);
  Timing t;
  Session::Impl& im = s.impl();
  const std::string vt = width == 1 ? info.scalar : fmt::format("{}{}", info.scalar, width);
  const std::string options = fmt::format("-DW={} -DT={} -DVT={} -DACC={} {}", width, info.scalar, vt, info.acc,
                                          info.defines);
  KernelHandle kernel = im.kernel(kComputeClSource, options, "mad_chains", t.build_seconds);

  const std::uint64_t units = static_cast<std::uint64_t>(std::max(1, s.facts().compute_units));
  const std::uint64_t global = units * s.local_size() * static_cast<std::uint64_t>(groups_per_unit);
  const std::uint64_t acc_bytes = k == ComputeKind::fp64 ? 8 : 4;
  MemHandle out = im.buffer(global * acc_bytes);
  cl_mem po = out.get();
  const auto iters = static_cast<cl_int>(iterations);
  set_arg(kernel.get(), 0, po);
  set_arg(kernel.get(), 1, kMultiplier);
  set_arg(kernel.get(), 2, kAddend);
  set_arg(kernel.get(), 3, info.start);
  set_arg(kernel.get(), 4, info.step);
  set_arg(kernel.get(), 5, iters);
  run_timed(im, kernel.get(), global, reps, t);
  // An FMA (mad) is 2 FLOP, an integer multiply-add 2 ops, per lane and step.
  t.work_per_rep = global * static_cast<std::uint64_t>(iterations) * kChains * static_cast<std::uint64_t>(width) * 2;

  const double want = expected_sum(info, width, iterations);
  const std::vector<double> sums = read_sums(im, po, k, global);
  for (std::uint64_t i = 0; i < global && t.validation_error.empty(); ++i) {
    if (sums[i] != want) {  // exact: every value on the way is a small dyadic number
      t.validation_error = fmt::format("{} width {}: work-item {} holds {}, expected {} after {} steps", to_string(k),
                                       width, i, sums[i], want, iterations);
    }
  }
  t.validated = t.validation_error.empty();
  return t;
}

}  // namespace roofline::opencl
