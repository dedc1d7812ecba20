// Private to the OpenCL target: an OpenCL error while a run measures is the device failing: TargetLost naming
// the device, and the session remembers it so the suite can say so after the harness has caught the throw.
#pragma once

#include <string>

#include <fmt/format.h>

#include "roofline/harness/target.hpp"
#include "session_impl.hpp"

namespace roofline::opencl {

template <typename F>
auto guarded_call(Session& s, F&& f) {
  try {
    return f();
  } catch (const OpenClError& e) {
    s.impl().lost = fmt::format("{} ({}) failed: {}", s.facts().id(), s.facts().name, e.what());
    throw TargetLost(s.impl().lost);
  }
}

// `f` wrapped so every call goes through guarded_call (holding the session alive as long as the work).
template <typename F>
auto guarded(const std::shared_ptr<Session>& s, F f) {
  return [s, f](auto... args) { return guarded_call(*s, [&] { return f(args...); }); };
}

}  // namespace roofline::opencl
