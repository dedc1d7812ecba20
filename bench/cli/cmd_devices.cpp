// `roofline devices`: lists every target this build can measure, through the same providers `run --target` uses
// (cli/targets.cpp): the host CPU, each OpenCL platform's devices, each CUDA device, with the facts that decide
// what can be measured (`details`: the API's own facts). An API that is built but reaches nothing says why; one
// this build lacks says how to get it. Always exit 0: listing is not a failure.
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "roofline/harness/target.hpp"
#include "roofline/common/units.hpp"

namespace roofline::cli {
namespace {
using nlohmann::json;

struct Listing {
  std::vector<TargetFacts> targets;
  json apis = json::array();  // {api, built, notes}
};

Listing list_everything() {
  register_built_targets(detect_machine());
  Listing l;
  for (const TargetProvider& p : target_providers()) {
    std::vector<std::string> notes;
    for (TargetFacts& f : p.list(notes)) l.targets.push_back(std::move(f));
    l.apis.push_back({{"api", p.api}, {"built", true}, {"notes", notes}});
  }
  for (const auto& [api, note] : missing_targets()) l.apis.push_back({{"api", api}, {"built", false}, {"notes", {note}}});
  return l;
}

std::string scalar_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// One target: a headline, then its levels, peak model and the API's own facts, two-space indented.
std::string format_target(const TargetFacts& f) {
  std::string levels;
  for (const TargetMemoryLevel& l : f.memory_levels) {
    levels += fmt::format("{}{}{}", levels.empty() ? "" : ", ", l.name,
                          l.capacity_bytes > 0 ? " " + format_bytes(static_cast<double>(l.capacity_bytes)) : "");
  }
  std::string out = fmt::format("{}  {} ({}): {} {}, {} compute units{}, {} memory  [api: {}]\n", f.target, f.name,
                                f.vendor, f.kind, f.api, f.compute_units,
                                f.clock_hz > 0 ? fmt::format(" at {:.0f} MHz", f.clock_hz / 1e6) : "",
                                format_bytes(static_cast<double>(f.memory_total_bytes)), f.api);
  out += fmt::format("  memory levels: {}\n  peak model: {}\n", levels, f.peak_model.empty() ? "unknown" : f.peak_model);
  for (auto it = f.details.begin(); it != f.details.end(); ++it) {
    if (it.value().is_primitive()) out += fmt::format("  {}: {}\n", it.key(), scalar_text(it.value()));
  }
  for (const std::string& n : f.notes) out += fmt::format("  note: {}\n", n);
  return out;
}

}  // namespace

void add_devices_command(CLI::App& app, CliState&) {
  add_listing_command(
      app, "devices", "List the targets this build can measure: the CPU, OpenCL and CUDA devices",
      "Write the targets and their facts as JSON",
      [] {
        const Listing l = list_everything();
        std::string out;
        for (const TargetFacts& f : l.targets) out += format_target(f);
        for (const json& api : l.apis) {
          for (const json& note : api["notes"]) out += fmt::format("{}: {}\n", api["api"].get<std::string>(), note.get<std::string>());
        }
        return out;
      },
      [] {
        const Listing l = list_everything();
        json targets = json::array();
        for (const TargetFacts& f : l.targets) targets.push_back(to_json(f));
        return json{{"targets", targets}, {"apis", l.apis}};
      });
}

}  // namespace roofline::cli
