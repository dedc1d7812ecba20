// The one error type for bad user input (files, flags, units). The CLI prints its message as one line
// and exits with code 2; anything else that escapes is a bug and aborts loudly.
#pragma once

#include <stdexcept>
#include <string>

namespace roofline {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace roofline
