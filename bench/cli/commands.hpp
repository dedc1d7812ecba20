// The `roofline` subcommands. Each file adds one subcommand to the CLI11 app; its callback throws
// InputError for bad input (main prints one line, exit 2) and sets `exit_code` for other outcomes
// (e.g. compare: 1 on a significant regression).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace roofline::cli {

// "5", "5%", "2.5" -> 0.05, 0.05, 0.025; InputError naming `flag` otherwise (compare, history calibrate).
double parse_percent(const std::string& flag, std::string text);

struct CliState {
  int exit_code = 0;
};

void add_machine_command(CLI::App& app, CliState& state);
void add_run_command(CLI::App& app, CliState& state);
void add_model_command(CLI::App& app, CliState& state);
void add_report_command(CLI::App& app, CliState& state);
void add_compare_command(CLI::App& app, CliState& state);
void add_history_command(CLI::App& app, CliState& state);

}  // namespace roofline::cli
