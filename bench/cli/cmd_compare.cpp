// Placeholder until `roofline compare` lands.
#include "commands.hpp"

namespace roofline::cli {
void add_compare_command(CLI::App&, CliState&) {}
}  // namespace roofline::cli
