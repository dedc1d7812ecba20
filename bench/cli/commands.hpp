// The `roofline` subcommands. Each file adds one subcommand to the CLI11 app; its callback throws
// InputError for bad input (main prints one line, exit 2) and sets `exit_code` for other outcomes
// (e.g. compare: 1 on a significant regression).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "roofline/model/results_document.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/harness/measure.hpp"
#include "roofline/common/atomic_file.hpp"

namespace roofline {
struct FleetDocument;
struct MachineFacts;
struct RunConfig;
}  // namespace roofline

namespace roofline::cli {

struct CliState {
  int exit_code = 0;
};

void add_machine_command(CLI::App& app, CliState& state);
void add_run_command(CLI::App& app, CliState& state);
void add_model_command(CLI::App& app, CliState& state);
void add_report_command(CLI::App& app, CliState& state);
void add_compare_command(CLI::App& app, CliState& state);
void add_history_command(CLI::App& app, CliState& state);
void add_llm_command(CLI::App& app, CliState& state);
void add_fleet_command(CLI::App& app, CliState& state);
void add_devices_command(CLI::App& app, CliState& state);

// A listing subcommand (machine, devices): the text on stdout, or with `--json FILE` the JSON (`-`: stdout).
void add_listing_command(CLI::App& app, const std::string& name, const std::string& help, const std::string& json_help,
                         std::function<std::string()> text, std::function<nlohmann::json()> as_json);

// Registers the target providers this executable was built with (cli/targets.cpp, the one place that knows
// which optional targets were found): the CPU of `machine` first, then OpenCL and CUDA when built.
void register_built_targets(const MachineFacts& machine);
// The optional targets this build lacks, each {api, how to get it}.
std::vector<std::pair<std::string, std::string>> missing_targets();

// A percentage flag ("5", "5%", "2.5") as a fraction (0.05); InputError naming `flag` otherwise (compare,
// history calibrate, fleet).
double parse_percent(const std::string& flag, std::string text);

// fleet (issue 17), for `run --mpi` on rank 0 (cmd_fleet.cpp): checks the fleet file and its report can be
// written, and after the gather writes them, prints the fleet summary and returns the run's exit code
// (1 when a rank failed or a benchmark failed validation).
void check_fleet_destinations(const std::filesystem::path& out, bool report, Overwrite overwrite);
int finish_fleet_run(const FleetDocument& fleet, const std::filesystem::path& out, bool report, Overwrite overwrite,
                     bool quiet);

// One measurement of `targets` (the harness's measure()) with its roofline section derived by the analysis
// (derive_roofline: the harness derives nothing, issue 47): what `run`, each rank of `run --mpi` and `llm --measure`
// write (cmd_run.cpp).
Measured measure_and_derive(const MachineFacts& machine, const RunConfig& config,
                            std::vector<std::unique_ptr<Target>>& targets);

// The default results file name <host>_<date>_<revision>.json (cmd_run.cpp; `llm --measure` names its file so too).
std::string default_results_name(const MachineFacts& machine);

// The roof invariant on the terminal: one "roofline: WARNING: <note>" line on stderr per placement above
// 110% of its roof (roofline.roof_violations), and with `summary` the line "N point(s) beat their roof: a
// ceiling is missing or a count is wrong" on stdout. Defined in cmd_report.cpp; run and report call it.
void warn_roof_violations(const ResultsDocument& results, bool summary);

}  // namespace roofline::cli
