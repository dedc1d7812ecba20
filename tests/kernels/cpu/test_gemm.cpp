// GEMV/GEMM kernels: the FLOP/byte counting, every compiled backend x precision on small and odd shapes
// (validated), validation catching a wrong product, and the row-split GEMV against Eigen's own result.
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <gtest/gtest.h>

#include "roofline/kernels/cpu/gemm.hpp"
#include "roofline/common/gemm_count.hpp"

#include "host_features.hpp"

namespace roofline {
namespace {

using testing::host_features;

GemmRequest request(std::int64_t m, std::int64_t k, std::int64_t max_n, Precision p, int threads,
                    const IsaFeatures& features = host_features()) {
  GemmRequest r;
  r.m = m;
  r.k = k;
  r.max_n = max_n;
  r.precision = p;
  r.threads = threads;
  r.features = features;
  return r;
}

TEST(GemmCount, OperationsBytesAndIntensity) {
  const GemmShape s{4, 2, 3};
  EXPECT_DOUBLE_EQ(gemm_operations(s), 48.0);
  EXPECT_DOUBLE_EQ(gemm_compulsory_bytes(s, Precision::fp32), (12 + 6 + 8) * 4.0);
  EXPECT_DOUBLE_EQ(gemm_compulsory_bytes(s, Precision::fp64), (12 + 6 + 8) * 8.0);
  EXPECT_DOUBLE_EQ(gemm_compulsory_bytes(s, Precision::bf16), 12 * 2.0 + 6 * 2.0 + 8 * 4.0);
  EXPECT_DOUBLE_EQ(gemm_compulsory_bytes(s, Precision::int8), 12 * 1.0 + 6 * 1.0 + 8 * 4.0);
  EXPECT_DOUBLE_EQ(gemm_arithmetic_intensity(s, Precision::fp32), 48.0 / 104.0);
  EXPECT_DOUBLE_EQ(gemm_arithmetic_intensity(s, Precision::int8), 48.0 / 50.0);
}

TEST(GemmCount, BatchOneStreamsTheWeights) {
  // GEMV: AI = 2MK / ((MK + K + M) * 4) -> just under 0.5 FLOP/byte in fp32 for a large square A.
  const GemmShape gemv{8192, 1, 8192};
  EXPECT_NEAR(gemm_arithmetic_intensity(gemv, Precision::fp32), 0.5 * 8192.0 * 8192 / (8192.0 * 8192 + 2 * 8192),
              1e-12);
  // Formula of the issue: 2MNK / ((MK + KN + MN) * sizeof(T)).
  const GemmShape big{8192, 1024, 8192};
  const double mk = 8192.0 * 8192, kn = 8192.0 * 1024, mn = 8192.0 * 1024;
  EXPECT_DOUBLE_EQ(gemm_arithmetic_intensity(big, Precision::fp64), 2 * 8192.0 * 1024 * 8192 / ((mk + kn + mn) * 8));
  // AI grows with the batch.
  double last = 0.0;
  for (std::int64_t n = 1; n <= 1024; n *= 2) {
    const double ai = gemm_arithmetic_intensity({4096, n, 4096}, Precision::fp32);
    EXPECT_GT(ai, last);
    last = ai;
  }
}

TEST(GemmRegistry, EigenAlwaysFirstAndNamesUnique) {
  const auto& list = gemm_backends();
  ASSERT_FALSE(list.empty());
  EXPECT_EQ(list.front()->name(), "eigen");
  EXPECT_EQ(find_gemm_backend("eigen"), list.front());
  EXPECT_EQ(find_gemm_backend("no-such-backend"), nullptr);
  for (const GemmBackend* b : list) {
    EXPECT_EQ(find_gemm_backend(b->name()), b);
    EXPECT_FALSE(b->precisions().empty());
    EXPECT_FALSE(b->library_facts(host_features()).empty());
  }
}

// Every compiled backend and precision, on odd shapes (M, K not multiples of 16) and batches 1, 5, 17,
// on 1 and 2 threads: the product must validate.
TEST(GemmBackends, EveryBackendAndPrecisionValidatesOnOddShapes) {
  const std::vector<std::pair<std::int64_t, std::int64_t>> shapes{{37, 29}, {64, 48}, {3, 1}, {129, 67}};
  int validated = 0;
  for (const GemmBackend* backend : gemm_backends()) {
    for (Precision p : backend->precisions()) {
      for (auto [m, k] : shapes) {
        for (int threads : {1, 2}) {
          SCOPED_TRACE(std::string(backend->name()) + " " + std::string(to_string(p)) + " m=" + std::to_string(m) +
                       " k=" + std::to_string(k) + " threads=" + std::to_string(threads));
          std::unique_ptr<GemmProblem> problem;
          try {
            problem = backend->prepare(request(m, k, 17, p, threads));
          } catch (const GemmUnsupported& e) {
            std::printf("skipped (unsupported here): %s\n", e.what());
            continue;
          }
          EXPECT_GE(problem->pack_seconds(), 0.0);
          for (std::int64_t n : {1, 5, 17}) {
            problem->select_batch(n);
            problem->run();
            const GemmCheck check = problem->validate();
            EXPECT_TRUE(check.ok) << "n=" << n << ": " << check.message;
            EXPECT_FALSE(problem->implementation().empty());
            EXPECT_EQ(problem->operands().shape.n, n);
            ++validated;
          }
        }
      }
    }
  }
  EXPECT_GE(validated, 2 * 4 * 2 * 3);  // at least eigen fp32 and fp64
}

TEST(GemmBackends, UnsupportedPrecisionIsRefused) {
  EXPECT_THROW((void)find_gemm_backend("eigen")->prepare(request(8, 8, 1, Precision::int8, 1)), GemmUnsupported);
  EXPECT_THROW((void)find_gemm_backend("eigen")->prepare(request(8, 8, 1, Precision::fp16, 1)), GemmUnsupported);
}

// A wrong entry anywhere in C, even one no sampled dot product looks at, fails validation.
TEST(GemmValidation, CatchesACorruptedOutput) {
  for (const GemmBackend* backend : gemm_backends()) {
    for (Precision p : backend->precisions()) {
      SCOPED_TRACE(std::string(backend->name()) + " " + std::string(to_string(p)));
      std::unique_ptr<GemmProblem> problem;
      try {
        problem = backend->prepare(request(301, 45, 40, p, 2));
      } catch (const GemmUnsupported&) {
        continue;
      }
      problem->select_batch(40);
      problem->run();
      ASSERT_TRUE(problem->validate().ok);
      const GemmOperands ops = problem->operands();
      // Row 151, column 21: between the 48 sampled rows and 16 sampled columns.
      const std::int64_t at = 21 * ops.shape.m + 151;
      if (p == Precision::fp64) static_cast<double*>(ops.c)[at] += 1.0;
      if (p == Precision::fp32 || p == Precision::bf16) static_cast<float*>(ops.c)[at] += 1.0f;
      if (p == Precision::int8) static_cast<std::int32_t*>(ops.c)[at] -= 1;
      const GemmCheck check = problem->validate();
      EXPECT_FALSE(check.ok);
      EXPECT_NE(check.message.find("column 21"), std::string::npos) << check.message;
      // A rerun repairs it.
      problem->run();
      EXPECT_TRUE(problem->validate().ok);
    }
  }
}

// Element i of operand A or B ('a', 'b') in the shared layout's types (gemm.hpp), as a double.
double element(const GemmOperands& ops, char which, std::int64_t i) {
  const void* base = which == 'a' ? ops.a : ops.b;
  switch (ops.precision) {
    case Precision::fp64: return static_cast<const double*>(base)[i];
    case Precision::fp32: return static_cast<const float*>(base)[i];
    case Precision::bf16: {
      const std::uint32_t bits = static_cast<std::uint32_t>(static_cast<const std::uint16_t*>(base)[i]) << 16;
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    case Precision::int8:
      return which == 'a' ? static_cast<const std::int8_t*>(base)[i] : static_cast<const std::uint8_t*>(base)[i];
    default: return 0.0;
  }
}

// Sets element i of C (exact for the small integers of the fills).
void set_c(const GemmOperands& ops, std::int64_t i, double v) {
  switch (ops.precision) {
    case Precision::fp64: static_cast<double*>(ops.c)[i] = v; break;
    case Precision::fp32:
    case Precision::bf16: static_cast<float*>(ops.c)[i] = static_cast<float>(v); break;
    case Precision::int8: static_cast<std::int32_t*>(ops.c)[i] = static_cast<std::int32_t>(v); break;
    default: break;
  }
}

// Issue 60: groups of one precision and shape share one set of operands. Every backend and thread count prepared on
// one set reads its A and B (no copy of its own), starts from a poisoned C (never validated against the product another
// backend left), validates its own product at every batch, and still fails on a wrong one.
TEST(GemmOperandSet, BackendsSharingOneSetEachValidateTheirOwnProduct) {
  for (Precision p : {Precision::fp32, Precision::fp64, Precision::bf16, Precision::int8}) {
    SCOPED_TRACE(std::string(to_string(p)));
    const std::shared_ptr<GemmOperandSet> set = make_gemm_operands(request(301, 45, 40, p, 2));
    const GemmOperands shared = set->operands(40);
    int users = 0;
    for (const GemmBackend* backend : gemm_backends()) {
      for (int threads : {1, 2}) {
        SCOPED_TRACE(std::string(backend->name()) + " threads=" + std::to_string(threads));
        std::unique_ptr<GemmProblem> problem;
        try {
          problem = backend->prepare(request(301, 45, 17, p, threads), set);  // fewer columns than the set has
        } catch (const GemmUnsupported&) {
          continue;
        }
        ++users;
        EXPECT_EQ(problem->operands().a, shared.a);
        EXPECT_EQ(problem->operands().b, shared.b);
        EXPECT_EQ(problem->operands().c, shared.c);
        EXPECT_FALSE(problem->validate().ok) << "C must be poisoned, not the previous user's product";
        for (std::int64_t n : {17, 1, 5}) {  // the widest first: the narrower ones find its product in C
          problem->select_batch(n);
          problem->run();
          const GemmCheck check = problem->validate();
          EXPECT_TRUE(check.ok) << "n=" << n << ": " << check.message;
        }
        // A wrong entry (row 151, column 3: outside the sampled rows) still fails.
        problem->select_batch(5);
        problem->run();
        const GemmOperands ops = problem->operands();
        const std::int64_t at = 3 * ops.shape.m + 151;
        if (p == Precision::fp64) static_cast<double*>(ops.c)[at] += 1.0;
        if (p == Precision::fp32 || p == Precision::bf16) static_cast<float*>(ops.c)[at] += 1.0f;
        if (p == Precision::int8) static_cast<std::int32_t*>(ops.c)[at] -= 1;
        const GemmCheck bad = problem->validate();
        EXPECT_FALSE(bad.ok);
        EXPECT_NE(bad.message.find("column 3"), std::string::npos) << bad.message;
      }
    }
    // eigen runs fp32 and fp64 on 1 and 2 threads; the other precisions only where oneDNN is built and runs them.
    if (p == Precision::fp32 || p == Precision::fp64) {
      EXPECT_GE(users, 2);
    }
    EXPECT_EQ(set.use_count(), 1) << "a problem keeps the set only while it lives";
  }
}

// A backend that never writes C is never validated: C is poisoned when a problem is made on the set.
TEST(GemmOperandSet, APoisonedOutputFailsInEveryPrecision) {
  for (Precision p : {Precision::fp32, Precision::fp64, Precision::bf16, Precision::int8}) {
    SCOPED_TRACE(std::string(to_string(p)));
    // The product of these operands in C, computed directly: the check passes, then fails once C is poisoned.
    const std::shared_ptr<GemmOperandSet> set = make_gemm_operands(request(37, 29, 3, p, 1));
    const GemmOperands ops = set->operands(3);
    for (std::int64_t j = 0; j < 3; ++j) {
      for (std::int64_t i = 0; i < 37; ++i) {
        double sum = 0.0;
        for (std::int64_t q = 0; q < 29; ++q) {
          sum += element(ops, 'a', i * 29 + q) * element(ops, 'b', j * 29 + q);
        }
        set_c(ops, j * 37 + i, sum);
      }
    }
    EXPECT_TRUE(set->check(3).ok) << set->check(3).message;
    set->poison_c();
    EXPECT_FALSE(set->check(1).ok);
    EXPECT_FALSE(set->check(3).ok);
  }
}

TEST(GemmOperandSet, OperandsOfAnotherShapeOrTooFewColumnsAreRefused) {
  const std::shared_ptr<GemmOperandSet> set = make_gemm_operands(request(64, 48, 8, Precision::fp32, 1));
  const GemmBackend* eigen = find_gemm_backend("eigen");
  EXPECT_THROW((void)eigen->prepare(request(64, 47, 8, Precision::fp32, 1), set), std::invalid_argument);
  EXPECT_THROW((void)eigen->prepare(request(63, 48, 8, Precision::fp32, 1), set), std::invalid_argument);
  EXPECT_THROW((void)eigen->prepare(request(64, 48, 9, Precision::fp32, 1), set), std::invalid_argument);
  EXPECT_THROW((void)eigen->prepare(request(64, 48, 8, Precision::fp64, 1), set), std::invalid_argument);
  EXPECT_NO_THROW((void)eigen->prepare(request(64, 48, 8, Precision::fp32, 2), set));
}

TEST(GemmValidation, DirectCheckOfAHandMadeProduct) {
  // A = [1 2; 3 4; 5 6] (row-major), B = [1; -1] and [2; 0] (column-major), C = A B.
  std::vector<float> a{1, 2, 3, 4, 5, 6}, b{1, -1, 2, 0}, c{-1, -1, -1, 2, 6, 10};
  GemmOperands ops{Precision::fp32, GemmShape{3, 2, 2}, a.data(), b.data(), c.data()};
  EXPECT_TRUE(check_gemm(ops).ok);
  c[4] = 6.5f;  // wrong by a half
  const GemmCheck bad = check_gemm(ops);
  EXPECT_FALSE(bad.ok);
  // Swapped entries keep the column sum but not the sampled dot products.
  c = {-1, -1, -1, 2, 10, 6};
  EXPECT_FALSE(check_gemm(ops).ok);
}

// The check on a team (issue 60: it runs on the point's threads) finds what one thread finds, and reports the first
// failure in the same order: the first wrong column, and with column sums intact the first wrong sampled entry.
TEST(GemmValidation, ATeamReportsTheFailureOneThreadReports) {
  const std::shared_ptr<GemmOperandSet> set = make_gemm_operands(request(97, 61, 40, Precision::fp64, 2));
  const GemmOperands ops = set->operands(40);
  GemmReference reference(ops);
  EXPECT_FALSE(reference.check(ops, 2).ok);  // C poisoned by nobody yet: zeros, not the product
  // C = A B, directly.
  auto* a = static_cast<const double*>(ops.a);
  auto* b = static_cast<const double*>(ops.b);
  auto* c = static_cast<double*>(ops.c);
  for (std::int64_t j = 0; j < 40; ++j) {
    for (std::int64_t i = 0; i < 97; ++i) {
      double sum = 0.0;
      for (std::int64_t p = 0; p < 61; ++p) sum += a[i * 61 + p] * b[j * 61 + p];
      c[j * 97 + i] = sum;
    }
  }
  for (const int threads : {1, 2, 3}) EXPECT_TRUE(reference.check(ops, threads).ok) << threads;
  // Two wrong columns: the first is named, by one thread and by a team alike.
  c[31 * 97 + 5] += 1.0;
  c[7 * 97 + 50] += 1.0;
  const GemmCheck one = reference.check(ops, 1);
  ASSERT_FALSE(one.ok);
  EXPECT_NE(one.message.find("column 7 "), std::string::npos) << one.message;
  for (const int threads : {2, 3}) EXPECT_EQ(reference.check(ops, threads).message, one.message) << threads;
  // Entries swapped within a column keep its sum; the sampled dot products catch it, the same one on any team.
  c[31 * 97 + 5] -= 1.0;
  c[7 * 97 + 50] -= 1.0;
  std::swap(c[39 * 97 + 0], c[39 * 97 + 96]);
  const GemmCheck swapped = reference.check(ops, 1);
  ASSERT_FALSE(swapped.ok);
  EXPECT_EQ(swapped.message.rfind("C(0,39)", 0), 0u) << swapped.message;
  EXPECT_EQ(reference.check(ops, 2).message, swapped.message);
}

// A's rows are windows of one random sequence (fill_gemm_inputs): no two rows alike and A not symmetric, so a kernel
// that reads a wrong row or A transposed fails its check.
TEST(GemmValidation, TheFilledWeightsHaveNoTwoRowsAlikeAndAreNotSymmetric) {
  for (const Precision p : {Precision::fp32, Precision::int8}) {
    const std::int64_t m = 64, k = 64;
    const std::shared_ptr<GemmOperandSet> set = make_gemm_operands(request(m, k, 1, p, 2));
    const GemmOperands ops = set->operands(1);
    std::set<std::vector<double>> rows;
    bool symmetric = true;
    for (std::int64_t i = 0; i < m; ++i) {
      std::vector<double> row;
      for (std::int64_t j = 0; j < k; ++j) {
        row.push_back(element(ops, 'a', i * k + j));
        if (element(ops, 'a', i * k + j) != element(ops, 'a', j * k + i)) symmetric = false;
      }
      rows.insert(row);
    }
    EXPECT_EQ(rows.size(), static_cast<std::size_t>(m)) << to_string(p);
    EXPECT_FALSE(symmetric) << to_string(p);
  }
}

// The row split of batch 1 over 2 threads computes what Eigen's own GEMV computes, on non-integer data.
TEST(GemmEigen, RowSplitGemvMatchesEigen) {
  const std::int64_t m = 1003, k = 517;
  auto problem = find_gemm_backend("eigen")->prepare(request(m, k, 1, Precision::fp32, 2));
  problem->select_batch(1);
  EXPECT_NE(problem->implementation().find("rows of A split over 2"), std::string::npos)
      << problem->implementation();
  const GemmOperands ops = problem->operands();
  auto* a = static_cast<float*>(const_cast<void*>(ops.a));
  auto* x = static_cast<float*>(const_cast<void*>(ops.b));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (std::int64_t i = 0; i < m * k; ++i) a[i] = dist(rng);
  for (std::int64_t i = 0; i < k; ++i) x[i] = dist(rng);
  problem->run();

  using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMajor> A(a, m, k);
  const Eigen::Map<const Eigen::VectorXf> X(x, k);
  const Eigen::VectorXf expected = A * X;
  const auto* y = static_cast<const float*>(ops.c);
  for (std::int64_t i = 0; i < m; ++i) {
    const double scale = (A.row(i).cwiseAbs() * X.cwiseAbs()).value();
    ASSERT_NEAR(y[i], expected[i], 1e-5 * scale + 1e-6) << "row " << i;
  }
}

TEST(GemmEigen, ThreadingOfEachBatchIsStated) {
  auto problem = find_gemm_backend("eigen")->prepare(request(256, 64, 64, Precision::fp32, 2));
  problem->select_batch(1);
  EXPECT_NE(problem->implementation().find("gemv"), std::string::npos);
  problem->select_batch(64);  // 64 columns >= nr x 2 threads: Eigen's own parallel GEMM
  EXPECT_NE(problem->implementation().find("Eigen's OpenMP parallel product on 2 threads"), std::string::npos)
      << problem->implementation();
  auto single = find_gemm_backend("eigen")->prepare(request(256, 64, 4, Precision::fp64, 1));
  EXPECT_NE(single->implementation().find("1 thread"), std::string::npos);
}

TEST(GemmBackends, BatchOutsideThePreparedRangeIsRefused) {
  auto problem = find_gemm_backend("eigen")->prepare(request(16, 16, 4, Precision::fp32, 1));
  EXPECT_THROW(problem->select_batch(0), std::out_of_range);
  EXPECT_THROW(problem->select_batch(5), std::out_of_range);
}

TEST(GemmBackends, FootprintCoversTheOperands) {
  const GemmRequest r = request(1024, 512, 8, Precision::fp32, 1);
  EXPECT_DOUBLE_EQ(gemm_operand_footprint(r), (1024.0 * 512 + 512.0 * 8 + 1024.0 * 8) * 4);
  for (const GemmBackend* b : gemm_backends()) EXPECT_GE(b->footprint_bytes(r), gemm_operand_footprint(r));
}

}  // namespace
}  // namespace roofline
