// `roofline report RESULTS.json`: re-renders a results file, on any machine, long after the run: the HTML
// report (default: RESULTS.html beside the file), the roofline chart as SVG, CSV of every benchmark point,
// the terminal summary (--text), and the results file itself (--json; with --rederive, the repaired file
// with this version's roofline section, so old runs can be compared with new ones); each output FILE may be `-`
// (stdout). With --spec, the datasheet figures are set beside the measured ones (--list-specs: the shipped ones).
// All inputs are read and all destinations checked before anything is written, so bad input leaves no
// half-written output.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "conventions.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/atomic_file.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/report/report.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/report/spec.hpp"
#include "roofline/harness/data_dir.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;

namespace {

struct ReportArgs {
  std::string results;
  std::string html, svg, csv, spec, json;
  bool text = false;
  bool force = false;
  bool rederive = false;
  bool list_specs = false;
};

struct Output {
  fs::path path;
  std::string flag;
  std::string content;
};

void run_report(const ReportArgs& a) {
  // The file is read once, typed; everything below renders the typed document.
  ResultsDocument results = load_results_document(a.results);
  // The roofline section is derived from the benchmarks and context alone, so a newer analysis (a fixed
  // plateau detector, say) can be applied to an old run without measuring again. The derivation reads the typed
  // document and gives the typed section (roofline_section.hpp), which replaces the file's.
  if (a.rederive) results.roofline = derive_roofline(results);
  const std::optional<Spec> spec =
      a.spec.empty() ? std::nullopt : std::optional<Spec>(load_spec(find_data_file("specs", a.spec, "--spec")));

  std::vector<Output> outputs;
  if (!a.html.empty()) outputs.push_back({a.html, "--html", ""});
  if (!a.svg.empty()) outputs.push_back({a.svg, "--svg", ""});
  if (!a.csv.empty()) outputs.push_back({a.csv, "--csv", ""});
  if (!a.json.empty()) outputs.push_back({a.json, "--json", ""});
  if (outputs.empty() && !a.text) {
    fs::path html = a.results;
    html.replace_extension(".html");
    outputs.push_back({html, "report", ""});
  }
  const Overwrite overwrite = a.force ? Overwrite::yes : Overwrite::no;
  std::vector<std::pair<std::string, std::string>> destinations;
  for (const Output& o : outputs) destinations.emplace_back(o.flag, o.path.string());
  if (a.text) destinations.emplace_back("--text", kStdout);
  const bool to_stdout = stdout_taken(destinations);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    check_output(outputs[i].path.string(), overwrite, outputs[i].flag);
    if (outputs[i].path == kStdout) continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (fs::weakly_canonical(outputs[i].path) == fs::weakly_canonical(outputs[j].path)) {
        throw InputError(fmt::format("{} and {} name the same file {}", outputs[j].flag, outputs[i].flag,
                                     outputs[i].path.string()));
      }
    }
    if (fs::weakly_canonical(outputs[i].path) == fs::weakly_canonical(a.results)) {
      throw InputError(fmt::format("{}: {} would overwrite the results file", outputs[i].flag, outputs[i].path.string()));
    }
  }
  // Render everything before writing anything.
  for (Output& o : outputs) {
    if (o.flag == "--svg") o.content = render_svg_chart(results);
    else if (o.flag == "--csv") o.content = render_csv(results);
    else if (o.flag == "--json") o.content = to_json(results).dump(2) + "\n";
    else o.content = render_html_report(results, spec);
  }
  if (a.text) std::fputs(render_text_summary(results, spec).c_str(), stdout);
  warn_roof_violations(results, a.text);
  for (const Output& o : outputs) {
    write_output(o.path.string(), o.content, overwrite);
    if (to_stdout) continue;  // the output on stdout is the whole of stdout
    const char* what = o.flag == "--svg" ? "chart" : o.flag == "--csv" ? "csv" : o.flag == "--json" ? "results" : "report";
    std::printf("%-8s %s\n", what, o.path.string().c_str());
  }
}

}  // namespace

void warn_roof_violations(const ResultsDocument& results, bool summary) {
  // The typed roofline.roof_violations: each row's note, else the row as the records' writer writes it.
  static const std::vector<RoofViolationRecord> kNone;
  const std::vector<RoofViolationRecord>& violations =
      results.roofline && results.roofline->roof_violations ? *results.roofline->roof_violations : kNone;
  for (const RoofViolationRecord& v : violations) {
    const std::string note = v.note ? *v.note : to_json(v).dump();
    std::fprintf(stderr, "roofline: WARNING: %s\n", note.c_str());
  }
  if (!violations.empty() && summary) {
    std::printf("summary  %zu point(s) beat their roof: a ceiling is missing or a count is wrong\n", violations.size());
  }
}

void add_report_command(CLI::App& app, CliState&) {
  auto* cmd = app.add_subcommand("report", "Render a results file: HTML report (default), SVG chart, CSV, text summary");
  auto a = std::make_shared<ReportArgs>();
  cmd->add_option("RESULTS", a->results, "A results file written by `roofline run`");
  cmd->add_option("--html", a->html, "Write the self-contained HTML report to FILE (- : stdout; default: RESULTS.html "
                                     "beside the file)")->type_name("FILE");
  cmd->add_option("--svg", a->svg, "Write the roofline chart alone as SVG to FILE (- : stdout)")->type_name("FILE");
  cmd->add_option("--csv", a->csv, "Write one CSV row per benchmark point, with all counters, to FILE (- : stdout)")
      ->type_name("FILE");
  cmd->add_option("--json", a->json,
                  "Write the results file to FILE (- : stdout; with --rederive: with the re-derived roofline section)")
      ->type_name("FILE");
  cmd->add_option("--spec", a->spec,
                  "Advertised figures to compare with: a spec file (JSON; see analysis/specs/README.md) or the name of "
                  "a shipped one (--list-specs prints them)");
  cmd->add_flag("--list-specs", a->list_specs, "Print the names of the shipped spec files and exit");
  cmd->add_flag("--text", a->text, "Print the summary tables to the terminal");
  cmd->add_flag("--force", a->force, "Overwrite existing output files");
  cmd->add_flag("--rederive", a->rederive,
                "Derive the roofline section again from the file's benchmarks with this version's analysis");
  cmd->callback([a] {
    if (a->list_specs) {
      for (const std::string& name : data_file_names("specs")) std::printf("%s\n", name.c_str());
      return;
    }
    if (a->results.empty()) throw InputError("report: give a RESULTS file (see roofline report --help)");
    run_report(*a);
  });
}

}  // namespace roofline::cli
