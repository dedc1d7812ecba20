// `roofline machine`: prints the machine facts the suites use, each with its source.
#include <cstdio>

#include "commands.hpp"
#include "roofline/facts/machine.hpp"

namespace roofline::cli {

void add_listing_command(CLI::App& app, const std::string& name, const std::string& help, const std::string& json_help,
                         std::function<std::string()> text, std::function<nlohmann::json()> as_json) {
  auto* cmd = app.add_subcommand(name, help);
  auto json_out = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json_out, json_help);
  cmd->callback([json_out, text, as_json] {
    if (*json_out) {
      std::printf("%s\n", as_json().dump(2).c_str());
    } else {
      std::fputs(text().c_str(), stdout);
    }
  });
}

void add_machine_command(CLI::App& app, CliState&) {
  add_listing_command(
      app, "machine", "Print this machine's facts (topology, caches, ISA) with their sources",
      "Print the facts as JSON (as stored in results files)", [] { return format_machine(detect_machine()); },
      [] { return to_json(detect_machine()); });
}

}  // namespace roofline::cli
