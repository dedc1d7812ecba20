// Reading and writing the fleet's inputs: see fleet_file.hpp.
#include "roofline/analysis/fleet_file.hpp"

#include <algorithm>
#include <ctime>
#include <map>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/analysis/results.hpp"

namespace roofline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// The host a results file was measured on: context.machine.hostname, else Google Benchmark's host_name.
// A host name of another type counts as none (the typed reader keeps it aside; the caller says so in one line).
std::string host_of(const ResultsDocument& results) {
  const ResultsContext& ctx = results.context;
  if (ctx.machine && ctx.machine->hostname && !ctx.machine->hostname->empty()) return *ctx.machine->hostname;
  return ctx.host_name.value_or("");
}

// The rank a results file records in context.mpi (written by `run --mpi`), if any.
std::optional<int> rank_of(const json& results, const std::string& source) {
  const json& ctx = results["context"];
  if (!ctx.contains("mpi")) return std::nullopt;
  const json& mpi = ctx["mpi"];
  if (!mpi.is_object() || !mpi.contains("rank") || !mpi["rank"].is_number_integer() || mpi["rank"].get<int>() < 0) {
    throw InputError(fmt::format("{}: 'context.mpi.rank' must be a non-negative integer", source));
  }
  return mpi["rank"].get<int>();
}

FleetNode node_from_entry(const json& e, const std::string& file, std::size_t index) {
  const std::string where = fmt::format("{}: nodes[{}]", file, index);
  if (!e.is_object()) throw InputError(where + " is not an object");
  if (!e.contains("rank") || !e["rank"].is_number_integer() || e["rank"].get<int>() < 0) {
    throw InputError(where + ": 'rank' must be a non-negative integer");
  }
  if (!e.contains("node") || !e["node"].is_string() || e["node"].get<std::string>().empty()) {
    throw InputError(where + ": 'node' must be a non-empty string");
  }
  if (!e.contains("ok") || !e["ok"].is_boolean()) throw InputError(where + ": 'ok' must be true or false");
  FleetNode n;
  n.rank = e["rank"].get<int>();
  n.name = e["node"].get<std::string>();
  n.source = fmt::format("{} rank {}", file, *n.rank);
  n.ok = e["ok"].get<bool>();
  if (!n.ok) {
    if (!e.contains("error") || !e["error"].is_string()) throw InputError(where + ": a failed rank needs an 'error' string");
    n.error = e["error"].get<std::string>();
    return n;
  }
  if (!e.contains("results")) throw InputError(where + ": a measured rank needs 'results'");
  n.results = read_results(e["results"], n.source);
  if (!n.results.roofline) {
    throw InputError(fmt::format("{}: plain Google Benchmark JSON, not a roofline results file", n.source));
  }
  return n;
}

}  // namespace

json fleet_entry_measured(int rank, const std::string& node, const ResultsDocument& results) {
  return {{"rank", rank}, {"node", node}, {"ok", true}, {"results", to_json(results)}};
}

json fleet_entry_failed(int rank, const std::string& node, const std::string& error) {
  return {{"rank", rank}, {"node", node}, {"ok", false}, {"error", error}};
}

json fleet_document(std::vector<json> entries, json launcher) {
  std::sort(entries.begin(), entries.end(),
            [](const json& a, const json& b) { return a.value("rank", 0) < b.value("rank", 0); });
  return {{"kind", kFleetKind}, {"fleet_schema_version", kFleetSchemaVersion}, {"created", utc_now()},
          {"launcher", std::move(launcher)}, {"nodes", std::move(entries)}};
}

bool is_fleet_document(const json& doc) {
  return doc.is_object() && (doc.contains("fleet_schema_version") || doc.value("kind", json()) == kFleetKind);
}

std::vector<FleetNode> fleet_nodes(const json& doc, const std::string& source) {
  if (!is_fleet_document(doc)) {
    FleetNode n;
    n.results = read_results(doc, source);
    if (!n.results.roofline) {
      throw InputError(fmt::format("{}: plain Google Benchmark JSON, not a roofline results file", source));
    }
    n.name = host_of(n.results);
    if (n.name.empty()) throw InputError(fmt::format("{}: no host name in 'context.machine.hostname'", source));
    n.rank = rank_of(doc, source);
    n.source = source;
    return {n};
  }
  check_schema_version(doc, "fleet_schema_version", "fleet_schema_version", "fleet schema version", kFleetSchemaVersion,
                       source);
  if (!doc.contains("nodes") || !doc["nodes"].is_array()) {
    throw InputError(fmt::format("{}: 'nodes' is missing or not an array", source));
  }
  std::vector<FleetNode> out;
  for (std::size_t i = 0; i < doc["nodes"].size(); ++i) out.push_back(node_from_entry(doc["nodes"][i], source, i));
  return out;
}

void check_fleet_nodes(const std::vector<FleetNode>& nodes) {
  if (nodes.size() < 2) {
    throw InputError(fmt::format("{}: a fleet needs at least two nodes, got {}",
                                 nodes.empty() ? std::string("no input") : nodes.front().source, nodes.size()));
  }
  std::map<std::pair<std::string, int>, const FleetNode*> seen;
  for (const FleetNode& n : nodes) {
    const auto key = std::pair{n.name, n.rank.value_or(-1)};
    if (const auto it = seen.find(key); it != seen.end()) {
      throw InputError(fmt::format("{} and {} both hold node '{}'{}: the same node twice (refused unless ranks differ)",
                                   it->second->source, n.source, n.name,
                                   n.rank ? fmt::format(" rank {}", *n.rank) : std::string()));
    }
    seen[key] = &n;
  }
}

std::vector<FleetNode> load_fleet_inputs(const std::vector<fs::path>& files) {
  std::vector<FleetNode> nodes;
  for (const fs::path& f : files) {
    const json doc = load_json_file(f);
    for (FleetNode& n : fleet_nodes(doc, f.string())) nodes.push_back(std::move(n));
  }
  check_fleet_nodes(nodes);
  return nodes;
}

std::string fleet_node_label(const std::vector<FleetNode>& nodes, std::size_t index) {
  const FleetNode& n = nodes[index];
  const auto same = std::count_if(nodes.begin(), nodes.end(), [&](const FleetNode& o) { return o.name == n.name; });
  if (same < 2) return n.name;
  return n.rank ? fmt::format("{}#{}", n.name, *n.rank) : fmt::format("{} ({})", n.name, n.source);
}

}  // namespace roofline
