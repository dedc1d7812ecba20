// Fuzz target: the spec-file reader of `roofline report --spec` (load_spec: the file's JSON read and validated
// by parse_spec into the typed Spec the report takes).
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "roofline/report/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = roofline::fuzz::write_scratch("spec.json", data, size);
  roofline::fuzz::expect_only_input_errors([&] {
    (void)roofline::load_spec(path);
  });
  return 0;
}
