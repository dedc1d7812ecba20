// The typed results model (issues 47, 61): a results file as structs, with one typed reader (read_records; the
// model's read_results runs the schema validation first and is what commands call) and one writer (to_json), such
// that read -> write -> read gives the same document. Every field is std::optional: absent in the file, nullopt here, absent again when written.
// Each object keeps what its members do not hold in `extra`, so nothing is lost: an explicit null (allowed for
// every field), a field of a newer build (the default, lenient reader keeps it; the strict reader, used by the
// tests, refuses it naming it), and, in `context`, the sections not typed yet (suites, plan, time_budget, binding),
// which both readers check against the catalogue of known fields (results/fields.txt) in strict mode.
//
// It is the library below bench and analysis (roofline::records, issue 61): it uses only common, fmt and
// nlohmann-json, and its field lists are generated from the catalogue results/fields.txt.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/records/results_document_fields.hpp"  // generated from results/fields.txt

namespace roofline {

#define ROOFLINE_OPTIONAL_MEMBER(type, name) std::optional<type> name;
// What every typed object keeps besides its members: the fields it does not hold, and which of its number
// members (or elements of them: "samples[2]", "ops_per_unit_per_clock.bf16/matrix") the file wrote as integers,
// so that the document written back is the same text (history's results_hash is over that text).
#define ROOFLINE_RECORD_TAIL                              \
  nlohmann::json extra = nlohmann::json::object();        \
  std::set<std::string> integer_numbers;

// benchmarks[].labels: our words and integers on every entry (results/README.md, "benchmarks").
struct EntryLabels {
  ROOFLINE_LABELS_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// One read probe of benchmarks[].roof_now.before/.after (roof_now.hpp's RoofProbeRecord, as recorded).
struct RoofProbeFields {
  ROOFLINE_PROBE_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<double>> samples;
  ROOFLINE_RECORD_TAIL
};

struct EntryRoofNow {
  std::optional<RoofProbeFields> before, after;
  ROOFLINE_RECORD_TAIL
};

// One entry of `benchmarks`: Google Benchmark's fields (name, run_name, run_type, aggregate_name, repetitions,
// iterations, real_time, ...), our counters (bytes_per_second, flop_per_second, working_set_bytes, ...),
// labels and the roof of the moment.
struct BenchmarkEntry {
  ROOFLINE_ENTRY_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<EntryLabels> labels;
  std::optional<EntryRoofNow> roof_now;
  ROOFLINE_RECORD_TAIL
};

struct CacheRecord {
  ROOFLINE_CACHE_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// context.machine.core_kinds[]: one kind of core of a hybrid CPU (issue 62), written only where there are two or more.
struct CoreKindRecord {
  ROOFLINE_CORE_KIND_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<long long>> pus;
  ROOFLINE_RECORD_TAIL
};

struct AmxRecord {
  ROOFLINE_AMX_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::map<std::string, bool>> advertised;
  ROOFLINE_RECORD_TAIL
};

// context.machine: the host's facts, each with its source.
struct MachineRecord {
  ROOFLINE_MACHINE_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<CacheRecord>> caches;
  std::optional<std::vector<long long>> core_first_pu;
  std::optional<std::vector<CoreKindRecord>> core_kinds;
  std::optional<std::map<std::string, bool>> isa;
  std::optional<AmxRecord> amx;
  std::optional<std::vector<std::string>> notes;
  ROOFLINE_RECORD_TAIL
};

struct MemoryLevelRecord {
  ROOFLINE_LEVEL_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// context.targets[]: one target's facts (bench/harness's TargetFacts as written).
struct TargetRecord {
  ROOFLINE_TARGET_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<MemoryLevelRecord>> memory_levels;
  std::optional<std::map<std::string, double>> ops_per_unit_per_clock;
  std::optional<nlohmann::json> details;  // the API's own facts: shown, never interpreted
  std::optional<std::vector<std::string>> notes;
  ROOFLINE_RECORD_TAIL
};

// context.environment.canary.checkpoints[]: the canary between two suites (`at`: the suite that followed it).
struct CanaryCheckpointRecord {
  ROOFLINE_CHECKPOINT_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// context.environment.canary (DRAM; `passes`) and .core_canary (the cores' own throughput; `samples`): our triad and
// read kernels; .libc_canary and .libc_core_canary (issue 59): the same places measured by glibc's memcpy, which no
// change of our code, flags or ISA dispatch reaches (kernel "memcpy").
struct CanaryRecord {
  ROOFLINE_CANARY_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<CanaryCheckpointRecord>> checkpoints;
  ROOFLINE_RECORD_TAIL
};

struct ProcStatRecord {
  ROOFLINE_PROC_STAT_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// context.environment.start / .end: the machine's state at either end of the run.
struct EnvironmentSnapshot {
  ROOFLINE_SNAPSHOT_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<nlohmann::json> governor, turbo;  // a word, a flag or null, as the OS said it
  std::optional<std::vector<double>> load_avg;
  std::optional<ProcStatRecord> proc_stat;
  ROOFLINE_RECORD_TAIL
};

// context.environment: what the environment guard saw (steal, other processes, the canaries, the clock).
struct RunEnvironment {
  ROOFLINE_ENVIRONMENT_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<CanaryRecord> canary, core_canary, libc_canary, libc_core_canary;
  std::optional<EnvironmentSnapshot> start, end;
  ROOFLINE_RECORD_TAIL
};

// `context`: Google Benchmark's context and our run facts. `extra` holds the sections not typed yet.
struct ResultsContext {
  ROOFLINE_CONTEXT_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<long long>> threads;
  std::optional<std::vector<std::string>> notes;
  std::optional<MachineRecord> machine;
  std::optional<std::vector<TargetRecord>> targets;
  std::optional<RunEnvironment> environment;
  ROOFLINE_RECORD_TAIL
};

struct ComputeCeilingRecord {
  ROOFLINE_COMPUTE_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

struct MemoryCeilingRecord {
  ROOFLINE_MEMORY_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<nlohmann::json> pattern;  // the access pattern a target's curve ran: a word, or null
  ROOFLINE_RECORD_TAIL
};

struct PageSizeCeilingRecord {
  ROOFLINE_PAGES_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

struct RidgePointRecord {
  ROOFLINE_RIDGE_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

struct PlacementRoof {
  ROOFLINE_ROOF_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

struct PlacementOffload {
  ROOFLINE_OFFLOAD_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

struct PlacementRoofNow {
  ROOFLINE_ROOFNOW_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

struct PlacementAlternative {  // roofline.placements[].roofs[]: the point against every roof
  ROOFLINE_ROOFS_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

struct PlacementRecord {
  ROOFLINE_PLACEMENT_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<PlacementRoof> roof;
  std::optional<PlacementOffload> offload;
  std::optional<PlacementRoofNow> roof_now;
  std::optional<std::vector<PlacementAlternative>> roofs;
  ROOFLINE_RECORD_TAIL
};

struct TransferCeilingRecord {
  ROOFLINE_TRANSFER_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

struct LaunchLatencyRecord {
  ROOFLINE_LAUNCH_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// roofline.dequant_ceilings[]: per format and thread count the best dequant-dot row (weights/s), what `roofline llm`
// bounds a quantized step by.
struct DequantCeilingRecord {
  ROOFLINE_DEQUANT_CEILING_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// roofline.memory_levels[]: one memory level a target's bandwidth curve shows at one thread count (a device's rows
// name none), its plateau's working sets and bandwidth beside the capacity the facts report; what the report's
// levels table, the placements' reach of a level and compare's level boundaries read.
struct DetectedLevelRecord {
  ROOFLINE_DETECTED_LEVEL_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<std::string>> detected_from;  // the kernels whose curves voted on the levels
  ROOFLINE_RECORD_TAIL
};

// roofline.theoretical_peaks[]: the peak a target's model gives each compute row (precision, engine, isa, width,
// threads), with the clock, pipes and ops per cycle behind it and its source in words.
struct TheoreticalPeakRecord {
  ROOFLINE_THEORETICAL_PEAK_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// roofline.crossovers[]: one GEMM sweep (backend, precision, threads, shape) over its batches: the batch whose AI
// reaches main memory's ridge, predicted, beside the measured knee.
struct CrossoverRecord {
  ROOFLINE_CROSSOVER_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<long long>> batches;  // the sweep's measured batches, in order
  ROOFLINE_RECORD_TAIL
};

// roofline.best_backends[]: per precision, batch and threads the backend with the highest attained value.
struct BestBackendRecord {
  ROOFLINE_BEST_BACKEND_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// roofline.roof_violations[]: a placement above 110% of its roof, and the roof it beat (a placement's roof).
struct RoofViolationRecord {
  ROOFLINE_ROOF_VIOLATION_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<PlacementRoof> roof;
  ROOFLINE_RECORD_TAIL
};

// roofline.dequant_table[]: every dequant-dot row (format, ISA, level, threads), measured, failed or not supported,
// in weights/s beside the fp32 FMA peak.
struct DequantRowRecord {
  ROOFLINE_DEQUANT_ROW_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// roofline.compute_table[]: every compute row (precision, engine, ISA, width, threads, a tile row's variant), measured,
// failed or not supported, with what the target's peak model says of it.
struct ComputeRowRecord {
  ROOFLINE_COMPUTE_ROW_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<double>> known_pipes;  // the pipe counts the known-pipes table gives its instruction
  ROOFLINE_RECORD_TAIL
};

// roofline.dequant_placements[]: a quantized GEMV (dequant_gemv) under main memory's roof and its format's dequant-dot
// roof (roof.memory, roof.dequant: either absent where not measured).
struct DequantMemoryRoof {
  ROOFLINE_DEQUANT_MEMORY_ROOF_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};
struct DequantUnpackRoof {
  ROOFLINE_DEQUANT_UNPACK_ROOF_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};
struct DequantPlacementRoofs {
  std::optional<DequantMemoryRoof> memory;
  std::optional<DequantUnpackRoof> dequant;
  ROOFLINE_RECORD_TAIL
};
struct DequantPlacementRecord {
  ROOFLINE_DEQUANT_PLACEMENT_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<DequantPlacementRoofs> roof;
  ROOFLINE_RECORD_TAIL
};

// roofline.matrix_engine: what the matrix engine buys (the x86 model's): per precision and threads its ceiling over the
// vector units' (ratios[]), a sentence each, or why there are no matrix roofs (lines[]).
struct MatrixRatioRecord {
  ROOFLINE_MATRIX_RATIO_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};
struct MatrixEngineRecord {
  ROOFLINE_MATRIX_ENGINE_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  std::optional<std::vector<std::string>> lines;
  std::optional<std::vector<MatrixRatioRecord>> ratios;
  ROOFLINE_RECORD_TAIL
};

// roofline.core_kind_ceilings[] (issue 62): a hybrid CPU's figures per core kind, each the compute or the memory
// derivation's row of the kind's own entries (suites clock_kind, compute_kind, bandwidth_kind: 1 thread on its PU).
struct CoreKindCeilingRecord {
  ROOFLINE_CORE_KIND_CEILING_FIELDS(ROOFLINE_OPTIONAL_MEMBER)
  ROOFLINE_RECORD_TAIL
};

// The `roofline` section: the fixed-shape arrays of DESIGN.md and the derived tables typed so far (dequant_ceilings,
// memory_levels, theoretical_peaks, crossovers, best_backends, roof_violations, dequant_table, core_kind_ceilings,
// compute_table, dequant_placements), the counting conventions (topic -> sentence) and the matrix engine's summary;
// `extra` holds what a file has beyond them (a newer build's fields).
struct RooflineSection {
  std::optional<long long> schema_version;
  std::optional<std::vector<ComputeCeilingRecord>> compute_ceilings;
  std::optional<std::vector<MemoryCeilingRecord>> memory_ceilings;
  std::optional<std::vector<PageSizeCeilingRecord>> page_size_ceilings;
  std::optional<std::vector<RidgePointRecord>> ridge_points;
  std::optional<std::vector<PlacementRecord>> placements;
  std::optional<std::vector<TransferCeilingRecord>> transfer_ceilings;
  std::optional<std::vector<LaunchLatencyRecord>> launch_latency;
  std::optional<std::vector<DequantCeilingRecord>> dequant_ceilings;
  std::optional<std::vector<DetectedLevelRecord>> memory_levels;
  std::optional<std::vector<TheoreticalPeakRecord>> theoretical_peaks;
  std::optional<std::vector<CrossoverRecord>> crossovers;
  std::optional<std::vector<BestBackendRecord>> best_backends;
  std::optional<std::vector<RoofViolationRecord>> roof_violations;
  std::optional<std::vector<DequantRowRecord>> dequant_table;
  std::optional<std::vector<CoreKindCeilingRecord>> core_kind_ceilings;
  std::optional<std::vector<ComputeRowRecord>> compute_table;
  std::optional<std::vector<DequantPlacementRecord>> dequant_placements;
  std::optional<std::map<std::string, std::string>> conventions;
  std::optional<MatrixEngineRecord> matrix_engine;
  std::optional<std::vector<std::string>> notes;
  ROOFLINE_RECORD_TAIL
};

// The section's typed tables (each an array of rows that name their target), in the order the section lists them:
// what joins, stamps and filters a section's rows by target walks this one list, so that a table typed is a table
// joined, stamped and filtered (f gets a pointer to the member: `part.*table`).
template <class F>
void for_each_table(F&& f) {
  f(&RooflineSection::compute_ceilings);
  f(&RooflineSection::memory_ceilings);
  f(&RooflineSection::page_size_ceilings);
  f(&RooflineSection::ridge_points);
  f(&RooflineSection::placements);
  f(&RooflineSection::transfer_ceilings);
  f(&RooflineSection::launch_latency);
  f(&RooflineSection::dequant_ceilings);
  f(&RooflineSection::memory_levels);
  f(&RooflineSection::theoretical_peaks);
  f(&RooflineSection::crossovers);
  f(&RooflineSection::best_backends);
  f(&RooflineSection::roof_violations);
  f(&RooflineSection::dequant_table);
  f(&RooflineSection::core_kind_ceilings);
  f(&RooflineSection::compute_table);
  f(&RooflineSection::dequant_placements);
}

#undef ROOFLINE_OPTIONAL_MEMBER
#undef ROOFLINE_RECORD_TAIL

// A whole results file. `roofline` is absent in plain Google Benchmark JSON.
struct ResultsDocument {
  ResultsContext context;
  std::vector<BenchmarkEntry> benchmarks;
  std::optional<RooflineSection> roofline;
  nlohmann::json extra = nlohmann::json::object();
};

enum class ReadMode {
  lenient,  // what every command uses: a field the model does not know is kept in `extra` (a newer build's file)
  strict    // the tests': a field outside results/fields.txt, or one the typed model does not hold, is an error
};

// The typed read: in strict mode the catalogue first (results_fields.hpp), then every object into its record;
// `roofline` only where `roofline_section` (the schema's classify_results said it is a roofline results file, not
// plain Google Benchmark JSON). Throws InputError "<file>: <path> ..." naming the first bad field in strict mode,
// e.g. "run.json: benchmarks[3].labels.flavour is not a field of the results model"; the lenient reader keeps
// what it cannot type in `extra`. Commands read through the model's read_results, which validates first.
ResultsDocument read_records(const nlohmann::json& doc, const std::string& file, ReadMode mode, bool roofline_section);

// The entries that are single repetitions (run_type "iteration", or none) or, with `aggregate` non-empty, the
// aggregates of that name ("median", "max", ...), optionally only those of labels.suite `suite` (empty: any),
// never a failed one: results.hpp's benchmark_entries over the typed document, in file order.
std::vector<const BenchmarkEntry*> benchmark_entries(const ResultsDocument& doc, const std::string& suite,
                                                     const std::string& aggregate = "");

// The one writer: the document as JSON, every present field and every `extra` field, so that
// to_json(read_results(x)) == x, to the text: its dump() is x's (the integers of number fields stay integers).
nlohmann::json to_json(const ResultsDocument& doc);
// nlohmann's ADL hook: `nlohmann::json j = doc;`.
void to_json(nlohmann::json& j, const ResultsDocument& doc);
// The writers of the parts, for writers and tests that hold one entry or one section.
nlohmann::json to_json(const BenchmarkEntry& entry);
nlohmann::json to_json(const EntryLabels& labels);
nlohmann::json to_json(const ResultsContext& context);
nlohmann::json to_json(const RooflineSection& roofline);
// A row of a section's table, as the section's writer writes it (the report's tables of every field a row holds).
nlohmann::json to_json(const TransferCeilingRecord& row);
nlohmann::json to_json(const LaunchLatencyRecord& row);
nlohmann::json to_json(const BestBackendRecord& row);
nlohmann::json to_json(const RoofViolationRecord& row);
// nlohmann's ADL hook of the section: `doc["roofline"] = derive_roofline(results);` writes it by the one writer.
void to_json(nlohmann::json& j, const RooflineSection& roofline);

// The typed read of a roofline section alone, as the lenient reader reads a file's (what it cannot type kept in
// `extra`): the derivations' parts (analysis/model), whose rows are still built as JSON, read typed where they return.
RooflineSection read_roofline_section(const nlohmann::json& section, const std::string& file);

// The builders of an entry (issue 61, step 2: the harness's reporter builds each entry typed from Google Benchmark's
// Run, with no JSON text between). Each puts `key` in its typed member where the entry has one of that kind, else in
// `extra`, as read_records would have put the same field of a file, so that to_json writes it as a file has it.
// A number (a Google Benchmark counter: bytes_per_second, ...); a non-finite one is null (JSON has no NaN: the cv
// aggregate of a counter that is 0 in every repetition is 0/0).
void set_number(BenchmarkEntry& entry, const std::string& key, double value);
// A value a suite hands the harness as JSON (its labels, its bracket's measurement: runner.hpp), read as the lenient
// reader reads that field of a file (an integer stays an integer when written).
void set_field(BenchmarkEntry& entry, const std::string& key, const nlohmann::json& value);

// One entry's labels read alone, as the lenient reader reads benchmarks[].labels (what it cannot type kept in
// `extra`; not an object: no labels): a suite context's rows that are the labels its entries would have had
// (context.suites.compute.not_supported[], not typed yet), read at that edge into the labels' one typed form.
EntryLabels read_labels(const nlohmann::json& labels);

// Every field the typed model holds, as the catalogue (results/fields.txt) writes its path (`[]` an array's
// elements, `*` a map's keys) with its kind: `text`, `integer`, `number`, `flag`, `any` (kept as JSON), `map` (its
// keys are data, `path.*` its values), or `record` for a typed object (`open record`: context and roofline, whose other fields are sections not typed yet).
// A test holds it against the catalogue both ways (tests/records/test_results_fields.cpp, issue 61).
struct TypedField {
  std::string path, kind;
};
std::vector<TypedField> typed_fields();

}  // namespace roofline
