// Fuzz target: the Hugging Face config.json reader of `roofline llm --config` (llm::load_config, its public
// entry point; the fields it checks are its own business).
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "roofline/llm/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = roofline::fuzz::write_scratch("config.json", data, size);
  roofline::fuzz::expect_only_input_errors([&] { (void)roofline::llm::load_config(path); });
  return 0;
}
