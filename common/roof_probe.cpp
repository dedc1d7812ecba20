// One read probe's record and its writer: see roof_probe.hpp (its reader reads the typed probe: analysis/model's
// roof_now.hpp, read_roof_probe).
#include "roofline/common/roof_probe.hpp"

namespace roofline {
using nlohmann::json;

json roof_probe_json(const RoofProbeRecord& r) {
  return {{"kernel", r.kernel},
          {"threads", r.threads},
          {"working_set_bytes", r.working_set_bytes},
          {"pages", r.pages},
          {"passes_per_sample", r.passes_per_sample},
          {"samples", r.samples},
          {"bytes_per_second", r.bytes_per_second},
          {"seconds", r.seconds}};
}

}  // namespace roofline
