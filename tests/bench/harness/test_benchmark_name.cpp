// The harness writes every benchmark name (benchmark_name.hpp, issue 47): each target's forms, byte for byte as the
// results files and plans already hold them (copied from `roofline run --plan --target all` and the targets' tests),
// and the one canonical order of the named fields whichever order a target sets them in.
#include <gtest/gtest.h>

#include "roofline/harness/benchmark_name.hpp"

namespace roofline {
namespace {

TEST(BenchmarkName, TheCpusForms) {
  BenchmarkKey bandwidth("bandwidth", {"triad"});
  bandwidth.threads = 1;
  bandwidth.bytes = 4032;
  EXPECT_EQ(benchmark_name(bandwidth), "bandwidth/triad/threads:1/bytes:4032");
  bandwidth.pages = "4K";
  bandwidth.bytes = 134217792;
  EXPECT_EQ(benchmark_name(bandwidth), "bandwidth/triad/pages:4K/threads:1/bytes:134217792");

  BenchmarkKey clock("clock", {"add_chain"});
  clock.threads = 1;
  EXPECT_EQ(benchmark_name(clock), "clock/add_chain/threads:1");

  BenchmarkKey peak("compute", {"fma", "fp32", "avx512"});
  peak.bits = 256;
  peak.threads = 1;
  EXPECT_EQ(benchmark_name(peak), "compute/fma/fp32/avx512/bits:256/threads:1");

  BenchmarkKey dot("compute", {"dequant_dot", "q8_0", "avx512_vnni"});
  dot.level = "L1";
  dot.threads = 1;
  EXPECT_EQ(benchmark_name(dot), "compute/dequant_dot/q8_0/avx512_vnni/level:L1/threads:1");

  // The DRAM GEMVs keep their batch before their threads: a path segment, outside the canonical order.
  BenchmarkKey gemv("dequant_gemv", {"q4_k", "avx512_vnni", name_segment("batch", 1)});
  gemv.threads = 2;
  EXPECT_EQ(benchmark_name(gemv), "dequant_gemv/q4_k/avx512_vnni/batch:1/threads:2");

  BenchmarkKey gemm("gemm", {"onednn", "fp32"});
  gemm.threads = 2;
  BenchmarkKey setup = gemm;  // a group whose set-up failed
  setup.tail = {"setup"};
  EXPECT_EQ(benchmark_name(setup), "gemm/onednn/fp32/threads:2/setup");
  gemm.m = 6144;
  gemm.k = 6144;
  gemm.batch = 1;
  EXPECT_EQ(benchmark_name(gemm), "gemm/onednn/fp32/threads:2/m:6144/k:6144/batch:1");
}

TEST(BenchmarkName, TheOpenClForms) {
  BenchmarkKey bandwidth("bandwidth", {"read"});
  bandwidth.width = 16;
  bandwidth.bytes = 16384;
  EXPECT_EQ(benchmark_name(bandwidth), "bandwidth/read/width:16/bytes:16384");

  BenchmarkKey compute("compute", {"fp32"});
  compute.width = 1;
  EXPECT_EQ(benchmark_name(compute), "compute/fp32/width:1");

  BenchmarkKey gemm("gemm", {"clblast", "fp32"});
  gemm.m = 6144;
  gemm.k = 6144;
  gemm.batch = 1;
  EXPECT_EQ(benchmark_name(gemm), "gemm/clblast/fp32/m:6144/k:6144/batch:1");

  EXPECT_EQ(transfer_benchmark_name("host_to_device", "pinned", 67108864), "transfer/host_to_device/pinned/bytes:67108864");

  EXPECT_EQ(benchmark_name(BenchmarkKey("latency", {"launch"})), "latency/launch");
}

TEST(BenchmarkName, TheCudaForms) {
  BenchmarkKey bandwidth("bandwidth", {"read"});
  bandwidth.bytes = 1048576;
  EXPECT_EQ(benchmark_name(bandwidth), "bandwidth/read/bytes:1048576");

  BenchmarkKey allocation("bandwidth", {"allocation"});
  allocation.bytes = 1073741824;
  EXPECT_EQ(benchmark_name(allocation), "bandwidth/allocation/bytes:1073741824");

  EXPECT_EQ(benchmark_name(BenchmarkKey("compute", {"fma"})), "compute/fma");
  EXPECT_EQ(benchmark_name(BenchmarkKey("compute", {"fma", "fp16x2"})), "compute/fma/fp16x2");

  BenchmarkKey tensor("compute", {"cublaslt", "bf16"});
  tensor.m = tensor.n = tensor.k = 8192;
  EXPECT_EQ(benchmark_name(tensor), "compute/cublaslt/bf16/m:8192/n:8192/k:8192");

  BenchmarkKey gemv("gemm", {"cublaslt", "fp16"});
  gemv.m = 8192;
  gemv.n = 1;
  gemv.k = 4096;
  EXPECT_EQ(benchmark_name(gemv), "gemm/cublaslt/fp16/m:8192/n:1/k:4096");

  // The transfer and launch names every target with a host link shares (OpenCL's and CUDA's).
  EXPECT_EQ(transfer_benchmark_name("device_to_host", "pageable", 268435456),
            "transfer/device_to_host/pageable/bytes:268435456");
  EXPECT_EQ(latency_benchmark_name(), "latency/launch");
}

TEST(BenchmarkName, TheTestTargetsAndTheLlmSuitesForms) {
  BenchmarkKey bandwidth("bandwidth", {"read"});
  bandwidth.bytes = 65536;
  EXPECT_EQ(benchmark_name(bandwidth), "bandwidth/read/bytes:65536");
  EXPECT_EQ(benchmark_name(BenchmarkKey("compute", {"bf16", "matrix"})), "compute/bf16/matrix");
  EXPECT_EQ(benchmark_name(BenchmarkKey("transfer", {"host_to_device", "pinned"})), "transfer/host_to_device/pinned");

  // The llm suite's: its "kv:" a path segment, the step after every field.
  BenchmarkKey llm("llm", {"llama-3-8b", "q4_0", name_segment("kv", "bf16")});
  llm.threads = 2;
  llm.tail = {"decode", name_segment("batch", 4), name_segment("context", 4096)};
  EXPECT_EQ(benchmark_name(llm), "llm/llama-3-8b/q4_0/kv:bf16/threads:2/decode/batch:4/context:4096");
  llm.tail = {"prefill", name_segment("prompt", 512)};
  EXPECT_EQ(benchmark_name(llm), "llm/llama-3-8b/q4_0/kv:bf16/threads:2/prefill/prompt:512");
}

TEST(BenchmarkName, EveryFieldHasOnePlaceWhateverOrderItWasSetIn) {
  BenchmarkKey key("suite", {"a", "b"});
  key.tail = {"z"};
  key.bytes = 11;
  key.batch = 10;
  key.k = 9;
  key.n = 8;
  key.m = 7;
  key.threads = 6;
  key.level = "L2";
  key.bits = 4;
  key.width = 3;
  key.pages = "4K";
  EXPECT_EQ(benchmark_name(key),
            "suite/a/b/pages:4K/width:3/bits:4/level:L2/threads:6/m:7/n:8/k:9/batch:10/bytes:11/z");
  EXPECT_EQ(benchmark_name(BenchmarkKey("latency")), "latency");
  BenchmarkKey large("bandwidth", {"read"});
  large.bytes = 1ULL << 40U;  // no rounding, no separators, no exponent
  EXPECT_EQ(benchmark_name(large), "bandwidth/read/bytes:1099511627776");
}

}  // namespace
}  // namespace roofline
