// The compute kernels of kernels/opencl/compute.cl on one device: 16 independent mad chains per work-item, enough
// work-groups to fill every compute unit, and the closed-form check of every work-item's result.
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline_opencl_sources.hpp"
#include "prepared.hpp"

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
    case ComputeKind::int8: return {"int", "int", "-DDOT_CHAINS", 1.0f, 1.0f};
  }
  return {"float", "float", "", 1.0f, 1.0f / 32};
}

void check_supported(const Session& s, ComputeKind k, int width) {
  check_width(width);
  if (k == ComputeKind::fp64 && !s.facts().fp64) {
    throw InputError(fmt::format("{} has no cl_khr_fp64: fp64 cannot be measured", s.facts().id()));
  }
  if (k == ComputeKind::fp16 && !s.facts().fp16) {
    throw InputError(fmt::format("{} has no cl_khr_fp16: fp16 cannot be measured", s.facts().id()));
  }
}

// What every work-item must have written: the sum over chains and lanes of x0 (even steps) or 3 - x0 (odd).
double expected_sum(ComputeKind k, const KindInfo& info, int width, std::int64_t iterations) {
  double sum = 0;
  if (k == ComputeKind::int8) {  // compute.cl's dot_chains: 16 x W scalar chains, x0 = 1 + (c & 63)
    for (int c = 0; c < kChains * width; ++c) {
      const double x0 = 1 + (c & 63);
      sum += iterations % 2 == 0 ? x0 : static_cast<double>(kAddend) - x0;
    }
    return sum;
  }
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
  } else if (k == ComputeKind::int32 || k == ComputeKind::int8) {
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

bool supports(const DeviceFacts& d, ComputeKind k) {
  return k == ComputeKind::fp64 ? d.fp64 : k == ComputeKind::fp16 ? d.fp16
                                         : k == ComputeKind::int8 ? d.integer_dot_product : true;
}

PreparedCompute::PreparedCompute(Session& s, ComputeKind k, int width, std::int64_t iterations, int groups_per_unit)
    : s_(s), k_(k), width_(width), iterations_(iterations) {
  check_supported(s, k, width);
  if (iterations < 1 || iterations > 0x7FFFFFFF || groups_per_unit < 1) {
    throw InputError("OpenCL compute: iterations (< 2^31) and groups per unit must be positive");
  }
  const KindInfo info = kind_info(k);
  Session::Impl& im = s.impl();
  const std::string vt = width == 1 ? info.scalar : fmt::format("{}{}", info.scalar, width);
  const std::string options = fmt::format("-DW={} -DT={} -DVT={} -DACC={} {}", width, info.scalar, vt, info.acc,
                                          info.defines);
  const bool dot = k == ComputeKind::int8;
  kernel_ = im.kernel(kComputeClSource, options, dot ? "dot_chains" : "mad_chains", build_seconds);
  const std::uint64_t units = static_cast<std::uint64_t>(std::max(1, s.facts().compute_units));
  global_ = units * s.local_size() * static_cast<std::uint64_t>(groups_per_unit);
  out_ = im.buffer(global_ * (k == ComputeKind::fp64 ? 8 : 4));
  cl_mem po = out_.get();
  const auto iters = static_cast<cl_int>(iterations);
  set_arg(kernel_.get(), 0, po);
  if (dot) {
    set_arg(kernel_.get(), 1, static_cast<cl_int>(kMultiplier));
    set_arg(kernel_.get(), 2, static_cast<cl_int>(kAddend));
    set_arg(kernel_.get(), 3, cl_int{1});
    set_arg(kernel_.get(), 4, cl_int{1});
  } else {
    set_arg(kernel_.get(), 1, kMultiplier);
    set_arg(kernel_.get(), 2, kAddend);
    set_arg(kernel_.get(), 3, info.start);
    set_arg(kernel_.get(), 4, info.step);
  }
  set_arg(kernel_.get(), 5, iters);
}

double PreparedCompute::run(std::int64_t launches, bool& device_timed) {
  return s_.impl().launch_many(kernel_.get(), global_, launches, device_timed);
}

std::uint64_t PreparedCompute::ops_per_launch() const {
  // An FMA (mad) is 2 FLOP, an integer multiply-add 2 ops, per lane and step; a 4-lane int8 dot with
  // accumulate 8 ops.
  const std::uint64_t per_step = k_ == ComputeKind::int8 ? 8 : 2;
  return global_ * static_cast<std::uint64_t>(iterations_) * kChains * static_cast<std::uint64_t>(width_) * per_step;
}

std::string PreparedCompute::validate() {
  const double want = expected_sum(k_, kind_info(k_), width_, iterations_);
  const std::vector<double> sums = read_sums(s_.impl(), out_.get(), k_, global_);
  for (std::uint64_t i = 0; i < global_; ++i) {
    if (sums[i] != want) {  // exact: every value on the way is a small dyadic number
      return fmt::format("{} width {}: work-item {} holds {}, expected {} after {} steps", to_string(k_), width_, i,
                         sums[i], want, iterations_);
    }
  }
  return "";
}

Timing measure_compute(Session& s, ComputeKind k, int width, std::int64_t iterations, int reps, int groups_per_unit) {
  if (reps < 1) throw InputError("OpenCL compute: at least one repetition");
  PreparedCompute pc(s, k, width, iterations, groups_per_unit);
  Timing t;
  t.build_seconds = pc.build_seconds;
  t.global_size = pc.global_size();
  t.local_size = s.local_size();
  bool timed = true;
  t.warmup_seconds = pc.run(1, timed);
  t.device_timing = timed;
  for (int r = 0; r < reps; ++r) {
    t.seconds.push_back(pc.run(1, timed));
    t.device_timing = t.device_timing && timed;
  }
  if (!t.device_timing) t.notes.push_back("the device gave no profiling times: kernels timed on the host clock");
  t.work_per_rep = pc.ops_per_launch();
  t.validation_error = pc.validate();
  t.validated = t.validation_error.empty();
  return t;
}

}  // namespace roofline::opencl
