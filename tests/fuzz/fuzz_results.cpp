// Fuzz target: the results-file reader and its schema check (load_results, what `report`, `history add`
// and `llm` call), and on every file it accepts, deriving the roofline section again (`report --rederive`).
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/model/roofline_section.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = roofline::fuzz::write_scratch("results.json", data, size);
  roofline::fuzz::expect_only_input_errors([&] {
    const nlohmann::json results = roofline::load_results(path);
    (void)roofline::derive_roofline(roofline::read_results(results, path.string()));
  });
  return 0;
}
