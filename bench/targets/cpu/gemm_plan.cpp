// Planning the gemm suite: see gemm_plan.hpp.
#include "roofline/cpu/gemm_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/harness/profile.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/gemm_count.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
namespace {

std::string built_backend_names() {
  std::vector<std::string_view> names;
  for (const GemmBackend* b : gemm_backends()) names.push_back(b->name());
  return fmt::format("{}", fmt::join(names, ", "));
}

std::vector<const GemmBackend*> chosen_backends(const RunConfig& config) {
  if (config.backends.empty()) return gemm_backends();
  std::vector<const GemmBackend*> out;
  for (const std::string& name : config.backends) {
    const GemmBackend* b = find_gemm_backend(name);
    if (b == nullptr) {
      const auto known_names = known_gemm_backend_names();
      const bool known = std::find(known_names.begin(), known_names.end(), name) != known_names.end();
      throw InputError(fmt::format("--backends: '{}' {} (built: {})", name,
                                   known ? "is not built in (its library was not found at configure time)"
                                         : "is not a GEMM backend",
                                   built_backend_names()));
    }
    out.push_back(b);
  }
  return out;
}

// Precisions each backend runs by default: all of them in full, its quick plan's in quick.
std::vector<Precision> default_precisions(const GemmBackend& b, bool quick) {
  if (quick && !b.quick_plan().precisions.empty()) return b.quick_plan().precisions;
  return b.precisions();
}

int quick_large_batch(const GemmQuickPlan& q, Precision p) {
  for (const auto& [precision, batch] : q.large_batch_for) {
    if (precision == p) return batch;
  }
  return q.large_batch;
}

std::vector<int> subset(const std::vector<int>& all, std::initializer_list<int> wanted) {
  std::vector<int> out;
  for (int n : wanted) {
    if (std::find(all.begin(), all.end(), n) != all.end()) out.push_back(n);
  }
  if (out.empty()) out.push_back(all.front());
  return out;
}

// The planning ridge of a group: its planning rate over the planning DRAM rate (FLOP or op per byte).
double planning_ridge(const GemmGroup& g, const IsaFeatures& isa) {
  return planning_ops_per_thread(g.precision, isa) * g.threads / kPlanningDramBytesPerSecond;
}

bool compute_bound_by_construction(const GemmGroup& g, std::int64_t side, int n, const IsaFeatures& isa) {
  return gemm_arithmetic_intensity(GemmShape{side, n, side}, g.precision) >= kComputeBoundRidgeFactor * planning_ridge(g, isa);
}

// The compute shape's side for these batches (see plan_gemm in gemm_plan.hpp); 0: none smaller than the DRAM shape.
std::int64_t compute_side(const GemmGroup& g, const std::vector<int>& batches, double fill_s, const IsaFeatures& isa) {
  const double target = planning_ops_per_thread(g.precision, isa) * g.threads * fill_s;
  const std::int64_t dram_side = std::min(g.m, g.k);
  for (std::int64_t side = 1024; side < dram_side; side += 512) {
    if (gemm_operations(GemmShape{side, batches.back(), side}) < target) continue;
    const bool bound = std::all_of(batches.begin(), batches.end(),
                                   [&](int n) { return compute_bound_by_construction(g, side, n, isa); });
    if (bound) return side;
  }
  return 0;
}

// A group at the DRAM shape, split: its batches compute-bound by construction go to a group of the compute shape.
void add_group(std::vector<GemmGroup>& groups, GemmGroup g, double fill_s, const IsaFeatures& isa) {
  std::vector<int> memory, compute;
  for (int n : g.batches) {
    (n > 1 && compute_bound_by_construction(g, std::min(g.m, g.k), n, isa) ? compute : memory).push_back(n);
  }
  const std::int64_t side = compute.empty() ? 0 : compute_side(g, compute, fill_s, isa);
  if (side == 0 || memory.empty()) {
    groups.push_back(std::move(g));
    return;
  }
  GemmGroup c = g;
  c.batches = compute;
  c.m = c.k = side;
  c.compute_shape = true;
  g.batches = memory;
  groups.push_back(std::move(g));
  groups.push_back(std::move(c));
}

// Groups of one precision and shape back to back, in the order of the first of them; within them, those of one thread
// count together (a stable order: otherwise the plan's own).
void order_for_sharing(std::vector<GemmGroup>& groups) {
  using Shape = std::tuple<Precision, std::int64_t, std::int64_t>;
  std::map<Shape, std::size_t> shape_rank;
  std::map<std::tuple<Precision, std::int64_t, std::int64_t, int>, std::size_t> team_rank;
  for (const GemmGroup& g : groups) {
    shape_rank.try_emplace(Shape{g.precision, g.m, g.k}, shape_rank.size());
    team_rank.try_emplace(std::tuple{g.precision, g.m, g.k, g.threads}, team_rank.size());
  }
  auto rank = [&](const GemmGroup& g) {
    return std::pair(shape_rank.at(Shape{g.precision, g.m, g.k}), team_rank.at(std::tuple{g.precision, g.m, g.k, g.threads}));
  };
  std::stable_sort(groups.begin(), groups.end(), [&](const GemmGroup& a, const GemmGroup& b) { return rank(a) < rank(b); });
}

double largest_footprint(const GemmPlan& plan, const RunConfig& config) {
  double most = 0.0;
  for (const GemmGroup& g : plan.groups) most = std::max(most, g.backend->footprint_bytes(gemm_request(plan, g, config)));
  return most;
}

}  // namespace

double planning_ops_per_thread(Precision p, const IsaFeatures& isa) {
  const double fp32 = isa.avx512f ? 48e9 : isa.avx2 && isa.fma ? 24e9 : 6e9;
  switch (p) {
    case Precision::fp64: return fp32 / 2.0;
    case Precision::fp32: return fp32;
    case Precision::int8: return fp32 * (isa.avx512_vnni || isa.avx_vnni || isa.amx_int8 ? 5.0 : 2.0);
    default: return fp32 * (isa.avx512_bf16 || isa.amx_bf16 ? 2.5 : 1.0);  // the 16-bit formats
  }
}

bool gemm_roof_probe_planned(const GemmGroup& g, int n, const IsaFeatures& isa) {
  if (n == 1) return true;
  return gemm_arithmetic_intensity(GemmShape{g.m, n, g.k}, g.precision) < kComputeBoundRidgeFactor * planning_ridge(g, isa);
}

std::vector<int> default_gemm_batches() {
  std::vector<int> out;
  for (int n = 1; n <= 1024; n *= 2) out.push_back(n);
  return out;
}

std::string gemm_spec_name(const GemmGroup& g, int n) {
  BenchmarkKey key = gemm_group_key(g);
  key.m = g.m;
  key.k = g.k;
  key.batch = n;
  return benchmark_name(key);
}

BenchmarkKey gemm_group_key(const GemmGroup& g) {
  BenchmarkKey key("gemm", {std::string(g.backend->name()), std::string(to_string(g.precision))});
  key.threads = g.threads;
  return key;
}

GemmRequest gemm_request(const GemmPlan& plan, const GemmGroup& group, const RunConfig& config) {
  GemmRequest r;
  (void)plan;
  r.m = group.m;
  r.k = group.k;
  r.max_n = group.batches.back();
  r.precision = group.precision;
  r.threads = group.threads;
  r.features = config.features;
  return r;
}

GemmPlan plan_gemm(const RunConfig& config, double cache_bytes, const std::string& cache_source) {
  GemmPlan plan;
  if (config.gemm_m > 0 && config.gemm_k > 0) {
    plan.m = config.gemm_m;
    plan.k = config.gemm_k;
    plan.shape_from_user = true;
    plan.shape_source = "--gemm-shape";
  }
  const bool sized = !plan.shape_from_user && cache_bytes > 0.0;
  const bool quick_profile = config.profile != Profile::full;
  if (sized) {
    plan.cache_bytes = cache_bytes;
    plan.shape_source = fmt::format("{}x the largest cache ({}, {})", kGemmCacheFactor, format_bytes(cache_bytes),
                                    cache_source);
  }
  const bool user_batches = !config.batches.empty();
  const std::vector<int> batches = user_batches ? config.batches : default_gemm_batches();
  const bool quick = !profile_settings(config.profile).gemm.every_batch;
  const std::vector<int> threads = config.thread_counts.empty() ? std::vector<int>{1} : config.thread_counts;
  const int all = threads.back();
  const double fill_s = profile_settings(config.profile).gemm.compute_fill_s;

  for (const GemmBackend* backend : chosen_backends(config)) {
    const GemmQuickPlan q = backend->quick_plan();
    for (Precision p : default_precisions(*backend, quick)) {
      for (int t : threads) {
        GemmGroup g{backend, p, t, batches, plan.m, plan.k};
        // quick: the least side 4x the cache; full: the default unless 4x the cache needs more.
        if (sized) g.m = g.k = quick_profile ? quick_gemm_side(cache_bytes, p) : std::max(kDefaultGemmM, quick_gemm_side(cache_bytes, p));
        if (quick && !user_batches) {
          const bool curve = q.fp32_sweep && p == Precision::fp32;
          if (!(curve && t == all)) {
            if (t != all && !curve) continue;
            g.batches = subset(batches, {1, quick_large_batch(q, p)});
          }
        }
        if (plan.shape_from_user) plan.groups.push_back(std::move(g));
        else add_group(plan.groups, std::move(g), fill_s, config.features);
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
      bool reduced = false;
      while (largest_footprint(plan, config) > budget) {
        bool any = false;
        for (GemmGroup& g : plan.groups) {
          if (g.k > 256 && g.backend->footprint_bytes(gemm_request(plan, g, config)) > budget) {
            g.k /= 2;
            any = true;
          }
        }
        if (!any) break;
        reduced = true;
      }
      if (reduced) {
        plan.notes.push_back(fmt::format("gemm: weight shapes reduced in K (by halves) to fit the memory budget of {}",
                                         format_bytes(budget)));
      }
    }
  }
  order_for_sharing(plan.groups);
  return plan;
}

std::vector<GemmOperandShare> gemm_operand_shares(const GemmPlan& plan) {
  std::vector<GemmOperandShare> shares;
  for (std::size_t i = 0; i < plan.groups.size(); ++i) {
    const GemmGroup& g = plan.groups[i];
    const std::int64_t max_n = g.batches.empty() ? 1 : g.batches.back();
    if (!shares.empty()) {
      const GemmGroup& previous = plan.groups[i - 1];
      const bool same = previous.precision == g.precision && previous.m == g.m && previous.k == g.k &&
                        (plan.share_across_threads || previous.threads == g.threads);
      if (same) {
        GemmOperandShare& s = shares.back();
        s.last = i;
        s.max_n = std::max(s.max_n, max_n);
        s.threads = std::max(s.threads, g.threads);
        continue;
      }
    }
    shares.push_back({i, i, max_n, g.threads});
  }
  return shares;
}

}  // namespace roofline
