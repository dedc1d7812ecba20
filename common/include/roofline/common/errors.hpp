// The one error type for bad user input (files, flags, units). The CLI prints its message as one line
// and exits with code 2; anything else that escapes is a bug and aborts loudly.
#pragma once

#include <stdexcept>
#include <string>

namespace roofline {

// The process exit codes every subcommand uses.
enum ExitCode : int {
  kExitOk = 0,          // done; for gates: no regression, no flagged node
  kExitFailure = 1,     // a kernel failed validation, a regression was found, a node was flagged
  kExitBadInput = 2,    // bad flags, files or fields: one line on stderr, nothing written
  kExitInconclusive = 3 // a gate could not decide and was asked to fail on that (--fail-on-inconclusive)
};

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace roofline
