// The shipped model configs of the source tree (analysis/llm/models), for the llm tests.
#pragma once

#include <filesystem>
#include <string>

#include "roofline/llm/config.hpp"

namespace roofline::llm {

inline std::filesystem::path shipped_model_path(const std::string& name) {
  return std::filesystem::path(ROOFLINE_SOURCE_DIR) / "analysis" / "llm" / "models" / (name + ".json");
}

inline ModelConfig shipped(const std::string& name) { return load_config(shipped_model_path(name)); }

}  // namespace roofline::llm
