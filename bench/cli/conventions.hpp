// The one command-line convention every subcommand follows (docs/cli.md): `--json FILE`, `--markdown FILE`,
// `--html FILE`, `--csv FILE` and `--svg FILE` write that file, `-` meaning stdout; `--out` is only the results
// file a command measures (run, llm --measure). Old spellings stay for one release as hidden aliases that keep
// their behaviour and print one line on stderr: "roofline: OLD is deprecated, use NEW".
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "roofline/common/atomic_file.hpp"

namespace roofline::cli {

// The destination that means stdout.
inline constexpr const char* kStdout = "-";

// One line on stderr: "roofline: OLD is deprecated, use NEW".
void warn_deprecated(const std::string& old_spelling, const std::string& new_spelling);

// `old_name` as a hidden option (help group "") writing into `target` as `new_name` does; each use prints the
// deprecation line.
CLI::Option* add_deprecated_alias(CLI::App* cmd, const std::string& old_name, const std::string& new_name,
                                  std::string& target);

// An output destination: `-` (stdout) needs no check; a file is checked as check_destination does.
void check_output(const std::string& path, Overwrite overwrite, const std::string& flag);
// Writes `content` to stdout for `-`, atomically into the file otherwise.
void write_output(const std::string& path, const std::string& content, Overwrite overwrite);
// InputError when more than one of the (flag, destination) pairs is `-`; else whether one is.
bool stdout_taken(const std::vector<std::pair<std::string, std::string>>& outputs);

// Before parsing: an output flag that was a bare switch printing to stdout (`machine --json`, `compare
// --markdown`) and is now `--json FILE` is rewritten to `--json -`, with its deprecation line. A bare one is one
// followed by nothing, by another option or `--`, or (in a command taking results files) by an existing .json file.
std::vector<std::string> rewrite_bare_output_flags(std::vector<std::string> args);

}  // namespace roofline::cli
