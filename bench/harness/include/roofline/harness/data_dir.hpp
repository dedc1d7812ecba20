// Where the data files the executable reads live (advertised specs, model configs): installed beside the
// binary as <prefix>/share/roofline/<folder>, or in the source tree for a build that is not installed.
// Looking them up relative to the running executable, not the working folder, is what lets an installed
// `roofline` run from any folder.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// The folder holding data of one kind ("specs"), in this order: $ROOFLINE_DATA_DIR/<folder> when that
// variable is set, <exe>/../share/roofline/<folder> when it exists (an installed binary), else the source
// tree's folder recorded at build time. Throws InputError when `folder` is not a known data folder.
std::filesystem::path data_folder(std::string_view folder);

// A data file named by the user: an existing path as given, else `name` or `name.json` inside
// data_folder(folder). Throws InputError naming `flag` and listing the names available.
std::filesystem::path find_data_file(std::string_view folder, const std::string& name, std::string_view flag);

// The names (file stems) of the JSON files in a data folder, sorted.
std::vector<std::string> data_file_names(std::string_view folder);

}  // namespace roofline
