// Fuzz target: the spec-file reader of `roofline report --spec` (load_spec), then the parse the report's
// tables make of what it accepted (parse_spec).
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "roofline/analysis/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = roofline::fuzz::write_scratch("spec.json", data, size);
  roofline::fuzz::expect_only_input_errors([&] {
    const nlohmann::json spec = roofline::load_spec(path);
    (void)roofline::parse_spec(spec, path.string());
  });
  return 0;
}
