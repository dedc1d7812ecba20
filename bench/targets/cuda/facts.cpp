// A CUDA device's TargetFacts: see facts.hpp.
#include "roofline/cuda/facts.hpp"

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/cuda/peak_table.hpp"

namespace roofline::cuda {
namespace {

template <typename T>
T field(const nlohmann::json& j, const char* name) {
  if (!j.contains(name)) throw InputError(fmt::format("CUDA device properties: missing '{}'", name));
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(fmt::format("CUDA device properties: '{}' has the wrong type", name));
  }
}

}  // namespace

TargetFacts cuda_target_facts(const CudaProperties& p) {
  TargetFacts f;
  f.target = fmt::format("{}:{}", kCudaApi, p.index);
  f.kind = "gpu";
  f.name = p.name;
  f.vendor = "NVIDIA";
  f.api = kCudaApi;
  f.driver = p.driver_release.empty() ? fmt::format("CUDA {}", cuda_version_text(p.driver_version))
                                      : fmt::format("{} (CUDA {})", p.driver_release, cuda_version_text(p.driver_version));
  f.compute_units = p.sms;
  f.clock_hz = p.max_sm_clock_hz;
  f.memory_total_bytes = p.memory_total_bytes;
  f.memory_available_bytes = p.memory_free_bytes;
  // The L2 is the device's own (no other tenant shares it while we run); HBM is its main memory.
  f.memory_levels = {{"L2", p.l2_bytes, false}, {"HBM", 0, false}};
  f.details = to_json(p);
  const ComputeCapabilityPeaks* row = find_peaks(p.major, p.minor);
  if (row == nullptr) {
    f.notes.push_back(fmt::format("compute capability {}.{} is not in the peak table (8.0, 8.6, 8.9, 9.0, 10.0): "
                                  "theoretical peaks unknown", p.major, p.minor));
    return f;
  }
  f.peak_model = "units_clock";
  for (const PeakRate& rate : row->rates) f.ops_per_unit_per_clock[rate.key] = rate.ops_per_sm_per_clock;
  nlohmann::json clocks = nlohmann::json::object();
  for (const PeakRate& rate : row->rates) clocks[rate.key] = datasheet_clock_hz(*row, rate.key);
  // The theoretical peaks are taken at the SM clock measured during each compute entry (its clock_hz counter),
  // else at clock_hz above (the reported maximum); these are the clocks the datasheet's own figures assume.
  f.details["peak_table"] = {{"compute_capability", fmt::format("{}.{}", row->major, row->minor)},
                             {"example", row->example}, {"datasheet_clock_hz", clocks}};
  for (const std::string& note : row->notes) f.notes.push_back(note);
  return f;
}

nlohmann::json to_json(const CudaProperties& p) {
  return {{"index", p.index},
          {"name", p.name},
          {"uuid", p.uuid},
          {"pci_bus_id", p.pci_bus_id},
          {"compute_capability", {p.major, p.minor}},
          {"sms", p.sms},
          {"max_sm_clock_hz", p.max_sm_clock_hz},
          {"memory_clock_hz", p.memory_clock_hz},
          {"memory_bus_width_bits", p.memory_bus_width_bits},
          {"memory_total_bytes", p.memory_total_bytes},
          {"memory_free_bytes", p.memory_free_bytes},
          {"l2_bytes", p.l2_bytes},
          {"max_threads_per_sm", p.max_threads_per_sm},
          {"driver_version", p.driver_version},
          {"runtime_version", p.runtime_version},
          {"driver_release", p.driver_release}};
}

CudaProperties cuda_properties_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw InputError("CUDA device properties: not an object");
  CudaProperties p;
  p.index = field<int>(j, "index");
  p.name = field<std::string>(j, "name");
  p.uuid = field<std::string>(j, "uuid");
  p.pci_bus_id = field<std::string>(j, "pci_bus_id");
  const auto cc = field<std::vector<int>>(j, "compute_capability");
  if (cc.size() != 2) throw InputError("CUDA device properties: 'compute_capability' must be [major, minor]");
  p.major = cc[0];
  p.minor = cc[1];
  p.sms = field<int>(j, "sms");
  p.max_sm_clock_hz = field<double>(j, "max_sm_clock_hz");
  p.memory_clock_hz = field<double>(j, "memory_clock_hz");
  p.memory_bus_width_bits = field<int>(j, "memory_bus_width_bits");
  p.memory_total_bytes = field<std::uint64_t>(j, "memory_total_bytes");
  p.memory_free_bytes = field<std::uint64_t>(j, "memory_free_bytes");
  p.l2_bytes = field<std::uint64_t>(j, "l2_bytes");
  p.max_threads_per_sm = field<int>(j, "max_threads_per_sm");
  p.driver_version = field<int>(j, "driver_version");
  p.runtime_version = field<int>(j, "runtime_version");
  p.driver_release = field<std::string>(j, "driver_release");
  if (p.sms <= 0) throw InputError("CUDA device properties: 'sms' must be positive");
  return p;
}

}  // namespace roofline::cuda
