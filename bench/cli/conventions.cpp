// The command line's one convention for outputs and its deprecated spellings (conventions.hpp).
#include "conventions.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;

void warn_deprecated(const std::string& old_spelling, const std::string& new_spelling) {
  std::fprintf(stderr, "roofline: %s is deprecated, use %s\n", old_spelling.c_str(), new_spelling.c_str());
}

CLI::Option* add_deprecated_alias(CLI::App* cmd, const std::string& old_name, const std::string& new_name,
                                  std::string& target) {
  return cmd->add_option(old_name, target, "Deprecated: " + new_name)
      ->group("")
      ->each([old_name, new_name](const std::string&) { warn_deprecated(old_name, new_name); });
}

void check_output(const std::string& path, Overwrite overwrite, const std::string& flag) {
  if (path.find_first_not_of(' ') == std::string::npos) throw InputError(fmt::format("{}: empty value", flag));
  if (path != kStdout) check_destination(path, overwrite, flag);
}

void write_output(const std::string& path, const std::string& content, Overwrite overwrite) {
  if (path == kStdout) {
    std::fwrite(content.data(), 1, content.size(), stdout);
    std::fflush(stdout);
  } else {
    write_file_atomically(path, content, overwrite);
  }
}

bool stdout_taken(const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::string first;
  for (const auto& [flag, path] : outputs) {
    if (path != kStdout) continue;
    if (!first.empty()) throw InputError(fmt::format("{} - and {} -: only one output can go to stdout", first, flag));
    first = flag;
  }
  return !first.empty();
}

namespace {

// The output flags that were bare switches printing to stdout, per subcommand, and whether the subcommand
// takes results files as positionals (where an existing .json file after the flag was the old switch's neighbour).
struct BareFlags {
  std::set<std::string> flags;
  bool positionals = false;
};

const std::map<std::string, BareFlags>& bare_flags() {
  static const std::map<std::string, BareFlags> table = {
      {"machine", {{"--json"}, false}},         {"devices", {{"--json"}, false}},
      {"compare", {{"--json", "--markdown"}, true}}, {"fleet", {{"--markdown"}, true}},
      {"llm", {{"--json"}, false}},             {"history changes", {{"--json"}, false}},
  };
  return table;
}

bool is_option(const std::string& token) { return token.size() > 1 && token.front() == '-'; }

bool is_bare(const std::vector<std::string>& args, std::size_t at, bool positionals) {
  if (at + 1 >= args.size()) return true;
  const std::string& next = args[at + 1];
  if (is_option(next)) return true;
  std::error_code ec;
  return positionals && fs::path(next).extension() == ".json" && fs::is_regular_file(next, ec);
}

}  // namespace

std::vector<std::string> rewrite_bare_output_flags(std::vector<std::string> args) {
  std::string path;
  std::size_t at = 1;
  for (; at < args.size() && path.find(' ') == std::string::npos; ++at) {
    if (is_option(args[at])) continue;
    path = path.empty() ? args[at] : path + " " + args[at];
    if (path != "history") break;
  }
  const auto found = bare_flags().find(path);
  if (found == bare_flags().end()) return args;
  for (std::size_t i = at + 1; i < args.size() && args[i] != "--"; ++i) {
    if (found->second.flags.count(args[i]) == 0 || !is_bare(args, i, found->second.positionals)) continue;
    warn_deprecated(args[i] + " without a file", args[i] + " -");
    args.insert(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, kStdout);
    ++i;
  }
  return args;
}

}  // namespace roofline::cli
