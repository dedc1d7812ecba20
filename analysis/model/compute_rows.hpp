// One target's compute rows (private to the model): its compute suite's entries grouped by the dimensions they
// carry (precision, engine, isa, vector width, threads, a tile kernel's variant; a device's entries name no isa,
// width or threads: those are "" and 0), the rows its suite context lists as not supported, and its clock suite's
// best clock per thread count. compute_ceilings.cpp takes every target's theoretical peaks from these rows.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/record_fields.hpp"
#include "roofline/model/results_targets.hpp"

namespace roofline {

// The table's display order: precision rank, vector bits, isa rank, threads, a tile row's variant (TDPBSSD and
// TDPBUSD are two rows of one precision and width) or an ARM64 matrix multiply's (SMMLA beside SDOT), then the names
// themselves (precisions and isas outside the vocabulary's order, a device's engines).
using ComputeKey = std::tuple<int, int, int, int, std::string, std::string, std::string, std::string>;

struct ComputeRow {
  EntryLabels labels;  // the typed labels of its last entry (a not-supported row: its suite context's fields as labels)
  std::string precision, isa, engine = "vector";
  int bits = 0;
  int threads = 0;
  std::vector<double> values;
  std::vector<double> ipcs;
  std::vector<double> clocks;  // measured beside the kernel's calls, when the entries have them
  double best_value = 0.0;     // the best repetition's rate, and the clock measured beside it (0: none)
  double best_clock = 0.0;
  std::string benchmark;       // the best repetition's benchmark (the last entry's while none measured)
  std::string error;
  std::string status = "measured";
  std::string reason;
};

struct ComputeRows {
  std::map<int, double> clock;  // the clock suite's best repetition per thread count
  std::map<ComputeKey, ComputeRow> rows;
  bool instruction_labels = false;  // a row names its isa or instruction (what the CPU's counting notes are about)
};

// The compute rows of `target`: its part of the typed document (target_document; its entries' typed labels) and its
// part of context.suites (the suites' "<prefix>compute" key, target_prefix). Throws InputError for an
// engine that is not 'vector' or 'matrix'.
ComputeRows collect_compute_rows(const ResultsDocument& doc, const RecordedTarget& target);

// A label as an integer: the typed member, else what the file wrote there in another kind (kept in the labels'
// `extra`: a whole number, or a numeric string as older files wrote), 0 when absent or not one.
// `label_int(ROOFLINE_FIELD(r.labels, ops_per_instruction))`.
int label_int(const std::optional<long long>& member, const EntryLabels& labels, const char* key);

// The rate unit of a precision: OP/s for integers, FLOP/s otherwise; and the counter holding it.
std::string compute_unit(const std::string& precision);
const char* compute_counter(const std::string& precision);

}  // namespace roofline
