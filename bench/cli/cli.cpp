// The `roofline` command line (cli.hpp): subcommands machine, run, model, report, compare, history, fleet, llm, devices (one file each).
// Bad input of any kind ends here as one line on stderr and exit code 2.
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.hpp"
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version (CallForHelp derives from Success)
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "roofline: %s (see roofline --help)\n", e.what());
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
