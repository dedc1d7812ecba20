// `roofline devices`: lists every target this build can measure: the host CPU (from the machine facts) and each
// OpenCL platform and device with the facts that decide what can be measured (issue 22). Built without OpenCL,
// it says how to get it; with no ICD or platform installed, it says so. Always exit 0: listing is not a failure.
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "roofline/bench/machine.hpp"
#include "roofline/common/units.hpp"
#include "roofline/opencl/device_facts.hpp"
#ifdef ROOFLINE_HAVE_OPENCL
#include "roofline/opencl/discovery.hpp"
#endif

namespace roofline::cli {
namespace {
using nlohmann::json;

struct OpenClListing {
  bool built = false;
  std::vector<opencl::DeviceFacts> devices;
  std::vector<std::string> notes;
};

OpenClListing list_opencl() {
  OpenClListing l;
#ifdef ROOFLINE_HAVE_OPENCL
  l.built = true;
  opencl::DeviceList found = opencl::discover_devices();
  l.devices = std::move(found.devices);
  l.notes = std::move(found.notes);
#else
  l.notes.push_back("this roofline was built without OpenCL: run scripts/install-deps (ocl-icd-opencl-dev, "
                    "opencl-c-headers; --test adds PoCL's CPU device) and rebuild (scripts/build, with "
                    "-DROOFLINE_WITH_OPENCL=ON if it was turned off)");
#endif
  return l;
}

std::string cpu_line(const MachineFacts& m) {
  std::string caches;
  for (const CacheInfo& c : m.caches) {
    if (c.type == "instruction") continue;
    caches += fmt::format(", L{} {}", c.level, format_bytes(static_cast<double>(c.size_bytes)));
  }
  return fmt::format("cpu  {} ({}): {} cores, {} threads{}  [source: roofline machine]\n", m.cpu_model, m.cpu_vendor,
                     m.cores, m.pus, caches);
}

json listing_json(const MachineFacts& m, const OpenClListing& l) {
  json targets = json::array();
  targets.push_back({{"id", "cpu"}, {"kind", "cpu"}, {"name", m.cpu_model}, {"vendor", m.cpu_vendor},
                     {"cores", m.cores}, {"threads", m.pus}});
  for (const opencl::DeviceFacts& d : l.devices) {
    targets.push_back({{"id", d.id()}, {"kind", "opencl"}, {"name", d.name}, {"vendor", d.vendor},
                       {"facts", opencl::to_json(d)}});
  }
  return {{"targets", targets}, {"opencl", {{"built", l.built}, {"notes", l.notes}}}};
}
}  // namespace

void add_devices_command(CLI::App& app, CliState&) {
  auto* cmd = app.add_subcommand("devices", "List the targets this build can measure: the CPU and each OpenCL device");
  auto json_out = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json_out, "Print the targets and their facts as JSON");
  cmd->callback([json_out] {
    const MachineFacts m = detect_machine();
    const OpenClListing l = list_opencl();
    if (*json_out) {
      std::printf("%s\n", listing_json(m, l).dump(2).c_str());
      return;
    }
    std::fputs(cpu_line(m).c_str(), stdout);
    for (const opencl::DeviceFacts& d : l.devices) std::fputs(opencl::format_device(d).c_str(), stdout);
    for (const std::string& note : l.notes) std::printf("opencl: %s\n", note.c_str());
  });
}

}  // namespace roofline::cli
