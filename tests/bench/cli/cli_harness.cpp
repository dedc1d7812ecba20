// Runs the `roofline` executable in a child process (posix_spawn, no shell) and captures stdout/stderr
// through temporary files, so tests see exactly what a user would.
#include "cli_harness.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace roofline::testing {
namespace fs = std::filesystem;

CliResult run_executable(const std::string& exe, const std::vector<std::string>& args, const std::vector<std::string>& env) {
  TempDir io;
  const fs::path out_path = io / "stdout";
  const fs::path err_path = io / "stderr";

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);

  std::vector<std::string> argv_s{exe};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  // The test's variables replace the inherited ones of the same name (getenv reads the first: appended after them, a
  // test's HWLOC_XMLFILE lost to the one a topology-override run of the whole suite set, issue 60).
  const auto key = [](const std::string& kv) { return kv.substr(0, kv.find('=')); };
  std::vector<std::string> env_s;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv = *e;
    if (std::none_of(env.begin(), env.end(), [&](const std::string& x) { return key(x) == key(kv); })) {
      env_s.push_back(kv);
    }
  }
  env_s.insert(env_s.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("posix_spawn failed for " + exe);
  int status = 0;
  waitpid(pid, &status, 0);

  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

CliResult run_cli(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  return run_executable(ROOFLINE_EXE, args, env);
}

CliResult run_test_target_cli(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  return run_executable(ROOFLINE_TEST_TARGET_EXE, args, env);
}

}  // namespace roofline::testing
