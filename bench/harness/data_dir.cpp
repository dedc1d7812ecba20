// Locating the data folders for an installed or a source-tree binary (see data_dir.hpp).
#include "roofline/harness/data_dir.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/common/errors.hpp"

namespace fs = std::filesystem;

namespace roofline {
namespace {
// Data folder name -> where it lives in the source tree. cmake/RooflineInstall.cmake installs the same
// folders as share/roofline/<name>.
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kFolders{{
    {"specs", "analysis/specs"},
    {"models", "analysis/llm/models"},
}};

std::string_view source_path_of(std::string_view folder) {
  for (const auto& [name, source] : kFolders) {
    if (name == folder) return source;
  }
  throw InputError(fmt::format("internal: unknown data folder '{}'", folder));
}

fs::path executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}
}  // namespace

fs::path data_folder(std::string_view folder) {
  const std::string_view source = source_path_of(folder);
  if (const char* env = std::getenv("ROOFLINE_DATA_DIR"); env != nullptr && *env != '\0') return fs::path(env) / folder;
  std::error_code ec;
  const fs::path dir = executable_dir();
  if (!dir.empty()) {
    const fs::path installed = dir.parent_path() / "share" / "roofline" / folder;
    if (fs::is_directory(installed, ec)) return installed;
  }
  return fs::path(ROOFLINE_SOURCE_DIR) / source;
}

std::vector<std::string> data_file_names(std::string_view folder) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(data_folder(folder), ec)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

fs::path find_data_file(std::string_view folder, const std::string& name, std::string_view flag) {
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) return name;
  if (name.find('/') == std::string::npos && !name.empty()) {
    const fs::path dir = data_folder(folder);
    for (const fs::path& candidate : {dir / name, dir / (name + ".json")}) {
      if (fs::is_regular_file(candidate, ec)) return candidate;
    }
  }
  const std::vector<std::string> names = data_file_names(folder);
  const std::string available = names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
  throw InputError(fmt::format("{} '{}': no such file, nor a shipped {} name (available in {}: {})", flag, name, folder,
                               data_folder(folder).string(), available));
}

}  // namespace roofline
