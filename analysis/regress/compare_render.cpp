// Rendering a Comparison: an aligned terminal table, Markdown for a CI step summary or PR comment, and
// JSON for other tools. See compare.hpp.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/regress/compare.hpp"
#include "roofline/report/html_escape.hpp"
#include "roofline/common/units.hpp"

namespace roofline {
namespace {
using nlohmann::json;

// Times get ns/us/ms/s; rates an SI prefix.
std::string format_value(double v, const std::string& unit) {
  if (unit != "s" || !std::isfinite(v) || v <= 0.0) return format_si(v, unit);
  const auto [scaled, name] = v < 1e-6 ? std::pair{v * 1e9, "ns"} : v < 1e-3 ? std::pair{v * 1e6, "us"}
                              : v < 1.0  ? std::pair{v * 1e3, "ms"} : std::pair{v, "s"};
  const int decimals = scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2;  // 3 significant digits
  return fmt::format("{:.{}f} {}", scaled, decimals, name);
}

std::string format_change(double change) { return fmt::format("{:+.1f}%", change * 100.0); }

std::string format_p(const std::optional<double>& p) { return p ? fmt::format("{:.4f}", *p) : "-"; }

std::string format_reps(const CompareRow& r) {
  if (r.kind != RowKind::benchmark) return "-";
  return fmt::format("{} vs {}", r.base_repetitions, r.next_repetitions);
}

std::string verdict_text(const CompareRow& r, bool loud) {
  std::string v = r.verdict == Verdict::regression && loud ? "REGRESSION" : std::string(to_string(r.verdict));
  if (r.kind == RowKind::benchmark && r.low_confidence) v += " (low confidence)";
  return v;
}

std::string run_line(const RunInfo& run) {
  std::string s = run.path;
  std::vector<std::string> bits;
  if (!run.git_revision.empty()) bits.push_back("rev " + run.git_revision);
  if (!run.date.empty()) bits.push_back(run.date);
  if (run.kind == ResultsKind::google_benchmark) bits.push_back("plain Google Benchmark JSON");
  if (!bits.empty()) s += " (" + fmt::format("{}", fmt::join(bits, ", ")) + ")";
  return s;
}

int figure_count(const Gate& g, Verdict verdict) {
  return static_cast<int>(
      std::count_if(g.figures.begin(), g.figures.end(), [&](const FigureRow& r) { return r.verdict == verdict; }));
}

std::string summary_line(const Comparison& c) {
  if (c.gate) {
    const auto n = [&](Verdict v) { return figure_count(*c.gate, v); };
    return fmt::format("{} regression(s), {} improvement(s) among {} key figures in common; {} benchmarks shown ({} only in "
                       "base, {} only in new)",
                       n(Verdict::regression), n(Verdict::improvement), c.gate->figures.size(), c.rows.size(), c.only_in_base.size(),
                       c.only_in_next.size());
  }
  const int benchmarks = static_cast<int>(std::count_if(c.rows.begin(), c.rows.end(),
                                                        [](const CompareRow& r) { return r.kind == RowKind::benchmark; }));
  return fmt::format("{} regression(s), {} improvement(s) among {} benchmarks in common; {} only in base, {} only in new",
                     c.count(Verdict::regression, true), c.count(Verdict::improvement, true), benchmarks,
                     c.only_in_base.size(), c.only_in_next.size());
}

std::string method_line(const Comparison& c) {
  return fmt::format("{}threshold {:g}%, alpha {:g} (two-sided Mann-Whitney U on the repetitions); fewer than {} "
                     "repetitions: threshold alone (low confidence)",
                     c.gate ? "benchmark rows: " : "", c.options.threshold * 100.0, c.options.alpha, kConfidentRepetitions);
}

using Cells = std::vector<std::string>;
const Cells kHeader{"Benchmark", "Metric", "Base", "New", "Change", "p-value", "Reps", "Verdict"};

Cells cells(const CompareRow& r, bool loud) {
  return {r.name, r.metric, format_value(r.base, r.unit), format_value(r.next, r.unit), format_change(r.change),
          format_p(r.p_value), format_reps(r), verdict_text(r, loud)};
}

std::string text_table(const std::vector<Cells>& rows) {
  std::vector<std::size_t> width(kHeader.size());
  for (const Cells& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      const bool numeric = i >= 2 && i <= 5;  // right-align numbers
      line += numeric ? fmt::format("{:>{}}  ", rows[r][i], width[i]) : fmt::format("{:<{}}  ", rows[r][i], width[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (r == 0) {
      std::size_t total = 0;
      for (std::size_t w : width) total += w + 2;
      out += std::string(total - 2, '-') + "\n";
    }
  }
  return out;
}

std::string md_escape(const std::string& s) { return markdown_escape(s); }

// A PR comment holds at most 65536 characters: each Markdown table stops after this many rows and says
// so (the text and JSON outputs always have every row).
constexpr std::size_t kMarkdownMaxRows = 120;

std::string md_table(const std::vector<const CompareRow*>& rows, const char* first = "Benchmark") {
  std::string out = fmt::format("| {} | Metric | Base | New | Change | p-value | Reps | Verdict |\n"
                                "|---|---|--:|--:|--:|--:|--:|---|\n",
                                first);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i == kMarkdownMaxRows) {
      out += fmt::format("\n_... and {} more rows: see `roofline compare` without --markdown, or --json._\n",
                         rows.size() - i);
      break;
    }
    const CompareRow* r = rows[i];
    Cells c = cells(*r, false);
    if (r->verdict == Verdict::regression) c[7] = fmt::format("**{}**", c[7]);
    out += "|";
    for (std::size_t k = 0; k < c.size(); ++k) out += fmt::format(" {} |", k == 7 ? c[k] : md_escape(c[k]));
    out += "\n";
  }
  return out;
}

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::string rows_title(const Comparison& c) {
  return c.gate ? "report only: the key figures gate" : "report only, not gated";
}

}  // namespace


std::string render_compare_text(const Comparison& c) {
  std::string out;
  if (!c.same_machine) {  // first, before anything else is read
    out += fmt::format("WARNING: the runs come from different machines or builds{}:\n",
                       c.options.allow_machine_mismatch ? "" : "; not gated");
    for (const auto& d : c.machine_differences) out += "  " + d + "\n";
  }
  out += fmt::format("base: {}\nnew:  {}\n", run_line(c.base), run_line(c.next));
  if (!c.configuration_differences.empty()) {
    out += fmt::format("configuration differs (compared; the figures both have are gated): {}\n",
                       fmt::join(c.configuration_differences, "; "));
  }
  out += method_line(c) + "\n\n";
  std::vector<Cells> bench{kHeader}, ceilings{kHeader};
  for (const CompareRow& r : c.rows) (r.kind == RowKind::benchmark ? bench : ceilings).push_back(cells(r, true));
  out += text_table(bench);
  if (ceilings.size() > 1) {
    out += fmt::format("\nCeilings and placements ({}):\n", rows_title(c));
    ceilings[0][0] = "Ceiling";
    out += text_table(ceilings);
  }
  for (const auto& n : c.notes) out += "note: " + n + "\n";
  out += "\n" + summary_line(c) + "\n";
  if (c.gate) out += "\nKey figures (the gate):\n" + render_gate_text(*c.gate);
  return out;
}

std::string render_compare_markdown(const Comparison& c) {
  const int regressions = c.gate ? figure_count(*c.gate, Verdict::regression) : c.count(Verdict::regression, true);
  const bool inconclusive = c.gate && c.gate->outcome == Outcome::inconclusive;
  std::string out = fmt::format("## roofline compare: {}\n\n",
                                !c.same_machine && !c.options.allow_machine_mismatch ? ":warning: not gated (different machines)"
                                : inconclusive    ? ":warning: inconclusive"
                                : regressions > 0 ? fmt::format(":x: {} regression(s)", regressions)
                                                  : ":white_check_mark: no regression");
  out += fmt::format("- **Base:** {}\n- **New:** {}\n", md_escape(run_line(c.base)), md_escape(run_line(c.next)));
  if (!c.same_machine) {
    out += "\n> :warning: **The runs come from different machines or builds:**";
    for (const auto& d : c.machine_differences) out += " " + md_escape(d) + ";";
    out += "\n";
  }
  if (!c.configuration_differences.empty()) {
    out += "\n> **Configuration differs** (compared; the figures both have are gated): " +
           md_escape(fmt::format("{}", fmt::join(c.configuration_differences, "; "))) + "\n";
  }
  if (c.gate) out += "\n" + render_gate_markdown(*c.gate);
  out += "\n" + md_escape(summary_line(c)) + ". " + md_escape(method_line(c)) + ".\n\n";

  std::vector<const CompareRow*> changed, benchmarks, ceilings;
  for (const CompareRow& r : c.rows) {
    if (r.kind == RowKind::benchmark) {
      benchmarks.push_back(&r);
      if (r.verdict != Verdict::ok) changed.push_back(&r);
    } else {
      ceilings.push_back(&r);
    }
  }
  // Regressions first, then improvements: what a reviewer must see without opening anything.
  std::stable_sort(changed.begin(), changed.end(), [](const CompareRow* a, const CompareRow* b) {
    return a->verdict == Verdict::regression && b->verdict != Verdict::regression;
  });
  if (!changed.empty()) out += md_table(changed) + "\n";
  out += fmt::format("<details><summary>All {} benchmarks</summary>\n\n{}\n</details>\n", benchmarks.size(),
                     md_table(benchmarks));
  if (!ceilings.empty()) {
    out += fmt::format("\n<details><summary>Ceilings and placements ({})</summary>\n\n{}\n</details>\n", rows_title(c),
                       md_table(ceilings, "Ceiling"));
  }
  for (const auto& n : c.notes) out += "\n_note:_ " + md_escape(n) + "\n";
  return out;
}

json compare_to_json(const Comparison& c) {
  auto run = [](const RunInfo& r) {
    return json{{"path", r.path},
                {"kind", r.kind == ResultsKind::roofline ? "roofline" : "google_benchmark"},
                {"date", r.date},
                {"git_revision", r.git_revision},
                {"host", r.host},
                {"cpu_model", r.cpu_model}};
  };
  json rows = json::array();
  for (const CompareRow& r : c.rows) {
    rows.push_back({{"kind", to_string(r.kind)},
                    {"name", r.name},
                    {"metric", r.metric},
                    {"unit", r.unit},
                    {"higher_is_better", r.higher_better},
                    {"base", r.base},
                    {"new", r.next},
                    {"change", r.change},
                    {"base_repetitions", r.base_repetitions},
                    {"new_repetitions", r.next_repetitions},
                    {"p_value", optional_json(r.p_value)},
                    {"time_pvalue", optional_json(r.time_pvalue)},
                    {"cpu_pvalue", optional_json(r.cpu_pvalue)},
                    {"low_confidence", r.low_confidence},
                    {"significant", r.significant},
                    {"gates", r.gates},
                    {"verdict", to_string(r.verdict)}});
  }
  return json{{"base", run(c.base)},
              {"new", run(c.next)},
              {"threshold", c.options.threshold},
              {"alpha", c.options.alpha},
              {"confident_repetitions", kConfidentRepetitions},
              {"same_machine", c.same_machine},
              {"machine_differences", c.machine_differences},
              {"allow_machine_mismatch", c.options.allow_machine_mismatch},
              {"configuration_differences", c.configuration_differences},
              {"gate", c.gate ? gate_to_json(*c.gate) : json(nullptr)},
              {"verdict", c.gate ? std::string(to_string(c.gate->outcome))
                                 : std::string(c.exit_code() == 1 ? "regression" : "clean")},
              {"rows", rows},
              {"only_in_base", c.only_in_base},
              {"only_in_new", c.only_in_next},
              {"notes", c.notes},
              {"summary", {{"regressions", c.gate ? figure_count(*c.gate, Verdict::regression) : c.count(Verdict::regression, true)},
                           {"improvements", c.gate ? figure_count(*c.gate, Verdict::improvement) : c.count(Verdict::improvement, true)}}},
              {"exit_code", !c.same_machine && !c.options.allow_machine_mismatch ? 2 : c.exit_code()}};
}

}  // namespace roofline
