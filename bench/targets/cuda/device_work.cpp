// to_device_work: see device_work.hpp.
#include "roofline/cuda/device_work.hpp"

#include <utility>

namespace roofline::cuda {

DeviceWork to_device_work(Work w) {
  DeviceWork d;
  d.name = std::move(w.name);
  d.labels = nlohmann::json::object();
  for (auto& [key, value] : w.text_labels) d.labels[key] = value;
  for (auto& [key, value] : w.number_labels) d.labels[key] = value;
  d.run = std::move(w.run);
  d.validate = std::move(w.validate);
  d.bytes = w.bytes;
  d.flop = w.flop;
  d.op = w.op;
  d.working_set_bytes = w.working_set_bytes;
  d.device_timed = w.device_timed;
  d.clock_hz = std::move(w.clock_hz);
  return d;
}

}  // namespace roofline::cuda
