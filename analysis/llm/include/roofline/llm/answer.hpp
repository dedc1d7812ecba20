// The answer of `roofline llm`, typed: what summarize (summary.hpp) builds from a model config and a results
// file's ceilings, and compare_measured (measured.hpp) from what the --measure chain timed; what the terminal
// and HTML renderers (tables.hpp, html.hpp) read. One writer, to_json, gives the document `llm --json` prints,
// so that the renderers and the document read the same figures and only the writer knows their JSON names.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/common/vocabulary.hpp"
#include "roofline/llm/config.hpp"
#include "roofline/llm/estimate.hpp"
#include "roofline/llm/observed.hpp"
#include "roofline/llm/quant.hpp"
#include "roofline/llm/roofs.hpp"
#include "roofline/llm/speculative.hpp"

namespace roofline::llm {

// The model's shape, storage and memory: parameters (total and active), weight bytes in their format, the KV
// cache (windowed layers capped), whether the weights fit the target's memory and how many sequences' KV cache
// fit beside them.
struct ModelFacts {
  ModelConfig config;    // the shape as read: name, source, architecture, sizes, window, experts
  WeightFormat weights;  // the weights' storage format: name, bits per weight, compute precision, kernel
  Precision kv = Precision::bf16;
  std::map<std::string, std::string> keep;  // tensor -> the format it is kept in (--keep)
  std::string routing;                      // a MoE model's routing law, in words
  std::int64_t parameters = 0;
  std::int64_t active_parameters = 0;
  std::int64_t matmul_weights = 0;
  double weight_bytes = 0.0;
  double kv_cache_bytes_per_token = 0.0;
  std::int64_t context = 0;
  double kv_cache_bytes_per_sequence = 0.0;
  std::string memory_source;
  double memory_total_bytes = 0.0;            // 0: not recorded
  double memory_available_bytes = 0.0;        // 0: not recorded
  std::optional<bool> weights_fit;            // absent: the target's memory is unknown
  std::optional<std::int64_t> max_sequences;  // the same
};

// One compute roof used: its precision's ceiling (or GEMM rate) beside the FMA peak.
struct ComputeRoofUsed {
  Precision precision = Precision::bf16;
  ComputeRoof roof;
};

// One memory roof used: a level's read ceiling, or (RoofSource::gemm) the bandwidth a precision's batch-1 GEMV
// attained from main memory.
struct MemoryRoofUsed {
  std::string level;
  double bandwidth = 0.0;
  double max_bytes = 0.0;            // 0: unknown, or a GEMV roof
  std::optional<Precision> gemv;     // the GEMV's precision (absent: the level's read ceiling)
};

// The dequantization roof of one quantized format the step uses: the measured dequant-dot ceiling, or the
// stated convention (half the fp32 FMA peak in element operations) when the file has none.
struct DequantRoofUsed {
  std::string format;
  bool measured = false;
  double value = 0.0;  // weights/s (measured) or element operations/s (convention)
  std::string isa, level, kernel;  // empty for the convention; kernel "convention"
  std::string note;                // why this roof, said among the answer's notes
};

struct RoofsUsed {
  int threads = 0;  // 0: a target other than the CPU (its kernels run on the whole device)
  RoofSource source = RoofSource::peak;
  std::vector<ComputeRoofUsed> compute;
  std::vector<MemoryRoofUsed> memory;    // innermost level first, the GEMV roofs last
  std::vector<DequantRoofUsed> dequant;  // empty for native weights
};

// What a whole step took on the roofs (estimate.hpp's StepEstimate, less its operations).
struct StepFigures {
  double seconds = 0.0;
  double layer_seconds = 0.0;
  double flops = 0.0;
  double bytes = 0.0;
  Limit bound = Limit::memory;
  double memory_bound_fraction = 0.0;   // of the time, in memory-bound operations
  double dequant_bound_fraction = 0.0;  // in dequantization-bound ones
  double dequant_ops = 0.0;
  std::string level;
  double mbu = 0.0;
  double mfu = 0.0;
};

StepFigures step_figures(const StepEstimate& s);

struct DecodeRow {
  std::int64_t batch = 1;
  std::int64_t context = 0;
  StepFigures step;  // step.seconds is the seconds per token
  double tokens_per_second = 0.0;  // over all sequences
  double tokens_per_second_per_sequence = 0.0;
  double kv_cache_bytes = 0.0;
  std::optional<double> experts_touched_per_layer;  // MoE models only
  std::optional<bool> fits_in_memory;               // absent: the target's memory is unknown
};

struct PrefillRow {
  std::int64_t prompt_tokens = 0;
  StepFigures step;
  double tokens_per_second = 0.0;
};

// Where the projections turn compute-bound, and where the whole decode step does (absent: not below the limit).
struct Ridge {
  std::optional<std::int64_t> projections_compute_bound_batch;
  std::optional<std::int64_t> decode_compute_bound_batch;
  std::int64_t search_limit = 0;
};

// One layer's operations (and the once-per-model ones) at the first batch or the first prompt.
struct LayerDecode {
  std::int64_t batch = 1;
  std::int64_t context = 0;
  std::vector<OpEstimate> ops;
};
struct LayerPrefill {
  std::int64_t prompt_tokens = 0;
  std::vector<OpEstimate> ops;
};

// An observed speed on this roofline: decode at the first batch or prefill at the first prompt.
struct ObservedStep {
  std::int64_t tokens = 0;  // the batch (decode) or the prompt tokens (prefill)
  double tokens_per_second = 0.0;
  Utilisation utilisation;
};
struct ObservedAnswer {
  std::string mfu_roof, mbu_roof;  // the roofs MFU and MBU are against, in words
  std::optional<ObservedStep> decode, prefill;
};

struct SpeculativeAnswer {
  std::string draft, draft_config;  // the draft model's name and where its config was read
  std::vector<SpeculativeRow> rows;  // one per decode batch
};

enum class Phase { decode, prefill };

// An estimate beside what the --measure chain timed: an operation, a layer, or the quantized chain's model step.
struct Measurement {
  double estimated_seconds = 0.0;
  std::optional<double> measured_seconds;          // the median pass (absent: not measured)
  std::optional<double> measured_best_seconds;     // the fastest pass
  std::optional<double> estimated_seconds_moment;  // against the roof of the moment (absent: add_moment not run)
  // (estimated - measured) / measured, absent when not measured.
  [[nodiscard]] std::optional<double> residual() const { return relative(estimated_seconds, measured_seconds); }
  [[nodiscard]] std::optional<double> residual_best() const { return relative(estimated_seconds, measured_best_seconds); }
  [[nodiscard]] std::optional<double> residual_moment() const;
  [[nodiscard]] std::optional<double> residual_best_moment() const;
  static std::optional<double> relative(double estimated, const std::optional<double>& measured);
};

struct MeasuredOp {
  OpEstimate estimate;
  Measurement time;  // time.estimated_seconds = estimate.seconds
};

// The model step of the quantized chain: layers x the layer + lm_head.
struct MeasuredModelStep {
  Measurement time;
  Limit bound = Limit::memory;  // the limit of the operations taking most of the estimate
  double memory_bound_seconds = 0.0;
  double dequant_bound_seconds = 0.0;
  double compute_bound_seconds = 0.0;
};

struct MeasuredRow {
  std::string id, title;  // "decode-b8" / "prefill-p512" (the suite's step ids), the table's title
  Phase phase = Phase::decode;
  std::int64_t batch = 1, context = 0;  // decode
  std::int64_t prompt_tokens = 0;       // prefill
  std::string level;                    // the level the chain's working set fits in
  Measurement layer;
  int repetitions = 0;
  std::vector<std::string> implementations;
  std::string note;
  std::vector<MeasuredOp> ops;
  std::string format;                     // the quantized chain: the weights' format
  std::optional<MeasuredModelStep> step;  // the quantized chain only
};

// The DRAM read roof measured just before and just after the chain (the roof of the moment).
struct MemoryRoofMoment {
  double before = 0.0, after = 0.0;  // B/s
};

// What the measured run was: set by the CLI that measured it or read it back.
struct MeasuredRun {
  int threads = 0;
  std::optional<std::uint64_t> budget_bytes;   // the suite's memory budget (absent: not recorded)
  std::map<std::string, std::string> backends;  // what ran the weights and the KV cache
  std::string results_file;
};

struct MeasuredComparison {
  std::vector<MeasuredRow> steps;
  std::vector<std::string> notes;
  std::string residual;     // what the residuals are
  std::string working_set;  // which level the chain's estimate uses
  std::optional<MemoryRoofMoment> memory_roof_moment;
  std::optional<MeasuredRun> run;
};

// The whole answer of `roofline llm`.
struct LlmAnswer {
  std::string results;  // the results file whose ceilings were used
  std::string target;
  ModelFacts model;
  RoofsUsed roofs;
  std::vector<DecodeRow> decode;  // one per --batches
  Ridge ridge;
  std::vector<PrefillRow> prefill;  // one per --prompt
  LayerDecode layer_decode;
  LayerPrefill layer_prefill;
  std::optional<ObservedAnswer> observed;        // --observed
  std::optional<SpeculativeAnswer> speculative;  // --draft
  std::optional<MeasuredComparison> measured;    // --measure, --measured
  std::map<std::string, std::string> conventions;  // what is counted and how, by topic
  std::vector<std::string> notes;
};

// The writers of `llm --json` (answer_json.cpp): every key, its type (an integer stays one, an absent figure is
// null where the document has always said so) and its number as the renderers read them.
nlohmann::json to_json(const LlmAnswer& answer);
nlohmann::json to_json(const MeasuredComparison& measured);

}  // namespace roofline::llm
