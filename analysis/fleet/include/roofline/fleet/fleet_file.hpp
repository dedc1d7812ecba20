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

#include "roofline/model/results_document.hpp"

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

// The fleet file as structs (results/README.md, "Fleet files"): one reader (read_fleet) and one writer
// (to_json), such that a file `run --mpi` wrote reads back to a document that writes the same text.
// One entry of `nodes`: a rank's results, or its error.
struct FleetEntry {
  int rank = 0;
  std::string node;         // MPI_Get_processor_name
  bool ok = true;
  std::string error;        // ok == false: what stopped the rank
  ResultsDocument results;  // ok == true: its results file, exactly as `roofline run` writes it
};

// `launcher`: who started the fleet. Written by `run --mpi`; read back for completeness, never interpreted (a
// field of another type reads as absent).
struct FleetLauncher {
  std::optional<std::string> mpi_library;   // MPI_Get_library_version's first line
  std::optional<long long> world_size;      // ranks
  std::optional<long long> hosts;           // distinct hosts
  std::optional<std::string> launched_by;   // "mpirun", "srun" or "unknown"
  std::optional<std::string> slurm_job_id;  // when there is one
};

struct FleetDocument {
  std::string created;  // UTC, "2026-12-01T10:00:00Z"
  FleetLauncher launcher;
  std::vector<FleetEntry> nodes;  // sorted by rank
};

// The entries of a fleet file, as the MPI driver builds them on each rank.
FleetEntry fleet_entry_measured(int rank, const std::string& node, ResultsDocument results);
FleetEntry fleet_entry_failed(int rank, const std::string& node, const std::string& error);
// The fleet file: entries sorted by rank, created now, with the `launcher` facts.
FleetDocument fleet_document(std::vector<FleetEntry> entries, FleetLauncher launcher);

// The one reader: a parsed fleet file (`source` names it in messages). Throws InputError naming the first bad
// part: another kind or schema version, 'nodes' not an array, an entry without a rank, node, ok, error or
// results ("fleet.json: nodes[2]: 'node' must be a non-empty string"), or results the typed model refuses.
FleetDocument read_fleet(const nlohmann::json& doc, const std::string& source);
// One entry of `nodes` (the MPI driver gathers them one by one): the reader's part, `file` and `index` in messages.
FleetEntry read_fleet_entry(const nlohmann::json& entry, const std::string& file, std::size_t index);
// The one writer, and its part for one entry.
nlohmann::json to_json(const FleetDocument& fleet);
nlohmann::json to_json(const FleetEntry& entry);

// The nodes of a fleet file, each named "<source> rank N".
std::vector<FleetNode> fleet_nodes(const FleetDocument& fleet, const std::string& source);
// The node of one per-node results file: its host (context.machine.hostname) and the rank it records in
// context.mpi, if any. Throws InputError for plain Google Benchmark JSON, a missing host name or a bad rank.
FleetNode results_file_node(ResultsDocument results, const std::string& source);

// Loads every file (each a fleet file or a results file, told apart by its kind) and checks the whole: at least two nodes, and no
// node name twice unless their ranks differ.
std::vector<FleetNode> load_fleet_inputs(const std::vector<std::filesystem::path>& files);
void check_fleet_nodes(const std::vector<FleetNode>& nodes);

// A name for people that tells nodes apart: the host name, with "#rank" when the host appears twice.
std::string fleet_node_label(const std::vector<FleetNode>& nodes, std::size_t index);

}  // namespace roofline
