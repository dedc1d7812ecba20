// An entry's labels read alone (read_labels: a suite context's rows that are the labels its entries would have had)
// and the GEMM labels' one reader over the typed labels (issue 61: no labels -> JSON -> reader round trip): what the
// one writer (gemm_labels_json) wrote reads back, and a label the typed read kept in `extra` reads as a reader of the
// file's JSON read it.
#include <gtest/gtest.h>

#include "roofline/common/gemm_labels.hpp"
#include "roofline/records/gemm_labels.hpp"
#include "roofline/records/results_document.hpp"

namespace roofline {
using nlohmann::json;

TEST(EntryLabels, ReadAloneAsTheLenientReaderReadsThem) {
  const json row = {{"precision", "bf16"}, {"isa", "amx"}, {"vector_bits", 512}, {"threads", "2"},
                    {"reason", "not supported on this CPU"}, {"engine", nullptr}};
  const EntryLabels l = read_labels(row);
  EXPECT_EQ(l.precision, "bf16");
  EXPECT_EQ(l.isa, "amx");
  EXPECT_EQ(l.vector_bits, 512);
  EXPECT_FALSE(l.threads.has_value());  // a string where the member is an integer: kept as written
  EXPECT_EQ(l.extra.at("threads"), "2");
  EXPECT_EQ(l.extra.at("reason"), "not supported on this CPU");  // not a label: kept
  EXPECT_TRUE(l.extra.at("engine").is_null());
  EXPECT_EQ(to_json(l), row);
  EXPECT_EQ(to_json(read_labels(json("amx"))), json::object());  // not an object: no labels
}

TEST(GemmLabels, TheTypedLabelsReadWhatTheOneWriterWrote) {
  BenchmarkEntry e;
  json written = {{"suite", "gemm"}};
  written.update(gemm_labels_json(GemmShape{4096, 8, 2048}, OperandBytes{2, 2, 4}));
  set_field(e, "labels", written);
  ASSERT_TRUE(e.labels.has_value());
  const std::optional<GemmLabels> g = read_gemm_labels(*e.labels);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->shape.m, 4096);
  EXPECT_EQ(g->shape.n, 8);
  EXPECT_EQ(g->shape.k, 2048);
  EXPECT_EQ(g->element.a, 2);
  EXPECT_EQ(g->element.b, 2);
  EXPECT_EQ(g->element.c, 4);
  EXPECT_GT(g->operand_bytes(), 0.0);
}

TEST(GemmLabels, ABatchFromNAWholeFloatAndNoShape) {
  // n stands for the batch where the labels name none; a whole number written as a float (kept in `extra`) counts.
  EntryLabels l = read_labels({{"m", 64}, {"k", 32.0}, {"n", 4}, {"a_bytes", 4}});
  std::optional<GemmLabels> g = read_gemm_labels(l);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->shape.k, 32);
  EXPECT_EQ(g->shape.n, 4);
  EXPECT_EQ(g->element.a, 4);
  EXPECT_EQ(g->element.b, 0);  // missing: 0, and no compulsory bytes
  EXPECT_EQ(g->operand_bytes(), 0.0);
  // Not a positive whole number, or missing: no shape.
  EXPECT_FALSE(read_gemm_labels(read_labels({{"m", 64}, {"k", 32.5}, {"batch", 4}})).has_value());
  EXPECT_FALSE(read_gemm_labels(read_labels({{"m", 64}, {"k", "32"}, {"batch", 4}})).has_value());
  EXPECT_FALSE(read_gemm_labels(read_labels({{"m", 64}, {"batch", 4}})).has_value());
  EXPECT_FALSE(read_gemm_labels(read_labels({{"m", -64}, {"k", 32}, {"batch", 4}})).has_value());
}

}  // namespace roofline
