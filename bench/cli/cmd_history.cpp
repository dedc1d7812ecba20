// Placeholder until `roofline history` lands.
#include "commands.hpp"

namespace roofline::cli {
void add_history_command(CLI::App&, CliState&) {}
}  // namespace roofline::cli
