// What a test sees of an input error: the one-line message the user would be told.
#pragma once

#include <string>
#include <utility>

#include "roofline/common/errors.hpp"

namespace roofline::testing {

// The message of the InputError that `call()` throws; "" when it throws none.
template <typename Call>
std::string input_error_of(Call&& call) {
  try {
    std::forward<Call>(call)();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace roofline::testing
