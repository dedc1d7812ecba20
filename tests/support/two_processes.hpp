// Two processes at once, for tests of what must hold under concurrent use (the history database).
#pragma once

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace roofline::testing {

// Runs `failures(c)` for c = 0 and c = 1 in two child processes at once and expects both to count no
// failures. Call it inside ASSERT_NO_FATAL_FAILURE: a failed fork or wait ends the test.
template <typename Failures>
void expect_two_processes_succeed(Failures failures) {
  pid_t children[2];
  for (int c = 0; c < 2; ++c) {
    children[c] = ::fork();
    ASSERT_GE(children[c], 0);
    if (children[c] == 0) ::_exit(failures(c) == 0 ? 0 : 1);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a child process failed";
  }
}

}  // namespace roofline::testing
