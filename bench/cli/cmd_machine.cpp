// `roofline machine`: prints the machine facts the suites use, each with its source.
#include <cstdio>

#include "commands.hpp"
#include "conventions.hpp"
#include "roofline/facts/machine.hpp"

namespace roofline::cli {

void add_listing_command(CLI::App& app, const std::string& name, const std::string& help, const std::string& json_help,
                         std::function<std::string()> text, std::function<nlohmann::json()> as_json) {
  auto* cmd = app.add_subcommand(name, help);
  struct Args {
    std::string json;
    bool force = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--json", a->json, json_help + " to FILE (- : stdout)")->type_name("FILE");
  cmd->add_flag("--force", a->force, "Overwrite the --json file if it exists");
  cmd->callback([a, cmd, text, as_json] {
    const Overwrite overwrite = a->force ? Overwrite::yes : Overwrite::no;
    if (cmd->count("--json") > 0) {
      check_output(a->json, overwrite, "--json");
      write_output(a->json, as_json().dump(2) + "\n", overwrite);
    } else {
      std::fputs(text().c_str(), stdout);
    }
  });
}

void add_machine_command(CLI::App& app, CliState&) {
  add_listing_command(
      app, "machine", "Print this machine's facts (topology, caches, ISA) with their sources",
      "Write the facts as JSON (as stored in results files)", [] { return format_machine(detect_machine()); },
      [] { return to_json(detect_machine()); });
}

}  // namespace roofline::cli
