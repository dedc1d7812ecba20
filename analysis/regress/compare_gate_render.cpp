// Rendering the key-figure gate: the table of figures with their thresholds and where those came from,
// the environment of each run, and the verdict line (last, so that a CI log's tail shows it). Text,
// Markdown (escaped) and JSON. See compare_gate.hpp.
#include <cmath>

#include <fmt/format.h>

#include "roofline/report/html_escape.hpp"
#include "roofline/regress/compare_gate.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

namespace {
// The first level's start is said on a line of its own: a boundary between levels it is not (compare_levels.hpp).
constexpr const char* kLevelStartMoved =
    "first level's start moved (its smallest sizes are bound by per-call overhead; not a boundary between levels)";
constexpr const char* kLevelStartMovedTitle =
    "First level's start moved (its smallest sizes are bound by per-call overhead; not a boundary between levels)";
}  // namespace
namespace {
using nlohmann::json;

using Cells = std::vector<std::string>;

bool paired(const Gate& g) { return !g.figures.empty() && g.figures.front().rounds > 0; }

// Paired rows (compare_paired.cpp): the estimate, its interval and the smallest regression the rounds could call
// stand where the two-run gate has its threshold and p-value. Weighed against the libc canaries (issue 59, two runs):
// a column of each figure's change with its canary's move divided out.
Cells header(const Gate& g) {
  if (paired(g)) return {"Key figure", "Base", "New", "Ratio", "Interval", "Detectable", "Rounds", "Verdict"};
  Cells h{"Key figure", "Base", "New", "Change", "Threshold", "p", "From", "Verdict"};
  if (g.weighed) h.insert(h.begin() + 4, "Adjusted");
  return h;
}

std::string ratio_percent(double ratio) { return fmt::format("{:+.1f}%", (ratio - 1.0) * 100.0); }

Cells cells(const Gate& g, const FigureRow& r, bool loud) {
  const std::string verdict = loud && (r.verdict == Verdict::regression || r.verdict == Verdict::undecided)
                                  ? (r.verdict == Verdict::regression ? "REGRESSION" : "UNDECIDED")
                                  : std::string(to_string(r.verdict));
  if (r.rounds > 0) {
    return {r.figure.id,
            format_si(r.base, r.figure.unit),
            format_si(r.next, r.figure.unit),
            ratio_percent(r.ratio),
            r.has_interval ? fmt::format("[{}, {}]", ratio_percent(r.ratio_lower), ratio_percent(r.ratio_upper)) : "-",
            std::isfinite(r.detectable) ? fmt::format("{:.1f}%", r.detectable * 100.0) : "-",
            std::to_string(r.rounds),
            verdict};
  }
  std::string from = r.rounds > 0 ? std::to_string(r.rounds)
                     : r.threshold_source.rfind("history", 0) == 0 || r.threshold_source.find("(history") != std::string::npos
                         ? "history"
                         : "base";
  Cells c{r.figure.id,
          format_si(r.base, r.figure.unit),
          format_si(r.next, r.figure.unit),
          fmt::format("{:+.1f}%", r.change * 100.0),
          fmt::format("{:.1f}%", r.threshold * 100.0),
          r.p_value ? fmt::format("{:.2g}", *r.p_value) : "-",
          from,
          verdict};
  if (g.weighed) c.insert(c.begin() + 4, r.canary.empty() ? "-" : fmt::format("{:+.1f}%", r.adjusted_change * 100.0));
  return c;
}

json environment_json(const EnvironmentCheck& e) {
  if (!e.recorded) return nullptr;
  json j = {{"libc_canaries", e.libc}, {"steal", e.steal}, {"canary_drift", e.canary_drift}, {"canary", e.canary}, {"clock_drift", e.clock_drift},
            {"core_canary", e.core_canary}, {"core_canary_drift", e.core_canary_drift}};
  for (const auto& [key, flag] : {std::pair{"disturbed", e.disturbed}, std::pair{"cpu_disturbed", e.cpu_disturbed},
                                   std::pair{"memory_disturbed", e.memory_disturbed}, std::pair{"core_disturbed", e.core_disturbed}}) {
    j[key] = flag;
  }
  j["why"] = e.why;
  return j;
}

}  // namespace

std::string render_gate_text(const Gate& g) {
  std::vector<Cells> rows{header(g)};
  for (const FigureRow& r : g.figures) rows.push_back(cells(g, r, true));
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const Cells& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out = g.method_line + "\n\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      const bool numeric = i >= 1 && i <= (g.weighed ? 6u : 5u);
      line += numeric ? fmt::format("{:>{}}  ", rows[r][i], width[i]) : fmt::format("{:<{}}  ", rows[r][i], width[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (r == 0) out += std::string(line.size(), '-') + "\n";
  }
  for (const FigureRow& r : g.figures) {
    if (r.verdict == Verdict::regression || r.verdict == Verdict::unclear || r.verdict == Verdict::undecided) {
      out += fmt::format("  {} {}: {}\n", r.figure.id, to_string(r.verdict), r.why);
    }
  }
  if (!g.only_in_base.empty()) out += fmt::format("key figures only in base (not gated): {}\n", fmt::join(g.only_in_base, ", "));
  if (!g.only_in_next.empty()) out += fmt::format("key figures only in new (not gated): {}\n", fmt::join(g.only_in_next, ", "));
  if (!g.not_comparable.empty()) {
    out += fmt::format("key figures taken differently (not gated): {}\n", fmt::join(g.not_comparable, ", "));
  }
  for (const std::string& l : g.level_changes) out += fmt::format("level boundary moved (not a bandwidth change): {}\n", l);
  for (const std::string& l : g.level_starts) out += fmt::format("{}: {}\n", kLevelStartMoved, l);
  for (const std::string& l : g.aligned_figures) out += fmt::format("like with like: {}\n", l);
  if (g.weighed) {
    out += fmt::format("canaries (glibc's memcpy; each figure's Adjusted change has its class's canary move divided out): {}\n",
                       g.canaries);
    if (g.memory_disturbed) out += fmt::format("DRAM canary erratic: {}: shared-memory figures not trusted unless far beyond it\n", g.memory_why);
    if (g.core_disturbed) out += fmt::format("core canary erratic: {}: core-bound figures not trusted unless far beyond it\n", g.core_why);
  } else {
    if (g.memory_disturbed) out += fmt::format("memory environment moved: {}: shared-memory figures not trusted\n", g.memory_why);
    if (g.core_disturbed) out += fmt::format("cores' throughput moved: {}: core-bound figures not trusted\n", g.core_why);
  }
  out += g.verdict_line + "\n";
  return out;
}

std::string render_gate_markdown(const Gate& g) {
  std::string out = fmt::format("**{}**\n\n{}\n\n", markdown_escape(g.verdict_line), markdown_escape(g.method_line));
  const Cells h = header(g);
  out += "|";
  for (const auto& c : h) out += " " + c + " |";
  out += g.weighed ? "\n|---|--:|--:|--:|--:|--:|--:|---|---|\n" : "\n|---|--:|--:|--:|--:|--:|---|---|\n";
  for (const FigureRow& r : g.figures) {
    Cells c = cells(g, r, false);
    out += "|";
    for (std::size_t i = 0; i < c.size(); ++i) {
      const std::string cell = markdown_escape(c[i]);
      out += " " + (i + 1 == c.size() && r.verdict == Verdict::regression ? "**" + cell + "**" : cell) + " |";
    }
    out += "\n";
  }
  if (!g.not_comparable.empty()) {
    out += fmt::format("\nKey figures taken differently (not gated): {}\n", markdown_escape(fmt::format("{}", fmt::join(g.not_comparable, ", "))));
  }
  for (const std::string& l : g.level_changes) {
    out += fmt::format("\nLevel boundary moved (not a bandwidth change): {}\n", markdown_escape(l));
  }
  for (const std::string& l : g.level_starts) out += fmt::format("\n{}: {}\n", kLevelStartMovedTitle, markdown_escape(l));
  for (const std::string& l : g.aligned_figures) out += fmt::format("\nLike with like: {}\n", markdown_escape(l));
  if (g.weighed) {
    out += fmt::format("\nCanaries (glibc's memcpy; Adjusted: the change with its class's canary move divided out): {}\n",
                       markdown_escape(g.canaries));
  } else if (g.memory_disturbed) {
    out += fmt::format("\nMemory environment moved: {}: shared-memory figures not trusted.\n", markdown_escape(g.memory_why));
  }
  return out;
}

json gate_to_json(const Gate& g) {
  json figures = json::array();
  for (const FigureRow& r : g.figures) {
    figures.push_back({{"id", r.figure.id},
                       {"group", r.figure.group},
                       {"label", r.figure.label},
                       {"statistic", r.figure.statistic},
                       {"shared_memory", r.figure.shared_memory},
                       {"trusted", r.trusted},
                       {"threads", r.figure.threads},
                       {"unit", r.figure.unit},
                       {"higher_is_better", r.figure.higher_is_better},
                       {"base", r.base},
                       {"new", r.next},
                       {"reference", r.reference},
                       {"change", r.change},
                       {"canary", r.canary.empty() ? json(nullptr) : json(r.canary)},
                       {"canary_change", r.canary_change},
                       {"adjusted_change", r.adjusted_change},
                       {"threshold", r.threshold},
                       {"threshold_source", r.threshold_source},
                       {"p_value", r.p_value ? json(*r.p_value) : json(nullptr)},
                       {"rounds", r.rounds},
                       {"ratio", r.rounds > 0 ? json(r.ratio) : json(nullptr)},
                       {"interval", r.has_interval ? json::array({r.ratio_lower, r.ratio_upper}) : json(nullptr)},
                       {"bound_error", r.rounds > 0 ? json(r.gamma) : json(nullptr)},
                       {"detectable", r.rounds > 0 && std::isfinite(r.detectable) ? json(r.detectable) : json(nullptr)},
                       {"regression_interval", r.has_family_interval ? json::array({r.family_lower, r.family_upper}) : json(nullptr)},
                       {"round_ratios", r.round_ratios},
                       {"verdict", to_string(r.verdict)},
                       {"why", r.why}});
  }
  return {{"outcome", to_string(g.outcome)},
          {"verdict_line", g.verdict_line},
          {"method", g.method_line},
          {"history_used", g.history_used},
          {"history_runs", g.history_runs},
          {"figures", figures},
          {"only_in_base", g.only_in_base},
          {"only_in_new", g.only_in_next},
          {"not_comparable", g.not_comparable},
          {"level_changes", g.level_changes},
          {"level_start_changes", g.level_starts},
          {"aligned_figures", g.aligned_figures},
          {"weighed", g.weighed},
          {"canaries", g.canaries},
          {"memory_environment", {{"disturbed", g.memory_disturbed}, {"canary_shift", g.canary_shift}, {"why", g.memory_why}}},
          {"core_environment", {{"disturbed", g.core_disturbed}, {"core_canary_shift", g.core_shift}, {"why", g.core_why}}},
          {"base_environment", environment_json(g.base_environment)},
          {"new_environment", environment_json(g.next_environment)}};
}

}  // namespace roofline
