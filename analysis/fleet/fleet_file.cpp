// Reading and writing the fleet's inputs: see fleet_file.hpp.
#include "roofline/fleet/fleet_file.hpp"

#include <algorithm>
#include <ctime>
#include <map>
#include <type_traits>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/model/results.hpp"

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

// The rank a results file records in context.mpi (written by `run --mpi`), if any. The model does not type
// context.mpi: it stays in the context's `extra`.
std::optional<int> rank_of(const ResultsDocument& results, const std::string& source) {
  const json& ctx = results.context.extra;
  if (!ctx.contains("mpi")) return std::nullopt;
  const json& mpi = ctx["mpi"];
  if (!mpi.is_object() || !mpi.contains("rank") || !mpi["rank"].is_number_integer() || mpi["rank"].get<int>() < 0) {
    throw InputError(fmt::format("{}: 'context.mpi.rank' must be a non-negative integer", source));
  }
  return mpi["rank"].get<int>();
}

// Whether a parsed JSON document is a fleet file (rather than a per-node results file).
bool is_fleet_document(const json& doc) {
  return doc.is_object() && (doc.contains("fleet_schema_version") || doc.value("kind", json()) == kFleetKind);
}

template <typename T>
std::optional<T> optional_field(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) return std::nullopt;
  const json& v = object[key];
  if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) return std::nullopt;
  } else {
    if (!v.is_number_integer()) return std::nullopt;
  }
  return v.get<T>();
}

FleetLauncher launcher_from(const json& doc) {
  const json& l = doc.contains("launcher") ? doc["launcher"] : json();
  return {optional_field<std::string>(l, "mpi_library"), optional_field<long long>(l, "world_size"),
          optional_field<long long>(l, "hosts"), optional_field<std::string>(l, "launched_by"),
          optional_field<std::string>(l, "slurm_job_id")};
}

json launcher_json(const FleetLauncher& l) {
  json j = json::object();
  if (l.mpi_library) j["mpi_library"] = *l.mpi_library;
  if (l.world_size) j["world_size"] = *l.world_size;
  if (l.hosts) j["hosts"] = *l.hosts;
  if (l.launched_by) j["launched_by"] = *l.launched_by;
  if (l.slurm_job_id) j["slurm_job_id"] = *l.slurm_job_id;
  return j;
}

FleetNode node_of(FleetEntry entry, const std::string& source) {
  FleetNode n;
  n.rank = entry.rank;
  n.name = std::move(entry.node);
  n.source = fmt::format("{} rank {}", source, entry.rank);
  n.ok = entry.ok;
  if (n.ok) {
    n.results = std::move(entry.results);
  } else {
    n.error = std::move(entry.error);
  }
  return n;
}

}  // namespace

FleetEntry fleet_entry_measured(int rank, const std::string& node, ResultsDocument results) {
  return {rank, node, true, "", std::move(results)};
}

FleetEntry fleet_entry_failed(int rank, const std::string& node, const std::string& error) {
  return {rank, node, false, error, ResultsDocument{}};
}

FleetDocument fleet_document(std::vector<FleetEntry> entries, FleetLauncher launcher) {
  std::stable_sort(entries.begin(), entries.end(), [](const FleetEntry& a, const FleetEntry& b) { return a.rank < b.rank; });
  return {utc_now(), std::move(launcher), std::move(entries)};
}

FleetEntry read_fleet_entry(const json& e, const std::string& file, std::size_t index) {
  const std::string where = fmt::format("{}: nodes[{}]", file, index);
  if (!e.is_object()) throw InputError(where + " is not an object");
  if (!e.contains("rank") || !e["rank"].is_number_integer() || e["rank"].get<int>() < 0) {
    throw InputError(where + ": 'rank' must be a non-negative integer");
  }
  if (!e.contains("node") || !e["node"].is_string() || e["node"].get<std::string>().empty()) {
    throw InputError(where + ": 'node' must be a non-empty string");
  }
  if (!e.contains("ok") || !e["ok"].is_boolean()) throw InputError(where + ": 'ok' must be true or false");
  FleetEntry entry;
  entry.rank = e["rank"].get<int>();
  entry.node = e["node"].get<std::string>();
  entry.ok = e["ok"].get<bool>();
  if (!entry.ok) {
    if (!e.contains("error") || !e["error"].is_string()) throw InputError(where + ": a failed rank needs an 'error' string");
    entry.error = e["error"].get<std::string>();
    return entry;
  }
  if (!e.contains("results")) throw InputError(where + ": a measured rank needs 'results'");
  const std::string source = fmt::format("{} rank {}", file, entry.rank);
  entry.results = read_results(e["results"], source);
  if (!entry.results.roofline) {
    throw InputError(fmt::format("{}: plain Google Benchmark JSON, not a roofline results file", source));
  }
  return entry;
}

FleetDocument read_fleet(const json& doc, const std::string& source) {
  if (!is_fleet_document(doc)) throw InputError(fmt::format("{}: not a fleet file (no 'fleet_schema_version')", source));
  check_schema_version(doc, "fleet_schema_version", "fleet_schema_version", "fleet schema version", kFleetSchemaVersion,
                       source);
  if (!doc.contains("nodes") || !doc["nodes"].is_array()) {
    throw InputError(fmt::format("{}: 'nodes' is missing or not an array", source));
  }
  FleetDocument fleet;
  fleet.created = doc.contains("created") && doc["created"].is_string() ? doc["created"].get<std::string>() : "";
  fleet.launcher = launcher_from(doc);
  for (std::size_t i = 0; i < doc["nodes"].size(); ++i) fleet.nodes.push_back(read_fleet_entry(doc["nodes"][i], source, i));
  return fleet;
}

json to_json(const FleetEntry& entry) {
  if (!entry.ok) return {{"rank", entry.rank}, {"node", entry.node}, {"ok", false}, {"error", entry.error}};
  return {{"rank", entry.rank}, {"node", entry.node}, {"ok", true}, {"results", to_json(entry.results)}};
}

json to_json(const FleetDocument& fleet) {
  json nodes = json::array();
  for (const FleetEntry& e : fleet.nodes) nodes.push_back(to_json(e));
  return {{"kind", kFleetKind}, {"fleet_schema_version", kFleetSchemaVersion}, {"created", fleet.created},
          {"launcher", launcher_json(fleet.launcher)}, {"nodes", std::move(nodes)}};
}

std::vector<FleetNode> fleet_nodes(const FleetDocument& fleet, const std::string& source) {
  std::vector<FleetNode> out;
  for (const FleetEntry& e : fleet.nodes) out.push_back(node_of(e, source));
  return out;
}

FleetNode results_file_node(ResultsDocument results, const std::string& source) {
  if (!results.roofline) {
    throw InputError(fmt::format("{}: plain Google Benchmark JSON, not a roofline results file", source));
  }
  FleetNode n;
  n.name = host_of(results);
  if (n.name.empty()) throw InputError(fmt::format("{}: no host name in 'context.machine.hostname'", source));
  n.rank = rank_of(results, source);
  n.source = source;
  n.results = std::move(results);
  return n;
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
    if (is_fleet_document(doc)) {
      for (FleetNode& n : fleet_nodes(read_fleet(doc, f.string()), f.string())) nodes.push_back(std::move(n));
    } else {
      nodes.push_back(results_file_node(read_results(doc, f.string()), f.string()));
    }
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
