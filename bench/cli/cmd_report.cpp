// Placeholder until `roofline report` lands.
#include "commands.hpp"

namespace roofline::cli {
void add_report_command(CLI::App&, CliState&) {}
}  // namespace roofline::cli
