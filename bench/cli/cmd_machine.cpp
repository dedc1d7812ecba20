// `roofline machine`: prints the machine facts the suites use, each with its source.
#include <cstdio>

#include "commands.hpp"
#include "roofline/bench/machine.hpp"

namespace roofline::cli {

void add_machine_command(CLI::App& app, CliState&) {
  auto* cmd = app.add_subcommand("machine", "Print this machine's facts (topology, caches, ISA) with their sources");
  auto json_out = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json_out, "Print the facts as JSON (as stored in results files)");
  cmd->callback([json_out] {
    const MachineFacts m = detect_machine();
    if (*json_out) {
      std::printf("%s\n", to_json(m).dump(2).c_str());
    } else {
      std::fputs(format_machine(m).c_str(), stdout);
    }
  });
}

}  // namespace roofline::cli
