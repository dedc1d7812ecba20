// What every fuzz target shares: the bytes written to a scratch file (the readers take paths, as the CLI
// gives them), and the rule the targets enforce: bad input may only end as an InputError (the one line
// and exit code 2 of bench/cli/cli.cpp); any other exception is a finding and aborts, so libFuzzer and
// the replay driver (replay_main.cpp) both report it with the input that caused it.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "roofline/common/errors.hpp"

namespace roofline::fuzz {

// A private folder for this process's scratch files, removed at exit.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "roofline-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      std::perror("roofline fuzz: mkdtemp");
      std::abort();
    }
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_dir(), ec);
    });
    return std::filesystem::path(pattern);
  }();
  return dir;
}

// Writes the input to `name` in the scratch folder (replacing what was there) and returns its path.
inline std::filesystem::path write_scratch(const std::string& name, const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path path = scratch_dir() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    std::fprintf(stderr, "roofline fuzz: cannot write %s\n", path.string().c_str());
    std::abort();
  }
  return path;
}

// Runs `read` the way the CLI would: an InputError is the expected end of bad input; anything else
// escaping is a crash of `roofline` ("internal error", exit 1) and aborts here.
template <typename Read>
void expect_only_input_errors(Read&& read) {
  try {
    read();
  } catch (const InputError&) {
    // Bad input, reported as one line: what the readers must do.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roofline fuzz: not an InputError: %s\n", e.what());
    std::abort();
  }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace roofline::fuzz
