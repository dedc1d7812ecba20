// The CPU's GEMV/GEMM points as placement.cpp places them: the gemm suite's repetitions gathered per (backend,
// precision, threads, batch, shape), and the engine each ran on. Private to roofline::model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analysis/roof_now.hpp"

namespace roofline::placement_detail {

struct Point {
  std::string backend, precision, kernel, implementation;
  int threads = 0;
  long long batch = 0, m = 0, k = 0;
  double ai = 0.0, a_bytes = 0.0, b_bytes = 0.0, c_bytes = 0.0;
  std::vector<double> values, latencies;
  std::optional<RoofNow> roof_now;  // the probes around its repetitions (roof_now.hpp), when the target took them
};

// Collects the gemm suite's repetitions into points, ordered by (backend, precision, threads, batch, m, k); counts
// the failed ones in `failed`.
std::vector<Point> collect_points(const nlohmann::json& results, int& failed);

// The engine a point ran on: "matrix" when its implementation names AMX (oneDNN's "brg:avx512_core_amx_bf16"
// and the like), else "vector".
std::string engine_that_ran(const Point& p);

}  // namespace roofline::placement_detail
