// The fleet's inputs: the fleet file that `roofline run --mpi` writes (one entry per MPI rank with its node
// name, rank and full results, or the error of a rank that failed; schema in results/README.md) and
// per-node results files gathered any other way (Slurm array jobs, ssh loops). Both become FleetNodes.
// Every problem (not JSON, truncated, another schema, a fleet of one, the same node twice) is one
// InputError naming the file, raised before anything is written.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analysis/results_document.hpp"

namespace roofline {

inline constexpr int kFleetSchemaVersion = 1;
inline constexpr const char* kFleetKind = "roofline-fleet";

// One node of the fleet: a measured results file, or the error of a rank that failed.
struct FleetNode {
  std::string name;         // host name (the rank's processor name, else context.machine.hostname)
  std::optional<int> rank;  // MPI rank when gathered by `run --mpi` (also read from a results file's context.mpi)
  std::string source;       // the file it came from, with "rank N" for fleet files
  bool ok = true;
  std::string error;        // why the rank failed (ok == false)
  ResultsDocument results;  // the full results file, typed (empty when failed)
};

// The entries of a fleet file, as the MPI driver builds them on each rank. The fleet file itself (its
// entries, launcher facts and parsed documents below) is still JSON: only the results in it are typed.
nlohmann::json fleet_entry_measured(int rank, const std::string& node, const ResultsDocument& results);
nlohmann::json fleet_entry_failed(int rank, const std::string& node, const std::string& error);
// The fleet file: entries sorted by rank, plus `launcher` facts (MPI library, world size, Slurm job).
nlohmann::json fleet_document(std::vector<nlohmann::json> entries, nlohmann::json launcher);

// Whether a parsed JSON document is a fleet file (rather than a per-node results file).
bool is_fleet_document(const nlohmann::json& doc);

// The nodes of one parsed document (a fleet file or one results file); `source` names it in messages.
std::vector<FleetNode> fleet_nodes(const nlohmann::json& doc, const std::string& source);

// Loads every file (each a fleet file or a results file) and checks the whole: at least two nodes, and no
// node name twice unless their ranks differ.
std::vector<FleetNode> load_fleet_inputs(const std::vector<std::filesystem::path>& files);
void check_fleet_nodes(const std::vector<FleetNode>& nodes);

// A name for people that tells nodes apart: the host name, with "#rank" when the host appears twice.
std::string fleet_node_label(const std::vector<FleetNode>& nodes, std::size_t index);

}  // namespace roofline
