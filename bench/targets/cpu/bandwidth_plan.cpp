// Sizing the bandwidth sweep: see bandwidth_plan.hpp.
#include "roofline/cpu/bandwidth_plan.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/harness/profile.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

std::vector<std::vector<std::uint64_t>> octave_batches(const std::vector<std::uint64_t>& sizes, int per_octave) {
  std::vector<std::vector<std::uint64_t>> out;
  const std::size_t step = per_octave > 0 ? static_cast<std::size_t>(per_octave) : sizes.size();
  for (std::size_t i = 0; i < sizes.size(); i += std::max<std::size_t>(step, 1)) {
    out.emplace_back(sizes.begin() + static_cast<std::ptrdiff_t>(i),
                     sizes.begin() + static_cast<std::ptrdiff_t>(std::min(sizes.size(), i + step)));
  }
  return out;
}

std::size_t elements_for(StreamKernel kernel, std::uint64_t working_set_bytes, std::size_t unit_elements) {
  const std::size_t unit = std::max<std::size_t>(1, unit_elements);
  const double per_array = static_cast<double>(working_set_bytes) / (sizeof(double) * stream_array_count(kernel));
  const auto units = static_cast<std::size_t>(std::llround(per_array / static_cast<double>(unit)));
  return std::max<std::size_t>(1, units) * unit;
}

std::size_t element_unit(StreamKernel kernel, int threads, const IsaFeatures& features) {
  return static_cast<std::size_t>(std::max(threads, 1)) * std::max<std::size_t>(8, stream_step_elements(kernel, features));
}

int passes_per_call(StreamKernel kernel, std::size_t n, std::uint64_t target_bytes) {
  const std::uint64_t per_pass = std::max<std::uint64_t>(1, stream_bytes_per_pass(kernel, n));
  return static_cast<int>(std::clamp<std::uint64_t>((target_bytes + per_pass - 1) / per_pass, 1, 1u << 20));
}

std::vector<StreamKernel> swept_kernels(Profile profile, bool user_sizes) {
  if (profile_settings(profile).bandwidth.sweep_every_kernel || user_sizes) {
    std::vector<StreamKernel> all;
    for (const StreamKernelInfo& k : stream_kernels()) all.push_back(k.kernel);
    return all;
  }
  // read is the memory roof and the reference curve; triad is STREAM's headline number.
  return {StreamKernel::read, StreamKernel::triad};
}

std::vector<StreamKernel> spot_kernels(Profile profile, bool user_sizes) {
  if (profile_settings(profile).bandwidth.sweep_every_kernel || user_sizes) return {};
  std::vector<StreamKernel> out;
  for (const StreamKernelInfo& k : stream_kernels()) {
    if (k.kernel != StreamKernel::read && k.kernel != StreamKernel::triad) out.push_back(k.kernel);
  }
  return out;
}

std::uint64_t middle_size(const std::vector<std::uint64_t>& sizes, double lo, double hi) {
  if (sizes.empty()) return 0;
  const double target = std::log2(std::sqrt(lo * hi));
  std::uint64_t best = sizes.front();
  for (std::uint64_t s : sizes) {
    if (std::fabs(std::log2(double(s)) - target) < std::fabs(std::log2(double(best)) - target)) best = s;
  }
  return best;
}

std::vector<std::uint64_t> small_page_sizes(const std::vector<std::uint64_t>& measured, double dram_from,
                                            double reported_reach, bool every) {
  const double from = dram_from > 0.0 ? dram_from : 2.0 * reported_reach;
  std::vector<std::uint64_t> out;
  if (from <= 0.0 || measured.empty()) return out;
  if (!every) {
    const std::uint64_t s = middle_size(measured, from, 2.0 * from);
    if (static_cast<double>(s) >= from * 0.99) out.push_back(s);
    return out;
  }
  for (std::uint64_t s : measured) {
    if (static_cast<double>(s) >= from * 0.99 && (out.empty() || out.back() != s)) out.push_back(s);
  }
  return out;
}

}  // namespace roofline
