// The OpenCL gemm suite in a build without CLBlast (libclblast-dev): nothing to run, said.
#include <fmt/format.h>

#include "roofline/opencl/work.hpp"

namespace roofline::opencl {

bool have_clblast() { return false; }

std::vector<DeviceWork> gemm_work(const std::shared_ptr<Session>& s, const std::string& /*precision*/,
                                  const WorkOptions& /*o*/, std::vector<std::string>& notes) {
  notes.push_back(fmt::format("{}: no GEMV/GEMM: built without CLBlast (install libclblast-dev, rebuild)",
                              s->facts().id()));
  return {};
}

}  // namespace roofline::opencl
