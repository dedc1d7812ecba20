// Planning the gemm suite: see gemm_plan.hpp.
#include "roofline/bench/gemm_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
namespace {

std::string built_backend_names() {
  std::string s;
  for (const GemmBackend* b : gemm_backends()) s += (s.empty() ? "" : ", ") + std::string(b->name());
  return s;
}

std::vector<const GemmBackend*> chosen_backends(const RunConfig& config) {
  if (config.backends.empty()) return gemm_backends();
  std::vector<const GemmBackend*> out;
  for (const std::string& name : config.backends) {
    const GemmBackend* b = find_gemm_backend(name);
    if (b == nullptr) {
      const bool known = name == "eigen" || name == "onednn" || name == "openblas";
      throw InputError(fmt::format("--backends: '{}' {} (built: {})", name,
                                   known ? "is not built in (its library was not found at configure time)"
                                         : "is not a GEMM backend",
                                   built_backend_names()));
    }
    out.push_back(b);
  }
  return out;
}

// Precisions each backend runs by default (all of them in full; quick leaves out openblas fp64).
std::vector<Precision> default_precisions(const GemmBackend& b, Profile profile) {
  if (profile == Profile::quick && b.name() == "openblas") return {Precision::fp32};
  return b.precisions();
}

std::vector<int> subset(const std::vector<int>& all, std::initializer_list<int> wanted) {
  std::vector<int> out;
  for (int n : wanted) {
    if (std::find(all.begin(), all.end(), n) != all.end()) out.push_back(n);
  }
  if (out.empty()) out.push_back(all.front());
  return out;
}

double largest_footprint(const GemmPlan& plan, const RunConfig& config) {
  double most = 0.0;
  for (const GemmGroup& g : plan.groups) most = std::max(most, g.backend->footprint_bytes(gemm_request(plan, g, config)));
  return most;
}

}  // namespace

std::vector<int> default_gemm_batches() {
  std::vector<int> out;
  for (int n = 1; n <= 1024; n *= 2) out.push_back(n);
  return out;
}

GemmRequest gemm_request(const GemmPlan& plan, const GemmGroup& group, const RunConfig& config) {
  GemmRequest r;
  r.m = plan.m;
  r.k = plan.k;
  r.max_n = group.batches.back();
  r.precision = group.precision;
  r.threads = group.threads;
  r.features = config.features;
  return r;
}

GemmPlan plan_gemm(const RunConfig& config) {
  GemmPlan plan;
  if (config.gemm_m > 0 && config.gemm_k > 0) {
    plan.m = config.gemm_m;
    plan.k = config.gemm_k;
    plan.shape_from_user = true;
  }
  const bool user_batches = !config.batches.empty();
  const std::vector<int> batches = user_batches ? config.batches : default_gemm_batches();
  const bool quick = config.profile == Profile::quick;
  const std::vector<int> threads = config.thread_counts.empty() ? std::vector<int>{1} : config.thread_counts;
  const int all = threads.back();

  for (const GemmBackend* backend : chosen_backends(config)) {
    for (Precision p : default_precisions(*backend, config.profile)) {
      for (int t : threads) {
        GemmGroup g{backend, p, t, batches};
        if (quick && !user_batches) {
          const bool sweep = backend->name() == "eigen" && p == Precision::fp32 && t == all;
          if (!sweep) {
            if (t != all && !(backend->name() == "eigen" && p == Precision::fp32)) continue;
            // The memory-bound end and one compute-bound batch: 1024 for oneDNN (fp32, int8); 64 for the others, whose
            // batch-1024 call can take seconds (OpenBLAS falls back to SSE3 kernels on CPUs it does not know).
            // bf16 runs at half the fp32 rate here (vdpbf16ps is slow on some CPUs): its batch-1024 call takes
            // ~0.8 s, so quick stops it at 256 (already past its ridge); full runs every batch.
            g.batches = backend->name() != "onednn" ? subset(batches, {1, 64})
                        : p == Precision::bf16      ? subset(batches, {1, 256})
                                                    : subset(batches, {1, 1024});
          }
        }
        plan.groups.push_back(std::move(g));
      }
    }
  }

  const double budget = static_cast<double>(config.memory_budget_bytes);
  if (budget > 0.0) {
    if (plan.shape_from_user) {
      const double need = largest_footprint(plan, config);
      if (need > budget) {
        throw InputError(fmt::format("--gemm-shape {},{}: the operands need {}, more than the {} this run may use",
                                     plan.m, plan.k, format_bytes(need), format_bytes(budget)));
      }
    } else {
      while (plan.k > 256 && largest_footprint(plan, config) > budget) plan.k /= 2;
      if (plan.k != kDefaultGemmK) {
        plan.notes.push_back(fmt::format("gemm: default weight shape reduced to {}x{} to fit the memory budget of {}",
                                         plan.m, plan.k, format_bytes(budget)));
      }
    }
  }
  return plan;
}

}  // namespace roofline
