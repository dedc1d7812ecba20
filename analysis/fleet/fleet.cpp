// The fleet analysis: grouping by hardware, robust statistics per key figure, flags and diagnoses. See
// fleet.hpp; rendering lives in fleet_render.cpp and fleet_html.cpp.
#include "roofline/fleet/fleet.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "roofline/regress/identity.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/statistics.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// The nominal clock printed in the CPU model ("... @ 2.10GHz"). The measured clock is a compared figure,
// never a grouping key, so that a throttled node is found slow instead of alone in its own group.
std::string clock_class(const std::string& cpu_model) {
  static const std::regex ghz(R"(@\s*([0-9.]+)\s*GHz)", std::regex::icase);
  std::smatch m;
  return std::regex_search(cpu_model, m, ghz) ? m[1].str() + " GHz" : "not in CPU model";
}

// The id's path parts: "memory/DRAM/read/threads:2" -> {memory, DRAM, read, threads:2}.
std::vector<std::string> id_parts(const std::string& id) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = id.find('/', start);
    parts.push_back(id.substr(start, slash - start));
    if (slash == std::string::npos) return parts;
    start = slash + 1;
  }
}

void fill_cells(const FleetGroup& group, const FleetOptions& options,
                const std::map<std::size_t, std::map<std::string, KeyFigure>>& figures,
                std::vector<FleetNodeResult>& results) {
  for (std::size_t n : group.nodes) {
    FleetNodeResult& r = results[n];
    const auto& mine = figures.at(n);
    for (const FleetFigure& f : group.figures) {
      const auto it = mine.find(f.figure.id);
      if (it == mine.end()) {
        r.missing.push_back(f.figure.id);
        continue;
      }
      FleetCell c;
      c.value = it->second.value;
      const double sign = f.figure.higher_is_better ? 1.0 : -1.0;
      c.percent_of_median = f.median != 0.0 ? 100.0 * c.value / f.median : 0.0;
      c.shortfall = f.median != 0.0 ? sign * (f.median - c.value) / std::fabs(f.median) : 0.0;
      if (group.statistics && f.robust_sigma > 0.0) c.robust_z = sign * (c.value - f.median) / f.robust_sigma;
      const bool beyond_robust = !group.statistics ||
                                 (f.robust_sigma > 0.0 ? -*c.robust_z >= options.robust_z : c.shortfall > 0.0);
      // A relative epsilon so that "exactly 5 % below" flags at a 5 % threshold despite rounding.
      c.flagged = beyond_robust && c.shortfall >= options.threshold * (1.0 - 1e-9);
      if (c.flagged) r.flagged.push_back(f.figure.id);
      r.cells[f.figure.id] = c;
    }
    if (!r.flagged.empty()) r.diagnosis = diagnose_node(group.figures, r);
  }
}

// A node whose configuration differs from its group's first node (another --max-isa, SMT, compiler):
// compared with its group all the same, and the note says what differs, which often is the finding.
void configuration_notes(FleetAnalysis& fleet) {
  for (const FleetGroup& g : fleet.groups) {
    const Facts first = configuration_facts(fleet.nodes[g.nodes.front()].results);
    for (std::size_t i = 1; i < g.nodes.size(); ++i) {
      const auto diffs = fact_differences(first, configuration_facts(fleet.nodes[g.nodes[i]].results));
      if (diffs.empty()) continue;
      std::string& diagnosis = fleet.results[g.nodes[i]].diagnosis;
      if (!diagnosis.empty()) {
        diagnosis += fmt::format(". It also runs another configuration than {} ({}): check that first",
                                 fleet.label(g.nodes.front()), fmt::join(diffs, "; "));
      }
      fleet.notes.push_back(fmt::format("{} runs another configuration than {} ({}): compared within their hardware group",
                                        fleet.label(g.nodes[i]), fleet.label(g.nodes.front()), fmt::join(diffs, "; ")));
    }
  }
}

FleetGroup make_group(const std::vector<std::pair<std::string, std::string>>& facts) {
  FleetGroup g;
  g.facts = facts;
  for (const auto& [k, v] : facts) g.fingerprint += (g.fingerprint.empty() ? "" : ", ") + k + " " + v;
  return g;
}

}  // namespace

int FleetAnalysis::flagged_count() const {
  return static_cast<int>(std::count_if(results.begin(), results.end(), [](const FleetNodeResult& r) { return !r.flagged.empty(); }));
}

int FleetAnalysis::failed_count() const {
  return static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [](const FleetNode& n) { return !n.ok; }));
}

std::vector<std::pair<std::string, std::string>> hardware_fingerprint(const ResultsDocument& results) {
  // The machine identity of compare and the gate (identity.hpp), so that both call the same nodes one
  // hardware; the --max-isa cap, SMT and the compiler are configuration, stated per node instead.
  std::vector<std::pair<std::string, std::string>> facts;
  for (const Fact& f : machine_facts(results)) facts.emplace_back(f.name, f.value ? fact_text(f) : "unknown");
  const std::optional<MachineRecord>& machine = results.context.machine;
  const std::string model = machine && machine->cpu_model ? *machine->cpu_model : "";
  facts.emplace_back("clock class", clock_class(model.empty() ? "unknown" : model));  // follows from the CPU model: splits no group
  return facts;
}

FleetAnalysis analyze_fleet(std::vector<FleetNode> nodes, const FleetOptions& options) {
  FleetAnalysis fleet;
  fleet.options = options;
  fleet.nodes = std::move(nodes);
  fleet.results.resize(fleet.nodes.size());
  std::map<std::size_t, std::map<std::string, KeyFigure>> figures;
  std::map<std::size_t, std::vector<std::string>> order;  // key_figures()' own order: levels, precisions, ...
  std::map<std::string, int> group_of_fingerprint;
  for (std::size_t i = 0; i < fleet.nodes.size(); ++i) {
    const FleetNode& n = fleet.nodes[i];
    if (!n.ok) continue;
    try {
      for (KeyFigure& f : key_figures(n.results)) {
        order[i].push_back(f.id);
        figures[i][f.id] = std::move(f);
      }
    } catch (const InputError& e) {
      if (options.strict) throw InputError(fmt::format("{}: {}", n.source, e.what()));
      fleet.notes.push_back(fmt::format("{} is not compared: {}", fleet.label(i), e.what()));
      continue;
    }
    FleetGroup g = make_group(hardware_fingerprint(n.results));
    auto [it, added] = group_of_fingerprint.try_emplace(machine_identity(n.results), static_cast<int>(fleet.groups.size()));
    if (added) fleet.groups.push_back(std::move(g));
    fleet.groups[it->second].nodes.push_back(i);
    fleet.results[i].group = it->second;
  }
  for (FleetGroup& g : fleet.groups) {
    g.statistics = static_cast<int>(g.nodes.size()) >= kFleetMinGroupForStatistics;
    std::vector<std::string> ids;  // in the order key_figures() gives them, first seen first
    std::map<std::string, std::vector<double>> values;
    std::map<std::string, KeyFigure> first;
    for (std::size_t n : g.nodes) {
      for (const std::string& id : order[n]) {
        const KeyFigure& f = figures[n].at(id);
        if (first.try_emplace(id, f).second) ids.push_back(id);
        values[id].push_back(f.value);
      }
    }
    for (const std::string& id : ids) {
      const std::vector<double>& v = values[id];
      FleetFigure f{first[id], median(v), mad(v), robust_sigma(v), static_cast<int>(v.size())};
      g.figures.push_back(f);
    }
    fill_cells(g, options, figures, fleet.results);
    if (g.nodes.size() == 1) {
      fleet.notes.push_back(fmt::format("{} is the only node of its hardware ({}): nothing to compare it with",
                                        fleet.label(g.nodes.front()), g.fingerprint));
    } else if (!g.statistics) {
      fleet.notes.push_back(fmt::format("a group of {} nodes (under {}): compared by percent below the median only, "
                                        "no robust z-score", g.nodes.size(), kFleetMinGroupForStatistics));
    }
  }
  for (std::size_t i = 0; i < fleet.nodes.size(); ++i) {
    if (!fleet.results[i].missing.empty()) {
      fleet.notes.push_back(fmt::format("{} lacks {} figure(s) its group measured (e.g. {}): other run flags, or its curve found other levels",
                                        fleet.label(i), fleet.results[i].missing.size(), fleet.results[i].missing.front()));
    }
  }
  configuration_notes(fleet);
  if (fleet.groups.size() > 1) {
    fleet.notes.push_back(fmt::format("{} hardware groups: nodes are compared only within their group", fleet.groups.size()));
  }
  return fleet;
}

std::string diagnose_node(const std::vector<FleetFigure>& figures, const FleetNodeResult& node) {
  std::set<std::string> levels, precisions, gemm;
  bool clock = false;
  std::set<int> threads;
  std::vector<std::string> named;
  for (const FleetFigure& f : figures) {
    if (std::find(node.flagged.begin(), node.flagged.end(), f.figure.id) == node.flagged.end()) continue;
    const auto parts = id_parts(f.figure.id);
    const std::string& kind = f.figure.group;
    if (kind == "memory" && parts.size() > 1) levels.insert(parts[1]);
    if (kind == "compute" && parts.size() > 1) precisions.insert(parts[1]);
    if (kind == "gemm" && parts.size() > 1) gemm.insert(parts[1]);
    if (kind == "clock") clock = true;
    threads.insert(f.figure.threads);
    named.push_back(fmt::format("{} at {:.1f}%", f.figure.label, node.cells.at(f.figure.id).percent_of_median));  // label ends in the threads
  }
  const bool memory = !levels.empty(), compute = !precisions.empty();
  std::string cause;
  if (clock) {
    cause = "the measured clock is down: throttling (thermal or power capping) or a lower frequency setting"
            + std::string(compute || levels.count("L1") ? "; compute and L1 follow the clock" : "");
  } else if (compute && levels.count("L1")) {
    cause = "compute and L1 down together at the same idle clock: the cores slow down under load (thermal or "
            "power throttling, frequency capping) or another job shares them";
  } else if (compute && !memory) {
    cause = "compute only: the vector units run slower (frequency licence under wide vectors, a BIOS or microcode "
            "setting) or SMT siblings are busy";
  } else if (levels == std::set<std::string>{"DRAM"} && !compute) {
    cause = "DRAM only, the caches and cores in line: a DIMM or memory channel missing or degraded, or memory "
            "populated or configured differently (check the DIMM population and NUMA interleaving)";
  } else if (levels.size() == 1 && !compute) {
    cause = fmt::format("only {} is slower: that cache is shared with another job or partitioned (cache "
                        "allocation), or its uncore clock is capped", *levels.begin());
  } else if (memory && compute) {
    cause = "memory and compute down together: the node is shared with another job, or runs another power profile";
  } else if (memory) {
    cause = "several memory levels down, compute in line: the uncore/mesh clock is capped or the memory subsystem "
            "is configured differently";
  } else if (!gemm.empty()) {
    cause = "GEMM only while the ceilings are in line: the linear-algebra libraries or their settings differ "
            "(versions, OPENBLAS_CORETYPE, thread placement)";
  }
  const bool single_thread_measured =
      std::any_of(figures.begin(), figures.end(), [](const FleetFigure& f) { return f.figure.threads == 1; });
  if (threads.size() == 1 && *threads.begin() > 1 && single_thread_measured) {
    cause += "; only at the full thread count (single-thread figures in line): fewer usable cores, or one socket "
             "or NUMA domain slower";
  }
  return fmt::format("{}. Percent of the group median: {}", cause, fmt::join(named, "; "));
}

}  // namespace roofline
