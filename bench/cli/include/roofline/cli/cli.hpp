// The `roofline` command line as a function, so that an executable can add target providers before it runs
// (the `roofline` executable adds none; tests/targets/ adds the test-only target).
#pragma once

namespace roofline::cli {

// Parses argv, runs the subcommand and returns the exit code: 0, 1 (a failure or regression), 2 (bad input).
int run_cli(int argc, char** argv);

}  // namespace roofline::cli
