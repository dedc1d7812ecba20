// The `roofline` executable: the command line of cli.hpp with the targets this build has (cli/targets.cpp).
#include "roofline/cli/cli.hpp"

int main(int argc, char** argv) { return roofline::cli::run_cli(argc, argv); }
