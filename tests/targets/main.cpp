// `roofline_test_target`: the `roofline` command line with the test-only target registered beside the built
// ones (`--target test:0`), for the CLI tests of the target seam.
#include "roofline/cli/cli.hpp"
#include "test_target.hpp"

int main(int argc, char** argv) {
  roofline::register_target_provider(roofline::testing::test_target_provider());
  return roofline::cli::run_cli(argc, argv);
}
