// `roofline compare BASE.json NEW.json`: noise-aware comparison of two runs for CI. Exit 0: no regression;
// 1: at least one significant regression; 2: bad input, or runs from different machines without
// --allow-machine-mismatch. Output: a terminal table, --markdown (CI step summary, PR comment) or --json,
// on stdout or atomically into --out.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "roofline/common/atomic_file.hpp"
#include "roofline/analysis/compare.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/analysis/results.hpp"

namespace roofline::cli {

// "5", "5%", "2.5" -> 0.05, 0.05, 0.025 (also fleet's --threshold).
double parse_percent(const std::string& flag, std::string text) {
  if (!text.empty() && text.back() == '%') text.pop_back();
  std::size_t used = 0;
  double value = -1.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !(value >= 0.0 && value < 1000.0)) {
    throw InputError(fmt::format("{}: '{}' is not a percentage between 0 and 1000 (e.g. 5 or 2.5%)", flag, text));
  }
  return value / 100.0;
}

void add_compare_command(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand(
      "compare", "Compare two runs (roofline results or plain Google Benchmark JSON); exit 1 on a regression");
  struct Args {
    std::string base, next, threshold = "5", out;
    double alpha = 0.05;
    bool markdown = false, json = false, force = false, allow_mismatch = false, gate_ceilings = false;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("BASE", args->base, "Baseline results file")->required();
  cmd->add_option("NEW", args->next, "New results file")->required();
  cmd->add_option("--threshold", args->threshold,
                  "Relative change, in percent, a regression must exceed (and be significant)")
      ->capture_default_str();
  cmd->add_option("--alpha", args->alpha, "Significance level of the Mann-Whitney U test")->capture_default_str();
  auto* md = cmd->add_flag("--markdown", args->markdown, "Markdown output (CI step summary, PR comment)");
  cmd->add_flag("--json", args->json, "JSON output")->excludes(md);
  cmd->add_option("--out", args->out, "Write the output to this file (atomically) instead of stdout");
  cmd->add_flag("--force", args->force, "Overwrite --out if it exists");
  cmd->add_flag("--allow-machine-mismatch", args->allow_mismatch,
                "Gate even when the runs come from different machines or builds");
  cmd->add_flag("--gate-ceilings", args->gate_ceilings,
                "Also fail on ceilings and placements beyond the threshold (default: report only)");
  cmd->callback([args, &state] {
    CompareOptions options;
    options.threshold = parse_percent("--threshold", args->threshold);
    options.alpha = args->alpha;
    options.allow_machine_mismatch = args->allow_mismatch;
    options.gate_ceilings = args->gate_ceilings;
    const Overwrite overwrite = args->force ? Overwrite::yes : Overwrite::no;
    if (!args->out.empty()) check_destination(args->out, overwrite, "--out");

    const nlohmann::json base = load_json_file(args->base);
    const nlohmann::json next = load_json_file(args->next);
    const Comparison c = compare_runs(base, args->base, next, args->next, options);

    const std::string output = args->json       ? compare_to_json(c).dump(2) + "\n"
                               : args->markdown ? render_compare_markdown(c)
                                                : render_compare_text(c);
    if (args->out.empty()) {
      std::fwrite(output.data(), 1, output.size(), stdout);
      std::fflush(stdout);
    } else {
      write_file_atomically(args->out, output, overwrite);
    }
    // The report (with the mismatch at its top) is out; now refuse to gate.
    if (!c.same_machine && !options.allow_machine_mismatch) throw InputError(machine_mismatch_error(c));
    state.exit_code = c.exit_code();
  });
}

}  // namespace roofline::cli
