// Dequant-dot ceilings from the compute suite's dequant_dot entries: see dequant_ceilings.hpp.
#include "roofline/model/dequant_ceilings.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/statistics.hpp"

#include "dequant_placements.hpp"

namespace roofline {
using nlohmann::json;

namespace {

constexpr const char* kUnit = "weights/s";

int format_rank(const std::string& f) {
  static const std::vector<std::string> kOrder{"q8_0", "q4_0", "q4_k", "q5_k", "q6_k", "int4"};
  return static_cast<int>(std::find(kOrder.begin(), kOrder.end(), f) - kOrder.begin());
}
int isa_rank(const std::string& isa) {
  static const std::vector<std::string> kOrder{"scalar", "avx2", "avx_vnni", "avx512", "avx512_vnni"};
  return static_cast<int>(std::find(kOrder.begin(), kOrder.end(), isa) - kOrder.begin());
}

// A typed label: an integer one, 0 when absent (or written in another kind); a word, "" when absent.
int int_label(const std::optional<long long>& label) { return label ? static_cast<int>(*label) : 0; }
std::string text_label(const std::optional<std::string>& label) { return label.value_or(""); }

// (format rank, threads, isa rank, level): the table's order.
using Key = std::tuple<int, int, int, std::string>;

struct Row {
  EntryLabels labels;  // its entries' typed labels (a not-supported row: its suite context's fields as labels)
  std::string format, isa, level;
  int threads = 0;
  std::vector<double> values, bytes;
  std::string benchmark, status = "measured", reason;
};

std::string base_name(const BenchmarkEntry& e) {
  std::string n = e.run_name ? *e.run_name : e.name.value_or("");
  for (const char* suffix : {"/min_time:", "/repeats:", "/real_time", "/iterations:"}) {
    if (const auto pos = n.find(suffix); pos != std::string::npos) n.erase(pos);
  }
  return n;
}

// The not-supported rows the run listed (context.suites.compute.dequant_dot.not_supported; context.suites is not
// typed yet: the typed context keeps it in `extra`).
const json& unsupported_rows(const ResultsContext& context) {
  static const json empty = json::array();
  const json* c = &context.extra;
  for (const char* key : {"suites", "compute", "dequant_dot", "not_supported"}) {
    if (!c->is_object() || !c->contains(key)) return empty;
    c = &(*c)[key];
  }
  return c->is_array() ? *c : empty;
}

// The fp32 vector FMA ceiling at `threads` (0: none measured).
double fp32_peak(const RooflineSection& section, int threads) {
  const ComputeCeilingRecord* c = compute_roof(section, "fp32", threads, "vector");
  return c != nullptr ? c->value.value_or(0.0) : 0.0;
}

double bits_per_weight(const EntryLabels& labels) {
  const int w = int_label(labels.block_weights), b = int_label(labels.block_bytes);
  return w > 0 ? 8.0 * b / w : 0.0;
}

}  // namespace

std::string dequant_counting_convention() {
  return "Dequant-dot rows: a GEMV of weights in their block format (llama.cpp's q8_0, q4_0, q4_k, q5_k, q6_k; "
         "int4 with an fp16 scale per 128) times one activation vector (q8_0 activations for q8_0/q4_0, q8_k for the "
         "K formats, fp32 for int4), weights in L1 and L2; weights/s = rows x cols / s; a weight times its "
         "activation counts one multiply-add = 2 FLOP (flop_per_second), whatever unpacking it took.";
}

namespace {

// The rows of the target's dequant_dot entries and of the suite's not-supported list, in the table's order.
std::map<Key, Row> dequant_rows(const ResultsDocument& doc) {
  std::map<Key, Row> rows;
  std::vector<int> thread_counts;
  for (const BenchmarkEntry& e : doc.benchmarks) {
    if (e.run_type.value_or("iteration") != "iteration" || !e.labels || e.labels->suite.value_or("") != "dequant_dot") continue;
    const EntryLabels& l = *e.labels;  // the row keeps its typed labels
    Row r;
    r.labels = l;
    r.format = text_label(l.format);
    r.isa = text_label(l.isa);
    r.level = text_label(l.level);
    r.threads = int_label(l.threads);
    if (r.format.empty() || r.threads <= 0) continue;
    if (std::find(thread_counts.begin(), thread_counts.end(), r.threads) == thread_counts.end()) thread_counts.push_back(r.threads);
    Row& row = rows.try_emplace(Key{format_rank(r.format), r.threads, isa_rank(r.isa), r.level}, r).first->second;
    row.benchmark = base_name(e);
    if (e.error_occurred.value_or(false)) {
      row.reason = e.error_message.value_or("failed");
      continue;
    }
    if (const double v = fields::amount(ROOFLINE_FIELD(e, weights_per_second)); v > 0.0) row.values.push_back(v);
    if (const double b = fields::amount(ROOFLINE_FIELD(e, bytes_per_second)); b > 0.0) row.bytes.push_back(b);
  }
  for (const json& u : unsupported_rows(doc.context)) {
    if (!u.is_object()) continue;
    for (const int t : thread_counts) {
      Row r;
      r.labels = read_labels(u);  // the labels its entries would have had
      r.format = text_label(r.labels.format);
      r.isa = text_label(r.labels.isa);
      r.threads = t;
      r.status = "not supported";
      r.reason = u.contains("reason") && u["reason"].is_string() ? u["reason"].get<std::string>() : "";
      rows.try_emplace(Key{format_rank(r.format), t, isa_rank(r.isa), ""}, r);
    }
  }
  return rows;
}

// A dequant_table row: what the row is, its measured figures (null where it has none) and the fp32 FMA peak beside it.
DequantRowRecord table_row(const Row& r, double peak) {
  DequantRowRecord row;
  row.format = r.format;
  row.isa = r.isa;
  row.level = r.level;
  row.threads = r.threads;
  row.status = r.status;
  row.unit = kUnit;
  row.bits_per_weight = bits_per_weight(r.labels);
  row.activations = text_label(r.labels.activations);
  row.instruction = text_label(r.labels.instruction);
  row.vector_bits = int_label(r.labels.vector_bits);
  row.reason = r.reason;
  row.benchmark = r.benchmark;
  fields::set(ROOFLINE_FIELD(row, fp32_fma_peak), peak > 0.0 ? std::optional<double>(peak) : std::nullopt);
  for (const char* key : {"value", "median", "flop_per_second", "bytes_per_second", "percent_of_fp32_peak"}) {
    row.extra[key] = nullptr;
  }
  if (r.status != "measured") return row;
  const double value = max_of(r.values);
  fields::set(ROOFLINE_FIELD(row, value), value);
  fields::set(ROOFLINE_FIELD(row, median), median(r.values));
  fields::set(ROOFLINE_FIELD(row, flop_per_second), 2.0 * value);
  if (!r.bytes.empty()) fields::set(ROOFLINE_FIELD(row, bytes_per_second), max_of(r.bytes));
  if (peak > 0.0) fields::set(ROOFLINE_FIELD(row, percent_of_fp32_peak), 100.0 * 2.0 * value / peak);
  return row;
}

// The ceiling a measured row is, should it be its format's best at its thread count.
DequantCeilingRecord ceiling_of(const DequantRowRecord& row) {
  DequantCeilingRecord c;
  c.format = row.format;
  c.threads = row.threads;
  c.isa = row.isa;
  c.level = row.level;
  c.value = row.value;
  c.unit = kUnit;
  c.flop_per_second = row.flop_per_second;
  c.bits_per_weight = row.bits_per_weight;
  c.activations = row.activations;
  c.benchmark = row.benchmark;
  return c;
}

// The target's dequant part, its rows built typed: see derive_dequant_ceilings.
RooflineSection dequant_part(const ResultsDocument& doc, const RecordedTarget& target, const RooflineSection& section) {
  std::map<Key, Row> rows = dequant_rows(doc);
  RooflineSection out;
  if (rows.empty()) return out;  // a file from before issue 38: the section stays as it was
  std::vector<DequantRowRecord>& table = out.dequant_table.emplace();
  std::map<std::pair<int, int>, DequantCeilingRecord> best;  // (format rank, threads) -> the best row
  for (auto& [key, r] : rows) {
    if (r.status == "measured" && r.values.empty()) {
      r.status = "failed";
      if (r.reason.empty()) r.reason = "no valid repetition";
    }
    table.push_back(table_row(r, fp32_peak(section, r.threads)));
    const DequantRowRecord& row = table.back();
    if (r.status != "measured") continue;
    const auto bk = std::make_pair(std::get<0>(key), r.threads);
    if (!best.count(bk) || *row.value > best[bk].value.value_or(0.0)) best[bk] = ceiling_of(row);
  }
  std::vector<DequantCeilingRecord>& ceilings = out.dequant_ceilings.emplace();
  for (const auto& [k, c] : best) ceilings.push_back(c);
  out.notes = std::vector<std::string>{"dequant: " + dequant_counting_convention()};
  out.dequant_placements = dequant_placements(doc, target, section, ceilings);
  return out;
}

}  // namespace

RooflineSection derive_dequant_ceilings(const ResultsDocument& part, const RecordedTarget& target,
                                        const RooflineSection& section) {
  return dequant_part(part, target, section);
}

const DequantCeilingRecord* dequant_roof(const std::vector<DequantCeilingRecord>& ceilings, const std::string& format,
                                         int threads) {
  const DequantCeilingRecord* best = nullptr;
  for (const DequantCeilingRecord& c : ceilings) {
    if (c.format.value_or("") != format || c.threads.value_or(0) != threads) continue;
    if (best == nullptr || c.value.value_or(0.0) > best->value.value_or(0.0)) best = &c;
  }
  return best;
}

void add_dequant_key_figures(const RooflineSection& roofline, std::vector<KeyFigure>& out) {
  // What the lenient reader could not type is bad input here: the table in another kind, or a row's field.
  if (const auto it = roofline.extra.find("dequant_ceilings"); !roofline.dequant_ceilings && it != roofline.extra.end()) {
    throw InputError(it->is_array() ? "roofline.dequant_ceilings: an entry lacks 'format'"
                                    : "roofline.dequant_ceilings is not an array");
  }
  std::map<std::pair<int, int>, const DequantCeilingRecord*> ordered;  // (threads, format rank)
  for (const DequantCeilingRecord& e : fields::records_of(roofline.dequant_ceilings)) {
    if (!e.format) throw InputError("roofline.dequant_ceilings: an entry lacks 'format'");
    if (!e.threads || *e.threads < 1) {
      throw InputError("roofline.dequant_ceilings: 'threads' is missing or not a positive integer");
    }
    if (!e.value || !std::isfinite(*e.value) || *e.value < 0.0) {
      throw InputError("roofline.dequant_ceilings: 'value' is missing, negative or not a number");
    }
    ordered[{static_cast<int>(*e.threads), format_rank(*e.format)}] = &e;
  }
  for (const auto& [k, e] : ordered) {
    const int threads = k.first;
    out.push_back({fmt::format("dequant/{}/threads:{}", *e->format, threads), "dequant",
                   fmt::format("{} dequant-dot ({}), {}", *e->format, e->isa.value_or("?"),
                               threads == 1 ? std::string("1 thread") : fmt::format("{} threads", threads)),
                   threads, *e->value, kUnit, true, "best kernel"});
  }
}

}  // namespace roofline
