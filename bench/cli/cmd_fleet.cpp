// `roofline fleet RESULTS... [--html F] [--json F] [--markdown F] [--below-median PCT]`: the fleet analysis
// (analysis/fleet/fleet.cpp) on per-node results files gathered any way, or on fleet files from `run --mpi`.
// Exit 0: every node in line; 1: a node flagged or a rank failed; 2: bad input (nothing written). Also the
// end of `run --mpi` on rank 0: the fleet file, its report and summary.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "conventions.hpp"
#include "roofline/fleet/fleet.hpp"
#include "roofline/common/errors.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path report_path(const fs::path& fleet_file) {
  fs::path html = fleet_file;
  html.replace_extension(".html");
  return html;
}

// "rank 1 (node-b): compute/fma/fp32/avx512/threads:2: wrong result" for each failed benchmark.
std::vector<std::string> validation_failures(const std::vector<FleetNode>& nodes) {
  std::vector<std::string> out;
  for (const FleetNode& n : nodes) {
    if (!n.ok) continue;
    for (const BenchmarkEntry& e : n.results.benchmarks) {
      if (e.error_occurred.value_or(false)) {
        out.push_back(fmt::format("{}: {}: {}", n.source, e.name.value_or("?"), e.error_message.value_or("")));
      }
    }
  }
  return out;
}

}  // namespace

void check_fleet_destinations(const fs::path& out, bool report, Overwrite overwrite) {
  check_destination(out, overwrite, "--out");
  if (report) check_destination(report_path(out), overwrite, "report");
}

int finish_fleet_run(const FleetDocument& fleet, const fs::path& out, bool report, Overwrite overwrite, bool quiet) {
  write_file_atomically(out, to_json(fleet).dump(2) + "\n", overwrite);
  std::vector<FleetNode> nodes = fleet_nodes(fleet, out.string());
  const std::vector<std::string> failures = validation_failures(nodes);
  FleetOptions options;
  options.strict = false;  // the run's flags may leave out suites: say so instead of failing the gather
  const FleetAnalysis analysis = analyze_fleet(std::move(nodes), options);
  if (report) write_file_atomically(report_path(out), render_fleet_html(analysis), overwrite);
  if (!quiet) {
    std::fputs(render_fleet_text(analysis).c_str(), stdout);
    std::printf("\nfleet    %s\n", out.string().c_str());
    if (report) std::printf("report   %s\n", report_path(out).string().c_str());
  }
  for (const std::string& f : failures) std::fprintf(stderr, "roofline: FAILED %s\n", f.c_str());
  for (const FleetNode& n : analysis.nodes) {
    if (!n.ok) std::fprintf(stderr, "roofline: rank %d (%s) failed: %s\n", n.rank.value_or(-1), n.name.c_str(), n.error.c_str());
  }
  return failures.empty() && analysis.failed_count() == 0 ? kExitOk : kExitFailure;
}

void add_fleet_command(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand("fleet", "Compare nodes' results (per-node files or fleet files): flag slow nodes "
                                          "and say why; exit 1 when a node is flagged");
  struct Args {
    std::vector<std::string> files;
    std::string html, json_out, markdown, below_median = "5";
    bool force = false;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("RESULTS", args->files, "Results files (one per node) and/or fleet files from `run --mpi`")->required();
  cmd->add_option("--html", args->html, "Write the fleet report (self-contained HTML) to FILE (- : stdout)")->type_name("FILE");
  cmd->add_option("--json", args->json_out, "Write the analysis as JSON to FILE (- : stdout)")->type_name("FILE");
  cmd->add_option("--markdown", args->markdown, "Write the analysis as Markdown (CI step summary) to FILE (- : stdout)")
      ->type_name("FILE");
  cmd->add_option("--below-median", args->below_median,
                  "Flag a node whose figure is more than this percent below its group's median")
      ->type_name("PCT")
      ->capture_default_str();
  add_deprecated_alias(cmd, "--threshold", "--below-median", args->below_median);
  cmd->add_flag("--force", args->force, "Overwrite the --html, --json and --markdown files if they exist");
  cmd->callback([args, cmd, &state] {
    for (const char* flag : {"--html", "--json", "--markdown", "--below-median", "--threshold"}) {
      const CLI::Option* opt = cmd->get_option(flag);
      if (opt->count() > 0 && opt->as<std::string>().find_first_not_of(' ') == std::string::npos) {
        throw InputError(fmt::format("{}: empty value", flag));
      }
    }
    FleetOptions options;
    options.threshold = parse_percent("--below-median", args->below_median);
    const Overwrite overwrite = args->force ? Overwrite::yes : Overwrite::no;
    const bool table = !stdout_taken({{"--html", args->html}, {"--json", args->json_out}, {"--markdown", args->markdown}});
    if (!args->html.empty()) check_output(args->html, overwrite, "--html");
    if (!args->json_out.empty()) check_output(args->json_out, overwrite, "--json");
    if (!args->markdown.empty()) check_output(args->markdown, overwrite, "--markdown");

    std::vector<fs::path> files(args->files.begin(), args->files.end());
    // Everything is read and analysed before anything is written: bad input leaves no file behind.
    const FleetAnalysis analysis = analyze_fleet(load_fleet_inputs(files), options);
    const std::string html = args->html.empty() ? "" : render_fleet_html(analysis);
    const std::string json_text = args->json_out.empty() ? "" : fleet_to_json(analysis).dump(2) + "\n";
    const std::string markdown = args->markdown.empty() ? "" : render_fleet_markdown(analysis);
    if (!args->html.empty()) write_output(args->html, html, overwrite);
    if (!args->json_out.empty()) write_output(args->json_out, json_text, overwrite);
    if (!args->markdown.empty()) write_output(args->markdown, markdown, overwrite);
    if (table) write_output(kStdout, render_fleet_text(analysis), overwrite);
    state.exit_code = analysis.exit_code();
  });
}

}  // namespace roofline::cli
