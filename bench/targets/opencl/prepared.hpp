// Private to the OpenCL target: kernels made ready once and launched many times, for the DeviceWork of a run
// (work.cpp) and the one-shot measure_* calls alike. Buffers and kernels are made on construction (outside
// every timing); run() only launches; validate() reads the results back and checks them exactly.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "session_impl.hpp"

namespace roofline::opencl {

// One memory kernel over one set of buffers, shared by every vector width (the buffers hold a whole number of
// the widest width's work-groups, so each width covers the same words; every width writes the same values).
class PreparedMemory {
 public:
  // `bytes`: the working set of all the kernel's buffers together; capped per buffer at the device's max
  // allocation (said in notes()). InputError when below one work-group of the widest width.
  PreparedMemory(Session& s, MemoryKernel k, std::uint64_t bytes);
  // `launches` launches in vector width `width` (built on first use); seconds as Session::Impl::launch_many.
  double run(int width, std::int64_t launches, bool& device_timed);
  // "" when the result of the last run in `width` is right, else what was wrong.
  std::string validate(int width);
  [[nodiscard]] std::uint64_t bytes_per_buffer() const { return words_ * 4; }
  // STREAM's count: the words the kernel names in `width` (read: the words its work-items sum, a whole number
  // of work-groups of 16 vectors each, at most the buffer).
  [[nodiscard]] std::uint64_t bytes_per_launch(int width);
  [[nodiscard]] std::uint64_t global_size(int width);
  [[nodiscard]] std::uint64_t local_size(int width);  // the work-group size that width launches with
  [[nodiscard]] const std::vector<std::string>& notes() const { return notes_; }
  double build_seconds = 0;  // building programs for this object's widths

 private:
  struct Width {
    KernelHandle kernel{nullptr, &clReleaseKernel};
    MemHandle partial{nullptr, &clReleaseMemObject};  // read: one partial sum per work-item
    std::uint64_t global = 0;
    std::uint64_t local = 0;  // its work-group size
    std::uint64_t words = 0;  // read: the words summed (a whole number per work-item)
  };
  Width& width_state(int width);

  Session& s_;
  MemoryKernel k_;
  std::uint64_t words_ = 0;
  std::vector<cl_uint> a_, b_, c_;  // what the device's buffers were filled with
  MemHandle ma_{nullptr, &clReleaseMemObject}, mb_{nullptr, &clReleaseMemObject}, mc_{nullptr, &clReleaseMemObject};
  std::map<int, Width> widths_;
  std::vector<std::string> notes_;
};

// Independent mad chains (or int8 dot-product chains) of one kind and width, with the output buffer.
class PreparedCompute {
 public:
  PreparedCompute(Session& s, ComputeKind k, int width, std::int64_t iterations, int groups_per_unit);
  double run(std::int64_t launches, bool& device_timed);
  std::string validate();
  [[nodiscard]] std::uint64_t ops_per_launch() const;  // FLOP, or integer ops (a multiply-add is 2)
  [[nodiscard]] std::uint64_t global_size() const { return global_; }
  double build_seconds = 0;

 private:
  Session& s_;
  ComputeKind k_;
  int width_;
  std::int64_t iterations_;
  std::uint64_t global_ = 0;
  KernelHandle kernel_{nullptr, &clReleaseKernel};
  MemHandle out_{nullptr, &clReleaseMemObject};
};

void check_width(int width);

}  // namespace roofline::opencl
