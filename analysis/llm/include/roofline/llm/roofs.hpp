// The ceilings an LLM estimate runs against, read from a results file's roofline section only (the typed
// results model): per precision the compute ceiling at the thread count used (the best ISA and engine
// measured: AMX when the run had it), and per memory level its roof (the read kernel's ceiling) with the
// working-set range it was measured over. With RoofSource::gemm the roofs are instead what the run's GEMM suite attained at that
// precision (the library's measured roofline): compute = its best GEMM rate, DRAM = the bandwidth its GEMV
// (batch 1) streamed the weights at; the FMA peak and the read ceilings are kept for MFU and MBU.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"
#include "roofline/model/results_targets.hpp"  // kCpuTargetId
#include "roofline/common/vocabulary.hpp"

namespace roofline::llm {

enum class RoofSource { peak, gemm };

struct ComputeRoof {
  double value = 0.0;  // FLOP/s or OP/s used for the estimate
  double peak = 0.0;   // the FMA-kernel ceiling (MFU is against this)
  Engine engine = Engine::vector;
  std::string isa;
  std::string source;  // "compute ceiling" or "gemm <backend> batch <n>"
};

struct MemoryRoof {
  std::string level = "DRAM";  // the target's own name ("L1".."DRAM" on the CPU; "L2", "HBM" on a device)
  double bandwidth = 0.0;  // B/s
  double max_bytes = 0.0;  // largest working set of the level's plateau (0: unknown)
};

// A measured dequant-dot ceiling (roofline.dequant_ceilings): how fast one format's weights are unpacked
// and multiplied by the best kernel of the run at the thread count.
struct DequantRoof {
  double weights_per_second = 0.0;
  std::string isa, level;
};

struct Roofs {
  int threads = 0;
  RoofSource source = RoofSource::peak;
  std::map<Precision, ComputeRoof> compute;
  std::vector<MemoryRoof> levels;  // innermost first (L1 to DRAM on the CPU); the last is main memory, always present
  double memory_total_bytes = 0.0;  // the target's memory (0: not recorded)
  double memory_available_bytes = 0.0;  // what was free at the run (MemAvailable for the CPU; 0: not recorded)
  std::string memory_source = "the run's machine facts (context.machine)";
  std::map<Precision, double> gemv_bandwidth;  // RoofSource::gemm: B/s the batch-1 GEMV attained
  double dequant_rate = 0.0;  // element operations/s of the vector units: half the fp32 FMA peak (0: no fp32)
  std::map<std::string, DequantRoof> dequant;  // by dequant_family (quant.hpp); empty in files before issue 38
  std::string target = kCpuTargetId;  // the target whose ceilings these are
  // What showed that a user-mode emulator ran the run (context.machine.emulated, issue 62): its roofs are the
  // emulator's speed, said among the answer's notes; "" for a native run.
  std::string emulation;

  // The bandwidth an operation of precision `p` gets from `level`: the level's roof, or with
  // RoofSource::gemm and a GEMV point of that precision, the GEMV's bandwidth for main memory.
  [[nodiscard]] double bandwidth(const MemoryRoof& level, Precision p) const;

  // The level whose plateau holds `working_set` bytes: the smallest one whose range reaches it, DRAM
  // when none does (the model's resident-level rule, resident_level.hpp).
  [[nodiscard]] const MemoryRoof& level_for(double working_set) const;
  [[nodiscard]] const MemoryRoof& dram() const { return levels.back(); }
};

// The engine a ceiling or placement roof names ("vector" when the file predates engines).
Engine engine_of(const ComputeCeilingRecord& ceiling);
Engine engine_of(const PlacementRoof& roof);

// Reads the roofs at `threads` (0: the largest thread count with a DRAM roof). Throws InputError naming
// `file`, the missing ceiling and the run that measures it, when a precision of `needed` has no compute
// ceiling (or, with RoofSource::gemm, no GEMM point) or there is no DRAM memory roof at those threads.
Roofs read_roofs(const ResultsDocument& results, const std::string& file, int threads,
                 const std::vector<Precision>& needed, RoofSource source);

}  // namespace roofline::llm
