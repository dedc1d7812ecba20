// The data side of every GEMM backend: filling A and B with small integers that every precision holds
// exactly, owning the buffers, and validating C against A and B (see check_gemm in gemm.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "gemm_internal.hpp"
#include "roofline/common/huge_pages.hpp"

namespace roofline {
using namespace gemm_detail;

namespace {

// Deterministic, well-mixed values from an index (splitmix64), so that any element can be recomputed.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Bits of the accumulation type's significand: below 2^bits every integer partial sum is exact.
int exact_bits(Precision p) {
  switch (p) {
    case Precision::fp64: return 53;
    case Precision::int8: return 31;
    default: return 24;  // fp32, and bf16 which accumulates in fp32
  }
}

// Largest magnitude of the fills for reduction length k: the biggest r <= r_max with k * r * r below
// 2^exact_bits, so that every partial sum is exact; at least 1.
int fill_range(Precision p, std::int64_t k) {
  const int r_max = p == Precision::int8 ? 7 : 4;
  const double limit = std::ldexp(1.0, exact_bits(p));
  int r = r_max;
  while (r > 1 && static_cast<double>(k) * r * r >= limit) --r;
  return r;
}

template <class T>
T value_at(std::uint64_t index, std::uint64_t seed, int r, bool non_negative) {
  const std::uint64_t h = mix(index ^ seed);
  const int span = non_negative ? r + 1 : 2 * r + 1;
  // The top 32 bits scaled to [0, span) by a multiply and a shift (Lemire's range reduction) rather than h % span: a
  // 64-bit division per element made filling DRAM-sized operands most of a GEMM group's preparation (issue 60).
  const auto pick = static_cast<int>(((h >> 32) * static_cast<std::uint64_t>(span)) >> 32);
  const int v = pick - (non_negative ? 0 : r);
  return from_int<T>(v);
}

// The smallest prime above n (n is a GEMM dimension: trial division is instant).
std::int64_t prime_above(std::int64_t n) {
  for (std::int64_t p = std::max<std::int64_t>(n + 1, 2);; ++p) {
    bool prime = true;
    for (std::int64_t d = 2; d * d <= p && prime; ++d) prime = p % d != 0;
    if (prime) return p;
  }
}

// Unit roundoff of the accumulation type.
double unit_roundoff(Precision p) { return std::ldexp(1.0, -exact_bits(p)); }

}  // namespace

void fill_gemm_inputs(const GemmOperands& ops, std::int64_t max_n, int threads) {
  with_gemm_types(ops.precision, [&](auto types) {
    using A = typename decltype(types)::a_type;
    using B = typename decltype(types)::b_type;
    using C = typename decltype(types)::c_type;
    const std::int64_t m = ops.shape.m, k = ops.shape.k;
    const int r = fill_range(ops.precision, k);
    const bool b_unsigned = ops.precision == Precision::int8;  // u8 activations
    auto* a = static_cast<A*>(const_cast<void*>(ops.a));
    auto* b = static_cast<B*>(const_cast<void*>(ops.b));
    auto* c = static_cast<C*>(ops.c);
    // A(i, j) = p[(i * s + j) mod L]: p a splitmix sequence of L values, L the smallest prime above m and k, s a
    // stride that is neither 0 nor 1 mod L. Every row is a different window of one random sequence (no two rows
    // alike; A(i, j) = A(j, i) only where (i - j)(s - 1) = 0 mod L, i.e. on the diagonal, so a transposed A fails
    // the check), and a row is one copy: a value per element from the hash made filling DRAM-sized int8 and bf16
    // weights most of a GEMM group's preparation (issue 60). The check reads A itself, never recomputes it.
    const std::int64_t period = prime_above(std::max(m, k));
    const std::int64_t stride = period / 3 + 1;
    std::vector<A> sequence(static_cast<std::size_t>(period + k));  // p, then its first k again: rows never wrap
    for (std::int64_t t = 0; t < period + k; ++t) {
      sequence[static_cast<std::size_t>(t)] = value_at<A>(static_cast<std::uint64_t>(t % period), 0xA11CEull, r, false);
    }
    // Rows of A and C in the same static split the kernels use, so each page is first touched by the
    // thread (and NUMA node) that later streams it.
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < m; ++i) {
        std::copy_n(sequence.data() + (i * stride) % period, k, a + i * k);
      }
#pragma omp for schedule(static)
      for (std::int64_t j = 0; j < max_n; ++j) {
        for (std::int64_t i = 0; i < k; ++i) {
          b[j * k + i] = value_at<B>(static_cast<std::uint64_t>(j * k + i), 0xB0Bull, r, b_unsigned);
        }
        for (std::int64_t i = 0; i < m; ++i) c[j * m + i] = C{};
      }
    }
  });
}

GemmReference::GemmReference(const GemmOperands& ops) {
  with_gemm_types(ops.precision, [&](auto types) {
    using A = typename decltype(types)::a_type;
    const std::int64_t m = ops.shape.m, k = ops.shape.k;
    const auto* a = static_cast<const A*>(ops.a);
    a_column_sum_.assign(static_cast<std::size_t>(k), 0.0);
    a_column_abs_sum_.assign(static_cast<std::size_t>(k), 0.0);
    double max_abs = 0.0;
    // Per-thread partial column sums, then a reduction: A is large (hundreds of MiB) at real shapes.
#pragma omp parallel reduction(max : max_abs)
    {
      std::vector<double> sum(static_cast<std::size_t>(k), 0.0), abs_sum(static_cast<std::size_t>(k), 0.0);
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < k; ++j) {
          const double v = to_double(a[i * k + j]);
          sum[j] += v;
          abs_sum[j] += std::fabs(v);
          max_abs = std::max(max_abs, std::fabs(v));
        }
      }
#pragma omp critical
      for (std::int64_t j = 0; j < k; ++j) {
        a_column_sum_[j] += sum[j];
        a_column_abs_sum_[j] += abs_sum[j];
      }
    }
    a_max_abs_ = max_abs;
  });
}

GemmCheck GemmReference::check(const GemmOperands& ops, int threads) const {
  return with_gemm_types(ops.precision, [&](auto types) -> GemmCheck {
    using A = typename decltype(types)::a_type;
    using B = typename decltype(types)::b_type;
    using C = typename decltype(types)::c_type;
    const std::int64_t m = ops.shape.m, n = ops.shape.n, k = ops.shape.k;
    const auto* a = static_cast<const A*>(ops.a);
    const auto* b = static_cast<const B*>(ops.b);
    const auto* c = static_cast<const C*>(ops.c);
    const double exact_limit = std::ldexp(1.0, exact_bits(ops.precision));
    const double u = unit_roundoff(ops.precision);
    const int team = std::max(1, threads);

    // 1. Column checksums: any single wrong entry of C changes its column's sum.
    struct Column {
      double got = 0.0, expected = 0.0, tolerance = 0.0;
      [[nodiscard]] bool ok() const { return std::fabs(got - expected) <= tolerance; }
    };
    auto column = [&](std::int64_t j) {
      Column col;
      double bound = 0.0, b_max = 0.0;
      for (std::int64_t i = 0; i < k; ++i) {
        const double v = to_double(b[j * k + i]);
        col.expected += a_column_sum_[i] * v;
        bound += a_column_abs_sum_[i] * std::fabs(v);
        b_max = std::max(b_max, std::fabs(v));
      }
      for (std::int64_t i = 0; i < m; ++i) col.got += to_double(c[j * m + i]);
      const bool exact = static_cast<double>(k) * a_max_abs_ * b_max < exact_limit;
      col.tolerance = exact ? 0.0 : static_cast<double>(k) * u * bound;
      return col;
    };
    std::int64_t bad_column = n;  // the first failing column, n when none
#pragma omp parallel for num_threads(team) schedule(static) reduction(min : bad_column)
    for (std::int64_t j = 0; j < n; ++j) {
      if (!column(j).ok()) bad_column = std::min(bad_column, j);
    }
    if (bad_column < n) {
      const Column col = column(bad_column);
      return GemmCheck{false, "column " + std::to_string(bad_column) + " of C sums to " + std::to_string(col.got) +
                                  ", expected " + std::to_string(col.expected) + " (tolerance " +
                                  std::to_string(col.tolerance) + ")"};
    }

    // 2. Direct dot products on sampled entries (rows and columns in order; the first failure is reported).
    auto sample = [](std::int64_t size, std::int64_t count) {
      std::vector<std::int64_t> idx;
      if (size <= count) {
        for (std::int64_t i = 0; i < size; ++i) idx.push_back(i);
        return idx;
      }
      for (std::int64_t s = 0; s < count; ++s) idx.push_back(s * (size - 1) / (count - 1));
      return idx;
    };
    const std::vector<std::int64_t> rows = sample(m, 48), columns = sample(n, 16);
    struct Entry {
      double got = 0.0, ref = 0.0, tolerance = 0.0;
      [[nodiscard]] bool ok() const { return std::fabs(got - ref) <= tolerance; }
    };
    auto entry = [&](std::int64_t i, std::int64_t j) {
      Entry e;
      double abs_ref = 0.0, a_max = 0.0, b_max = 0.0;
      for (std::int64_t p = 0; p < k; ++p) {
        const double x = to_double(a[i * k + p]), y = to_double(b[j * k + p]);
        e.ref += x * y;
        abs_ref += std::fabs(x * y);
        a_max = std::max(a_max, std::fabs(x));
        b_max = std::max(b_max, std::fabs(y));
      }
      e.got = to_double(c[j * m + i]);
      const bool exact = static_cast<double>(k) * a_max * b_max < exact_limit;
      e.tolerance = exact ? 0.0 : static_cast<double>(k) * u * abs_ref;
      return e;
    };
    const auto count = static_cast<std::int64_t>(rows.size() * columns.size());
    const auto width = static_cast<std::int64_t>(columns.size());
    std::int64_t bad_entry = count;
#pragma omp parallel for num_threads(team) schedule(static) reduction(min : bad_entry)
    for (std::int64_t s = 0; s < count; ++s) {
      if (!entry(rows[s / width], columns[s % width]).ok()) bad_entry = std::min(bad_entry, s);
    }
    if (bad_entry < count) {
      const std::int64_t i = rows[bad_entry / width], j = columns[bad_entry % width];
      const Entry e = entry(i, j);
      return GemmCheck{false, "C(" + std::to_string(i) + "," + std::to_string(j) + ") = " + std::to_string(e.got) +
                                  ", expected " + std::to_string(e.ref) + " (tolerance " +
                                  std::to_string(e.tolerance) + ")"};
    }
    return GemmCheck{};
  });
}

GemmCheck check_gemm(const GemmOperands& ops) { return GemmReference(ops).check(ops); }

double gemm_operand_footprint(const GemmRequest& r) {
  return gemm_compulsory_bytes(GemmShape{r.m, r.max_n, r.k}, r.precision);
}

namespace {

// A page-aligned block of at least `bytes` (see GemmBuffers::allocate).
std::unique_ptr<void, LargeFree> allocate_block(double bytes) {
  // Page aligned; from 4 MiB up on 2 MiB huge pages, as the DRAM roof these operands are placed against.
  constexpr std::size_t kAlign = 4096;
  const auto size = static_cast<std::size_t>(std::ceil(std::max(bytes, 1.0) / kAlign)) * kAlign;
  void* p = allocate_large(size, kAlign);
  if (p == nullptr) throw std::bad_alloc();
  return std::unique_ptr<void, LargeFree>(p);
}

}  // namespace

GemmOperandSet::GemmOperandSet(Precision precision, std::int64_t m, std::int64_t k, std::int64_t max_n, int threads)
    : precision_(precision), m_(m), k_(k), max_n_(max_n) {
  if (m <= 0 || k <= 0 || max_n <= 0 || threads <= 0) {
    throw std::invalid_argument("GEMM: m, k, max_n and threads must be positive");
  }
  with_gemm_types(precision, [](auto) {});  // throws for a precision the CPU GEMMs do not run
  // One block per operand, each the size gemm_compulsory_bytes counts for it.
  a_ = allocate_block(gemm_compulsory_bytes(GemmShape{m, 0, k}, precision));
  b_ = allocate_block(gemm_compulsory_bytes(GemmShape{0, max_n, k}, precision));
  c_ = allocate_block(gemm_compulsory_bytes(GemmShape{m, max_n, 0}, precision));
  fill_gemm_inputs(operands(max_n), max_n, threads);
  reference_ = std::make_unique<GemmReference>(operands(max_n));
}

GemmOperands GemmOperandSet::operands(std::int64_t n) const {
  return GemmOperands{precision_, GemmShape{m_, n, k_}, a_.get(), b_.get(), c_.get()};
}

double GemmOperandSet::bytes() const { return gemm_compulsory_bytes(GemmShape{m_, max_n_, k_}, precision_); }

void GemmOperandSet::poison_c() const {
  with_gemm_types(precision_, [&](auto types) {
    using C = typename decltype(types)::c_type;
    // NaN fails every comparison of the check; the least int32 is below -k * 7 * 7, the least product of the fills.
    C poison{};
    if constexpr (std::is_floating_point_v<C>) {
      poison = std::numeric_limits<C>::quiet_NaN();
    } else {
      poison = std::numeric_limits<C>::min();
    }
    std::fill_n(static_cast<C*>(c_.get()), m_ * max_n_, poison);
  });
}

std::shared_ptr<GemmOperandSet> make_gemm_operands(const GemmRequest& r) {
  return std::make_shared<GemmOperandSet>(r.precision, r.m, r.k, r.max_n, r.threads);
}

namespace gemm_detail {

GemmBuffers::Block GemmBuffers::allocate(double bytes) { return allocate_block(bytes); }

GemmBuffers::GemmBuffers(const GemmRequest& request, std::shared_ptr<GemmOperandSet> operands)
    : request_(request), operands_(operands ? std::move(operands) : make_gemm_operands(request)) {
  if (request.max_n <= 0 || request.threads <= 0) {
    throw std::invalid_argument("GEMM: max_n and threads must be positive");
  }
  if (operands_->precision() != request.precision || operands_->m() != request.m || operands_->k() != request.k ||
      operands_->max_n() < request.max_n) {
    throw std::invalid_argument("GEMM: the operands are not of the request's precision and shape");
  }
  operands_->poison_c();
}

}  // namespace gemm_detail
}  // namespace roofline
