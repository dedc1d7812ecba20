// The fleet analysis (`roofline fleet`, and the report `roofline run --mpi` writes): which nodes are slow,
// and why. Nodes are grouped by hardware fingerprint (CPU model, cores, SMT, ISA, memory size, nominal
// clock); within a group each key figure (key_figures.hpp) gets the group median, the MAD, each node's
// robust z-score and its shortfall below the median. A node's figure is flagged when it is both beyond the
// robust threshold (z <= -robust_z) and at least `threshold` below the median, so that a tight fleet does
// not flag noise; groups under kFleetMinGroupForStatistics nodes are compared by the percent alone and
// say so. Each flagged node gets a diagnosis from which figures moved.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/fleet/fleet_file.hpp"
#include "roofline/model/key_figures.hpp"

namespace roofline {

// Under this many nodes a MAD says little (Intel Cluster Checker asks for more, too): percent only.
inline constexpr int kFleetMinGroupForStatistics = 5;

struct FleetOptions {
  double threshold = 0.05;  // relative shortfall below the group median, 0.05 = 5 %
  // Robust z = (value - median) / (1.4826 MAD): 3.5 is Iglewicz and Hoaglin's outlier cut for it.
  double robust_z = 3.5;
  // true (`roofline fleet`): a measured node without the needed ceilings is bad input. false (`run --mpi`,
  // whose flags may leave suites out): that node is left out of the comparison with a note.
  bool strict = true;
};

// One key figure across a group.
struct FleetFigure {
  KeyFigure figure;  // the first node's figure (id, label, unit, direction); its value is that node's
  double median = 0.0;
  double mad = 0.0;           // unscaled median absolute deviation
  double robust_sigma = 0.0;  // 1.4826 * MAD
  int nodes = 0;              // nodes of the group that have this figure
};

// One node's value of one figure.
struct FleetCell {
  double value = 0.0;
  double percent_of_median = 0.0;  // 100 * value / median
  double shortfall = 0.0;          // how much worse than the median, relative (0.25: 25 % below)
  std::optional<double> robust_z;  // signed, worse is negative; none when the MAD is 0 or the group is small
  bool flagged = false;
};

struct FleetGroup {
  std::string fingerprint;                         // one line: the facts below joined
  std::vector<std::pair<std::string, std::string>> facts;  // (name, value) for people
  std::vector<std::size_t> nodes;                  // indices into FleetAnalysis::nodes (measured ones)
  bool statistics = false;                         // >= kFleetMinGroupForStatistics nodes
  std::vector<FleetFigure> figures;                // in key_figures() order
};

struct FleetNodeResult {
  int group = -1;                             // index into groups; -1 for a failed rank
  std::map<std::string, FleetCell> cells;     // by figure id
  std::vector<std::string> flagged;           // ids of flagged figures, in the group's figure order
  std::vector<std::string> missing;           // figures its group has and it lacks
  std::string diagnosis;                      // empty unless flagged
};

struct FleetAnalysis {
  FleetOptions options;
  std::vector<FleetNode> nodes;
  std::vector<FleetNodeResult> results;  // parallel to nodes
  std::vector<FleetGroup> groups;
  std::vector<std::string> notes;

  [[nodiscard]] int flagged_count() const;
  [[nodiscard]] int failed_count() const;
  // 0: every node in line; 1: a node flagged or a rank failed.
  [[nodiscard]] int exit_code() const { return flagged_count() + failed_count() > 0 ? 1 : 0; }
  [[nodiscard]] std::string label(std::size_t node) const { return fleet_node_label(nodes, node); }
};

// The hardware fingerprint of one results file, as (name, value) facts.
std::vector<std::pair<std::string, std::string>> hardware_fingerprint(const ResultsDocument& results);

// Analyses checked nodes (load_fleet_inputs / check_fleet_nodes). Throws InputError naming the node's
// source when a measured node lacks the ceilings the analysis needs (options.strict).
FleetAnalysis analyze_fleet(std::vector<FleetNode> nodes, const FleetOptions& options);

// The diagnosis of one node from the cells of its flagged figures (exposed for tests).
std::string diagnose_node(const std::vector<FleetFigure>& figures, const FleetNodeResult& node);

// Renderers. Text: summary, diagnoses, failed ranks, and per group a table of nodes x the figures at its
// largest thread count. Markdown (CI step summary): the same, every figure in a collapsed section. JSON:
// everything. HTML: one self-contained page with the full table, a chart per key figure, the groups and
// each node's key tables inline. Every string from input is escaped.
std::string render_fleet_text(const FleetAnalysis& fleet);
std::string render_fleet_markdown(const FleetAnalysis& fleet);
nlohmann::json fleet_to_json(const FleetAnalysis& fleet);
std::string render_fleet_html(const FleetAnalysis& fleet);

}  // namespace roofline
