// TEMPORARY STUB of the lead's key_figures() (see key_figures.hpp); replaced by main's file at merge.
#include "roofline/analysis/key_figures.hpp"

#include <map>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline {
inline namespace key_figures_stub {
using nlohmann::json;

std::vector<KeyFigure> key_figures(const json& results) {
  if (!results.contains("roofline") || !results["roofline"].is_object()) throw InputError("no roofline section");
  const json& r = results["roofline"];
  std::vector<KeyFigure> out;
  for (const json& m : r.value("memory_ceilings", json::array())) {
    const std::string kernel = m.value("kernel", "");
    if (kernel != "read" && kernel != "triad") continue;
    const std::string level = m.value("level", "");
    const int t = m.value("threads", 0);
    out.push_back({fmt::format("memory/{}/{}/threads:{}", level, kernel, t), "memory",
                   fmt::format("{} {}", level, kernel), t, m.value("value", 0.0), "B/s", true});
  }
  std::map<int, double> clock;
  for (const json& c : r.value("compute_ceilings", json::array())) {
    const std::string p = c.value("precision", ""), engine = c.value("engine", "vector");
    const int t = c.value("threads", 0);
    out.push_back({fmt::format("compute/{}/{}/threads:{}", p, engine, t), "compute", fmt::format("{} {}", p, engine), t,
                   c.value("value", 0.0), c.value("unit", "FLOP/s"), true});
    if (c.contains("clock_hz")) clock[t] = std::max(clock[t], c.value("clock_hz", 0.0));
  }
  for (const auto& [t, hz] : clock) out.push_back({fmt::format("clock/threads:{}", t), "clock", "clock", t, hz, "Hz", true});
  std::map<std::pair<std::string, int>, int> max_batch;
  for (const json& p : r.value("placements", json::array())) {
    auto& b = max_batch[{p.value("precision", ""), p.value("threads", 0)}];
    b = std::max(b, p.value("batch", 0));
  }
  std::map<std::string, KeyFigure> best;
  for (const json& p : r.value("placements", json::array())) {
    const std::string prec = p.value("precision", "");
    const int t = p.value("threads", 0), batch = p.value("batch", 0);
    for (const char* which : {"1", "max"}) {
      const bool is_one = std::string(which) == "1";
      if ((is_one && batch != 1) || (!is_one && batch != max_batch[{prec, t}])) continue;
      const std::string id = fmt::format("gemm/{}/batch:{}/threads:{}", prec, which, t);
      const double v = p.value("value", 0.0);
      if (!best.count(id) || best[id].value < v)
        best[id] = {id, "gemm", fmt::format("GEMM {} batch {}", prec, is_one ? "1" : std::to_string(batch)), t, v,
                    p.value("unit", "FLOP/s"), true};
    }
  }
  for (auto& [id, f] : best) out.push_back(f);
  if (out.empty()) throw InputError("the roofline section has no ceilings");
  return out;
}

}  // namespace key_figures_stub
}  // namespace roofline
