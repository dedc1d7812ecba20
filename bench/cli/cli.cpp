// The `roofline` command line (cli.hpp): subcommands machine, run, model, report, compare, history, fleet, llm, devices (one file each).
// Bad input of any kind ends here as one line on stderr and exit code 2.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.hpp"
#include "conventions.hpp"
#include "roofline/cli/cli.hpp"
#include "roofline/common/errors.hpp"
#include "roofline_git_revision.hpp"

namespace roofline::cli {

namespace {

// `roofline --version`: the release, the commit (git describe of the checkout, or the one `git archive` wrote into
// cmake/archive_revision.txt; "unknown" when neither) and the build date (UTC; SOURCE_DATE_EPOCH when set).
std::string version_line() {
  return fmt::format("{} (commit {}, built {})", ROOFLINE_VERSION_STRING, ROOFLINE_GIT_REVISION, ROOFLINE_BUILD_DATE);
}

// Every --help ends with its exit codes, the codes of roofline/common/errors.hpp as each command uses them.
constexpr const char* kBadInput = "2 bad input: one line on stderr naming the flag, file or field, nothing written";
std::string exit_codes(const std::string& path) {
  if (path.empty()) {
    return fmt::format("Exit codes: 0 done (gates: no regression, no flagged node); 1 a kernel failed validation, a target "
                       "was lost, a regression, a flagged node or failed rank; {}; 3 compare could not decide (see "
                       "roofline compare --help). `roofline COMMAND --help` says each command's.",
                       kBadInput);
  }
  if (path == "run") {
    return fmt::format("Exit codes: 0 measured; 1 a benchmark failed validation, a target was lost mid-run (the others' "
                       "results kept) or an MPI rank failed; {}, nothing measured.",
                       kBadInput);
  }
  if (path == "compare") {
    return fmt::format("Exit codes: 0 no regression (inconclusive: a line on stderr); 1 a regression; {}; also 2: runs "
                       "of different machines without --allow-machine-mismatch, or a build that fails; 3 inconclusive "
                       "with --fail-on-inconclusive, or paired figures undecided at the budget without --allow-undecided.",
                       kBadInput);
  }
  if (path == "fleet") return fmt::format("Exit codes: 0 every node in line; 1 a node flagged or a rank failed; {}.", kBadInput);
  if (path == "llm") return fmt::format("Exit codes: 0 done; 1 with --measure: a product failed validation; {}.", kBadInput);
  if (path == "history changes") return fmt::format("Exit codes: 0 done, whether or not anything moved; {}.", kBadInput);
  return fmt::format("Exit codes: 0 done; {}.", kBadInput);
}

void add_exit_code_footers(CLI::App& app, const std::string& path) {
  app.footer(exit_codes(path));
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    add_exit_code_footers(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name());
  }
}

// The subcommands the command line reached ("history add"), so that a parse error points to that one's --help.
std::string parsed_path(const CLI::App& app) {
  const std::vector<CLI::App*> subs = app.get_subcommands();
  if (subs.empty()) return "";
  const std::string rest = parsed_path(*subs.front());
  return subs.front()->get_name() + (rest.empty() ? "" : " " + rest);
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"roofline: measures this machine's performance ceilings and places real work under them"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_line());
  CliState state;
  add_machine_command(app, state);
  add_run_command(app, state);
  add_model_command(app, state);
  add_report_command(app, state);
  add_compare_command(app, state);
  add_history_command(app, state);
  add_fleet_command(app, state);
  add_llm_command(app, state);
  add_devices_command(app, state);
  add_exit_code_footers(app, "");
  try {
    // Old bare output switches (`--json` printing to stdout) become `--json -`, with their deprecation line.
    std::vector<std::string> args = rewrite_bare_output_flags(std::vector<std::string>(argv, argv + argc));
    std::vector<const char*> rewritten;
    for (const std::string& a : args) rewritten.push_back(a.c_str());
    app.parse(static_cast<int>(rewritten.size()), rewritten.data());
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version (CallForHelp derives from Success)
  } catch (const CLI::ParseError& e) {
    const std::string path = parsed_path(app);
    std::fprintf(stderr, "roofline: %s (see roofline %s%s--help)\n", e.what(), path.c_str(), path.empty() ? "" : " ");
    return roofline::kExitBadInput;
  } catch (const roofline::InputError& e) {
    std::fprintf(stderr, "roofline: %s\n", e.what());
    return roofline::kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roofline: internal error: %s\n", e.what());
    return roofline::kExitFailure;
  }
  return state.exit_code;
}

}  // namespace roofline::cli
