// LOCAL STUB of the lead's key_figures() (see key_figures.hpp); deleted at the merge with main.
#include "roofline/analysis/key_figures.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "roofline/analysis/errors.hpp"

namespace roofline {
using nlohmann::json;

std::vector<KeyFigure> key_figures(const json& results) {
  if (!results.contains("roofline") || !results["roofline"].is_object()) {
    throw InputError("results file has no roofline section: no key figures");
  }
  const json& r = results["roofline"];
  std::vector<KeyFigure> out;
  auto num = [](const json& e, const char* k) { return e.contains(k) && e[k].is_number(); };
  for (const json& e : r.value("memory_ceilings", json::array())) {
    const std::string kernel = e.value("kernel", "");
    if ((kernel != "read" && kernel != "triad") || !num(e, "value")) continue;
    const int t = e.value("threads", 0);
    const std::string level = e.value("level", "");
    out.push_back({fmt::format("memory/{}/{}/threads:{}", level, kernel, t), "memory",
                   fmt::format("{} {}, {} threads", level, kernel, t), t, e["value"].get<double>(), "B/s", true});
  }
  std::map<int, double> clock;
  for (const json& e : r.value("compute_ceilings", json::array())) {
    if (!num(e, "value")) continue;
    const int t = e.value("threads", 0);
    const std::string p = e.value("precision", ""), engine = e.value("engine", "vector");
    out.push_back({fmt::format("compute/{}/{}/threads:{}", p, engine, t), "compute",
                   fmt::format("{} {} peak, {} threads", p, engine, t), t, e["value"].get<double>(),
                   e.value("unit", "FLOP/s"), true});
    if (num(e, "clock_hz")) clock[t] = std::max(clock[t], e["clock_hz"].get<double>());
  }
  for (const auto& [t, hz] : clock) {
    out.push_back({fmt::format("clock/threads:{}", t), "clock", fmt::format("clock, {} threads", t), t, hz, "Hz", true});
  }
  // GEMM: best backend per precision and thread count at batch 1 and at the largest batch.
  std::map<std::pair<std::string, int>, std::pair<const json*, const json*>> best;  // (batch 1, max batch)
  std::map<std::pair<std::string, int>, int> max_batch;
  const json placements = r.value("placements", json::array());
  for (const json& e : placements) {
    if (!num(e, "value")) continue;
    auto& m = max_batch[{e.value("precision", ""), e.value("threads", 0)}];
    m = std::max(m, e.value("batch", 0));
  }
  for (const json& e : placements) {
    if (!num(e, "value")) continue;
    const auto key = std::make_pair(e.value("precision", std::string()), e.value("threads", 0));
    const int batch = e.value("batch", 0);
    auto& [b1, bmax] = best[key];
    auto better = [&](const json* cur) { return cur == nullptr || e["value"].get<double>() > (*cur)["value"].get<double>(); };
    if (batch == 1 && better(b1)) b1 = &e;
    if (batch == max_batch[key] && batch > 1 && better(bmax)) bmax = &e;
  }
  for (const auto& [key, pair] : best) {
    const auto& [p, t] = key;
    if (pair.first != nullptr) {
      out.push_back({fmt::format("gemm/{}/batch:1/threads:{}", p, t), "gemm", fmt::format("GEMV {}, {} threads", p, t), t,
                     (*pair.first)["value"].get<double>(), pair.first->value("unit", "FLOP/s"), true});
    }
    if (pair.second != nullptr) {
      out.push_back({fmt::format("gemm/{}/batch:max/threads:{}", p, t), "gemm",
                     fmt::format("GEMM {} batch {}, {} threads", p, max_batch[key], t), t,
                     (*pair.second)["value"].get<double>(), pair.second->value("unit", "FLOP/s"), true});
    }
  }
  return out;
}

}  // namespace roofline
