// A target's GEMV/GEMM points as placement.cpp places them: the gemm suite's repetitions gathered per (backend,
// precision, engine label, threads, batch, shape), and the engine each ran on. Private to roofline::model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/results_document.hpp"
#include "roofline/model/roof_now.hpp"

namespace roofline::placement_detail {

struct Point {
  std::string backend, precision, kernel, implementation;
  std::string engine_label = "vector";  // the entries' `engine` label (a device's tensor cores say "matrix")
  int threads = 0;                      // 0: the entries name none (a device runs each kernel on all of it)
  long long batch = 0, m = 0, k = 0;
  double ai = 0.0, a_bytes = 0.0, b_bytes = 0.0, c_bytes = 0.0;
  double working_set = 0.0;  // the entries' working_set_bytes counter: the operands' bytes when they name no shape
  std::vector<double> values, latencies;
  std::optional<RoofNow> roof_now;  // the probes around its repetitions (roof_now.hpp), when the target took them
};

// Collects the gemm suite's repetitions of one target's typed document into points, ordered by (backend, precision,
// engine label, threads, batch, m, k); counts the failed ones in `failed`. A bad engine label is InputError.
std::vector<Point> collect_points(const ResultsDocument& results, int& failed);

// The engine a point ran on: "matrix" when its implementation names AMX (oneDNN's "brg:avx512_core_amx_bf16"
// and the like: the library chose at run time), else the engine its labels name ("vector" when none).
std::string engine_that_ran(const Point& p);

}  // namespace roofline::placement_detail
