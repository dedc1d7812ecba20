// Measuring one OpenCL device (issue 22): a Session holds the device's context, a profiling queue and the
// programs built so far (each source x options built once per run, its build time kept apart from every
// timing), and the memory and compute kernels of kernels/opencl/ run through it, validated after timing.
// The run integration (`roofline run --target opencl:P.D`) will drive these; nothing here writes results.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "roofline/common/stream_kernels.hpp"
#include "roofline/opencl/device_facts.hpp"

namespace roofline::opencl {

// An OpenCL call failed (the message names the call and the error code); the device may be lost.
class OpenClError : public std::runtime_error {
 public:
  explicit OpenClError(const std::string& message) : std::runtime_error(message) {}
};

// The STREAM kernels a device runs (kernels/opencl/memory.cl), each a row of the one STREAM table
// (roofline/common/stream_kernels.hpp): its name and the 32-bit words it reads and writes per element come from there.
enum class MemoryKernel { read, copy, triad, write };
constexpr StreamKernel stream_kernel(MemoryKernel k) {
  return k == MemoryKernel::read ? StreamKernel::read
         : k == MemoryKernel::copy ? StreamKernel::copy
         : k == MemoryKernel::triad ? StreamKernel::triad
                                    : StreamKernel::write;
}
// int8: 4-lane int8 dot products with accumulate (cl_khr_integer_dot_product; emulated exactly where the device
// lacks it, which only tests use: a run measures it only where the device has the extension).
enum class ComputeKind { fp32, fp64, fp16, int32, int8 };
inline constexpr std::array<int, 5> kVectorWidths{1, 2, 4, 8, 16};
inline constexpr std::array<MemoryKernel, 4> kMemoryKernels{MemoryKernel::read, MemoryKernel::copy,
                                                            MemoryKernel::triad, MemoryKernel::write};
inline constexpr std::array<ComputeKind, 5> kComputeKinds{ComputeKind::fp32, ComputeKind::fp64, ComputeKind::fp16,
                                                          ComputeKind::int32, ComputeKind::int8};
std::string to_string(MemoryKernel k);  // the table's name
std::string to_string(ComputeKind k);
// STREAM's convention, from the table: the 32-bit words the kernel names per element (read 1, copy 2, triad 3, write 1).
int arrays_counted(MemoryKernel k);

// One measurement: the seconds of each timed repetition and what they moved or computed.
struct Timing {
  std::vector<double> seconds;       // one per repetition, after one untimed warm-up launch
  std::uint64_t work_per_rep = 0;    // bytes (memory) or FLOP / integer ops (compute) per repetition
  bool validated = false;
  std::string validation_error;      // when not validated: what was wrong
  bool device_timing = false;        // OpenCL profiling events; false: host clock around each launch, said in notes
  double build_seconds = 0;          // building this kernel's program, 0 when it came from the cache
  double warmup_seconds = 0;         // the untimed first launch (PoCL compiles per work-group size there)
  std::uint64_t global_size = 0;
  std::uint64_t local_size = 0;
  std::uint64_t bytes_per_buffer = 0;
  std::vector<std::string> notes;    // allocations capped, host timing, ...
};

class Session {
 public:
  // Opens the device `facts` names (platform_index, device_index); throws OpenClError when it cannot.
  explicit Session(const DeviceFacts& facts);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  [[nodiscard]] const DeviceFacts& facts() const { return facts_; }
  // Whether the queue gives profiling events (else kernels are timed on the host clock).
  [[nodiscard]] bool device_timing() const;
  // The work-group size every kernel runs with: 64, or the device's maximum when smaller (fixed, since PoCL
  // compiles a kernel per work-group size).
  [[nodiscard]] std::uint64_t local_size() const;
  // Seconds spent building programs so far this run.
  [[nodiscard]] double total_build_seconds() const;

  // For tests of a device lost mid-run: after `commands` more commands, every command fails as on a lost
  // device (CL_DEVICE_NOT_AVAILABLE).
  void simulate_loss_after(std::int64_t commands);

  struct Impl;
  [[nodiscard]] Impl& impl() { return *impl_; }

 private:
  DeviceFacts facts_;
  std::unique_ptr<Impl> impl_;
};

// Runs `kernel` in vector width `width` (1, 2, 4, 8 or 16 uints) over buffers holding `bytes` in all (capped at
// the device's max allocation per buffer, said in notes), `reps` timed repetitions. Buffers hold a pseudo-random
// pattern (not ptr[i] = i) so memory compression cannot shrink them. InputError for a bad width or size.
Timing measure_memory(Session& s, MemoryKernel kernel, int width, std::uint64_t bytes, int reps);

// Whether a run can measure `kind` on this device (fp64, fp16, int8 need their extensions).
bool supports(const DeviceFacts& d, ComputeKind kind);

// Runs independent mad chains (16 per work-item, each `iterations` steps) of `kind` in vector width `width` on
// `groups_per_unit` work-groups per compute unit; the chains' final values are known in closed form and
// checked. InputError when the device lacks the extension (fp64, fp16) or for a bad width.
Timing measure_compute(Session& s, ComputeKind kind, int width, std::int64_t iterations, int reps,
                       int groups_per_unit = 4);

}  // namespace roofline::opencl
