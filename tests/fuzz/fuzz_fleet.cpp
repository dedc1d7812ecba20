// Fuzz target: the fleet-file reader of `roofline fleet` (load_fleet_inputs: a fleet file, or one node's
// results file), and the analysis the command runs on the nodes it accepts.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "roofline/fleet/fleet.hpp"
#include "roofline/fleet/fleet_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = roofline::fuzz::write_scratch("fleet.json", data, size);
  roofline::fuzz::expect_only_input_errors([&] {
    (void)roofline::analyze_fleet(roofline::load_fleet_inputs({path}), roofline::FleetOptions{});
  });
  return 0;
}
