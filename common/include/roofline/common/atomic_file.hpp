// Writing output files so that a reader never sees half a file and nothing is overwritten by accident:
// the content goes to a temporary file in the destination's folder, is flushed to disk, then linked
// (no overwrite) or renamed (with --force) into place.
#pragma once

#include <filesystem>
#include <string_view>

namespace roofline {

enum class Overwrite { no, yes };

// Checks, before any long work, that `path` could be written: its folder exists and is writable, and the
// file does not exist unless overwrite is allowed. Throws InputError naming `flag` (e.g. "--out").
void check_destination(const std::filesystem::path& path, Overwrite overwrite, std::string_view flag);

// Writes `content` to `path` atomically. Throws InputError when the file exists and overwrite is not
// allowed, or when it cannot be written; no temporary file is left behind either way.
void write_file_atomically(const std::filesystem::path& path, std::string_view content, Overwrite overwrite);

}  // namespace roofline
