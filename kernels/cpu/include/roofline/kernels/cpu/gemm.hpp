// GEMV/GEMM backends behind one small interface: C(MxN) = A(MxK) * B(KxN), A being the "weights".
// A backend (eigen, onednn, openblas: one file each) prepares a problem once per shape, precision and
// thread count (allocates, fills, packs weights: setup, outside timing), then runs it for each batch N.
// The registry lists the backends compiled into this build; callers choose them by name at run time.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "roofline/common/gemm_count.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {

// The operands in the one layout every backend shares, so that all backends read the same bytes:
//   A: M x K row-major (each output row's weights contiguous; what batch 1 streams from memory),
//   B: K x N column-major (each of the N input vectors contiguous),
//   C: M x N column-major (each of the N output vectors contiguous).
// Element types: fp64 double/double/double, fp32 float/float/float, bf16 bf16-bits(uint16)/bf16/float,
// int8 int8 (s8)/uint8 (u8)/int32 (s32).
struct GemmOperands {
  Precision precision = Precision::fp32;
  GemmShape shape;  // n = the batch computed by the latest run()
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
};

struct GemmCheck {
  bool ok = true;
  std::string message;  // the first mismatch, when !ok
};

// Checks C against A and B computed directly, in two ways:
//  - every column j: sum_i C(i,j) against (column sums of A) . B(:,j), which a single wrong entry
//    anywhere in C breaks (a checksum in the manner of algorithm-based fault tolerance);
//  - direct dot products on sampled entries (all of them for a small C): first and last rows and
//    columns and evenly spread ones.
// Tolerance: exact (0) while K * max|a| * max|b| stays below 2^24 (fp32, bf16 with fp32 accumulation),
// 2^53 (fp64) or 2^31 (int8 into s32), so that every partial sum is exactly representable: the
// small-integer inputs of fill_gemm_inputs guarantee that for K up to ~10^6. Beyond, K * u * sum|a*b|
// (u = unit roundoff of the accumulation type).
class GemmReference {
 public:
  // Computes the column sums of A once (A and K as in `ops`; B and C may change afterwards).
  explicit GemmReference(const GemmOperands& ops);
  // On `threads` OpenMP threads (the columns and the sampled entries split among them; the first failure in column
  // order is the one reported, as on one thread).
  [[nodiscard]] GemmCheck check(const GemmOperands& ops, int threads = 1) const;

 private:
  std::vector<double> a_column_sum_;
  std::vector<double> a_column_abs_sum_;
  double a_max_abs_ = 0.0;
};

// GemmReference(ops).check(ops).
GemmCheck check_gemm(const GemmOperands& ops);

// Fills A and all max_n columns of B with small integers (exact in every precision, see check_gemm),
// first-touched by `threads` threads in the static row split the kernels use.
void fill_gemm_inputs(const GemmOperands& ops, std::int64_t max_n, int threads);

// The operands of one precision and shape in the shared layout, filled once by fill_gemm_inputs, with the reference
// that validates C (issue 60). Every problem prepared on it reads the same A and B: groups of one precision and shape
// (backends, thread counts) share one set, so that a run allocates, first-touches and sums A once per shape, not once
// per group. A problem poisons C when it is made on a set (NaN; in int8, the least int32, never a product of these
// fills), so that a backend is never validated against the C another one left.
class GemmOperandSet {
 public:
  // A (m x k), B and C of max_n columns, filled and first touched by `threads` threads in the kernels' row split.
  GemmOperandSet(Precision precision, std::int64_t m, std::int64_t k, std::int64_t max_n, int threads);
  [[nodiscard]] Precision precision() const { return precision_; }
  [[nodiscard]] std::int64_t m() const { return m_; }
  [[nodiscard]] std::int64_t k() const { return k_; }
  [[nodiscard]] std::int64_t max_n() const { return max_n_; }
  // The operands at batch n (1 <= n <= max_n).
  [[nodiscard]] GemmOperands operands(std::int64_t n) const;
  // C's first n columns against A and B (the reference of the constructor).
  [[nodiscard]] GemmCheck check(std::int64_t n, int threads = 1) const { return reference_->check(operands(n), threads); }
  // Overwrites all of C with values no product of these operands has (see the class comment).
  void poison_c() const;
  // Bytes of A, B and C together (gemm_compulsory_bytes at max_n).
  [[nodiscard]] double bytes() const;

 private:
  using Block = std::unique_ptr<void, LargeFree>;
  Precision precision_;
  std::int64_t m_, k_, max_n_;
  Block a_, b_, c_;
  std::unique_ptr<GemmReference> reference_;
};

// Thrown by prepare() when this machine or library cannot run a request (e.g. bf16 on a CPU without it).
class GemmUnsupported : public std::runtime_error {
 public:
  explicit GemmUnsupported(const std::string& what) : std::runtime_error(what) {}
};

struct GemmRequest {
  std::int64_t m = 0;
  std::int64_t k = 0;
  std::int64_t max_n = 1;  // the largest batch select_batch() will ask for
  Precision precision = Precision::fp32;
  int threads = 1;
  IsaFeatures features;    // detected and capped (--max-isa): backends choose their code path from it
};

// One prepared problem: A, B, C allocated and filled, weights packed when the library wants that.
class GemmProblem {
 public:
  virtual ~GemmProblem() = default;
  // Setup, outside timing: the next run() computes batch n (1 <= n <= max_n). May build the library's
  // primitive for n, and reorder the weights when that primitive asks for a layout not packed yet.
  virtual void select_batch(std::int64_t n) = 0;
  // The timed call: C(:, 0..n) = A * B(:, 0..n) on the request's thread count. Blocks until done.
  virtual void run() = 0;
  // After run(): check_gemm on the operands.
  [[nodiscard]] virtual GemmCheck validate() const = 0;
  // What the library ran for the current batch, e.g. "brg:avx512_core" or "eigen avx512 gemv, rows split
  // over 2 OpenMP threads".
  [[nodiscard]] virtual std::string implementation() const = 0;
  // Seconds spent reordering/packing weights into the library's layout so far (0 when A is used as is).
  // The one clock a kernel reads: the library decides inside select_batch() when a reorder is due, so
  // only the kernel can time the reorder alone (without the primitive's creation). Setup, never timed
  // work.
  [[nodiscard]] virtual double pack_seconds() const = 0;
  // The operands in the shared layout, n = current batch (tests corrupt C through this).
  virtual GemmOperands operands() = 0;
};

// What a backend runs in the quick profile (the full profile runs every precision and batch at every
// thread count): at the largest thread count, batch 1 (the memory-bound end) and one compute-bound batch
// chosen so that the call stays short; with `fp32_sweep`, its fp32 group runs every batch at the largest
// thread count and batches 1 and `large_batch` at the others (the curve the report draws, the crossover).
struct GemmQuickPlan {
  std::vector<Precision> precisions;                        // empty: every precision of precisions()
  bool fp32_sweep = false;
  int large_batch = 64;                                     // the compute-bound batch
  std::vector<std::pair<Precision, int>> large_batch_for;   // a different one for these precisions
};

class GemmBackend {
 public:
  virtual ~GemmBackend() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Precisions this backend can run (the machine may still refuse some: prepare() then throws).
  [[nodiscard]] virtual std::vector<Precision> precisions() const = 0;
  // Setup on `operands` (of the request's precision, m and k, at least max_n columns; its C poisoned here), packing
  // when the library wants to; nullptr: operands of its own, allocated and filled here (make_gemm_operands). Throws
  // GemmUnsupported, and std::invalid_argument for operands of another precision or shape.
  [[nodiscard]] virtual std::unique_ptr<GemmProblem> prepare(const GemmRequest& request,
                                                             std::shared_ptr<GemmOperandSet> operands) const = 0;
  [[nodiscard]] std::unique_ptr<GemmProblem> prepare(const GemmRequest& request) const {
    return prepare(request, nullptr);
  }
  // Bytes prepare() allocates for this request, for the memory check before measuring (the operands included:
  // gemm_operand_footprint, plus what the library packs).
  [[nodiscard]] virtual double footprint_bytes(const GemmRequest& request) const = 0;
  // What the library is: version, threading runtime, core name, the ISA it chose.
  [[nodiscard]] virtual std::vector<std::pair<std::string, std::string>> library_facts(
      const IsaFeatures& features) const = 0;
  // Environment variables the library reads and that change what it runs (e.g. OPENBLAS_CORETYPE). The
  // harness records their values; kernels never read the environment themselves.
  [[nodiscard]] virtual std::vector<std::string> environment() const { return {}; }
  // What the quick profile runs of this backend.
  [[nodiscard]] virtual GemmQuickPlan quick_plan() const = 0;
  // Sentences for the run's notes about what the library chose on this machine (e.g. generic kernels).
  [[nodiscard]] virtual std::vector<std::string> notes(const IsaFeatures&) const { return {}; }
};

// The backends compiled into this build, in default order: eigen, then onednn and openblas when found
// at configure time.
const std::vector<const GemmBackend*>& gemm_backends();
// The compiled backend of that name, or nullptr.
const GemmBackend* find_gemm_backend(std::string_view name);
// Every backend this project has, compiled into this build or not (for messages).
std::vector<std::string_view> known_gemm_backend_names();

// A..C bytes of the shared layout for `request` (what every backend allocates at least).
double gemm_operand_footprint(const GemmRequest& request);

// The operands `request` asks for (its precision, m, k, max_n), filled by its thread count.
std::shared_ptr<GemmOperandSet> make_gemm_operands(const GemmRequest& request);

}  // namespace roofline
