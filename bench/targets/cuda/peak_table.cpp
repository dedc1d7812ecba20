// The table of peak_table.hpp. Each number is dense operations per SM per clock, taken from NVIDIA's
// architecture whitepapers and datasheets as "figure / (SMs x the clock the figure assumes)"; the arithmetic is in
// each source string so a reader can redo it. Where a datasheet's figures disagree with a round per-SM rate by
// more than rounding, the source says so.
#include "roofline/cuda/peak_table.hpp"

namespace roofline::cuda {
namespace {

// The documents the numbers come from.
constexpr const char* kA100 = "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), Table 1, A100 SXM4: 108 SMs, 1410 MHz";
constexpr const char* kGa102 = "NVIDIA Ampere GA102 GPU Architecture whitepaper (2021), Appendix A, RTX A6000: 84 SMs, 1800 MHz";
constexpr const char* kAda = "NVIDIA Ada GPU Architecture whitepaper (2023), Table 2/Appendix, RTX 4090: 128 SMs, 2520 MHz";
constexpr const char* kL40s = "NVIDIA L40S datasheet (2023): 142 SMs, 2520 MHz boost";
constexpr const char* kH100 = "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), Table 3, H100 SXM5: 132 SMs";
constexpr const char* kB200 = "NVIDIA HGX B200 datasheet (2024), per GPU, dense; 148 SMs";

std::string src(const char* doc, const char* arithmetic) { return std::string(doc) + ": " + arithmetic; }

std::vector<ComputeCapabilityPeaks> build_table() {
  std::vector<ComputeCapabilityPeaks> t;
  t.push_back({8, 0, "A100 SXM4",
               {{"fp64/vector", 64, src(kA100, "FP64 9.7 TFLOPS / (108 x 1.41 GHz) = 64")},
                {"fp64/matrix", 128, src(kA100, "FP64 Tensor Core 19.5 TFLOPS / (108 x 1.41 GHz) = 128")},
                {"fp32/vector", 128, src(kA100, "FP32 19.5 TFLOPS / (108 x 1.41 GHz) = 128")},
                {"fp16/vector", 512, src(kA100, "FP16 (non-Tensor) 78 TFLOPS / (108 x 1.41 GHz) = 512")},
                {"bf16/vector", 256, src(kA100, "BF16 (non-Tensor) 39 TFLOPS / (108 x 1.41 GHz) = 256")},
                {"tf32/matrix", 1024, src(kA100, "TF32 Tensor Core 156 TFLOPS / (108 x 1.41 GHz) = 1024")},
                {"fp16/matrix", 2048, src(kA100, "FP16 Tensor Core 312 TFLOPS / (108 x 1.41 GHz) = 2048")},
                {"bf16/matrix", 2048, src(kA100, "BF16 Tensor Core 312 TFLOPS / (108 x 1.41 GHz) = 2048")},
                {"int8/matrix", 4096, src(kA100, "INT8 Tensor Core 624 TOPS / (108 x 1.41 GHz) = 4096")}},
               {"No fp8 tensor cores before compute capability 8.9."}});
  t.back().vector_clock_hz = 1.41e+09;
  t.back().matrix_clock_hz = 1.41e+09;
  t.push_back({8, 6, "RTX A6000 (GA102)",
               {{"fp64/vector", 4, src(kGa102, "FP64 is 1/64 of FP32: 2 FP64 FMA units per SM = 4 FLOP")},
                {"fp32/vector", 256, src(kGa102, "FP32 38.7 TFLOPS / (84 x 1.8 GHz) = 256")},
                {"fp16/vector", 256, src(kGa102, "FP16 (non-Tensor) 38.7 TFLOPS, the FP32 rate: 256")},
                {"bf16/vector", 256, src(kGa102, "BF16 (non-Tensor) 38.7 TFLOPS, the FP32 rate: 256")},
                {"tf32/matrix", 512, src(kGa102, "TF32 Tensor 77.4 TFLOPS / (84 x 1.8 GHz) = 512")},
                {"fp16/matrix", 1024, src(kGa102, "FP16 Tensor (FP32 accumulate) 154.8 TFLOPS / (84 x 1.8 GHz) = 1024")},
                {"bf16/matrix", 1024, src(kGa102, "BF16 Tensor (FP32 accumulate) 154.8 TFLOPS / (84 x 1.8 GHz) = 1024")},
                {"int8/matrix", 2048, src(kGa102, "INT8 Tensor 309.7 TOPS / (84 x 1.8 GHz) = 2048")}},
               {"GeForce parts of 8.6 (RTX 30xx) run FP16/BF16 tensor math with FP32 accumulation at half this rate "
                "(GA102 whitepaper, RTX 3090 column): their theoretical matrix peak is 2x what they can reach.",
                "No fp8 tensor cores before compute capability 8.9."}});
  t.back().vector_clock_hz = 1.8e+09;
  t.back().matrix_clock_hz = 1.8e+09;
  t.push_back({8, 9, "L40S / RTX 4090 (AD102)",
               {{"fp64/vector", 4, src(kAda, "FP64 1.29 TFLOPS / (128 x 2.52 GHz) = 4 (1/64 of FP32)")},
                {"fp32/vector", 256, src(kAda, "FP32 82.6 TFLOPS / (128 x 2.52 GHz) = 256")},
                {"fp16/vector", 256, src(kAda, "FP16 (non-Tensor) 82.6 TFLOPS, the FP32 rate: 256")},
                {"bf16/vector", 256, src(kAda, "BF16 (non-Tensor) 82.6 TFLOPS, the FP32 rate: 256")},
                {"tf32/matrix", 512, src(kL40s, "TF32 Tensor 366 TFLOPS sparse = 183 dense / (142 x 2.52 GHz) = 512")},
                {"fp16/matrix", 1024, src(kL40s, "FP16 Tensor 733 TFLOPS sparse = 366 dense / (142 x 2.52 GHz) = 1024")},
                {"bf16/matrix", 1024, src(kL40s, "BF16 Tensor 733 TFLOPS sparse = 366 dense / (142 x 2.52 GHz) = 1024")},
                {"fp8/matrix", 2048, src(kL40s, "FP8 Tensor 1466 TFLOPS sparse = 733 dense / (142 x 2.52 GHz) = 2048")},
                {"int8/matrix", 2048, src(kL40s, "INT8 Tensor 1466 TOPS sparse = 733 dense / (142 x 2.52 GHz) = 2048")}},
               {"GeForce parts of 8.9 (RTX 40xx) run FP16/BF16/FP8 tensor math with FP32 accumulation at half this "
                "rate (Ada whitepaper, RTX 4090: 165.2 TFLOPS FP16 with FP32 accumulate against 330.3 with FP16)."}});
  t.back().vector_clock_hz = 2.52e+09;
  t.back().matrix_clock_hz = 2.52e+09;
  t.push_back({9, 0, "H100 / H200 SXM",
               {{"fp64/vector", 128, src(kH100, "64 FP64 units per SM: FP64 67 TFLOPS Tensor is 2x the vector rate; 34 TFLOPS / (132 x 1.98 GHz) = 130 -> 128")},
                {"fp64/matrix", 256, src(kH100, "FP64 Tensor Core 67 TFLOPS / (132 x 1.98 GHz) = 256")},
                {"fp32/vector", 256, src(kH100, "128 FP32 cores per SM: FP32 67 TFLOPS / (132 x 1.98 GHz) = 256")},
                {"fp16/vector", 512, src(kH100, "FP16 (non-Tensor) 133.8 TFLOPS / (132 x 1.98 GHz) = 512")},
                {"bf16/vector", 512, src(kH100, "BF16 (non-Tensor) 133.8 TFLOPS / (132 x 1.98 GHz) = 512")},
                {"tf32/matrix", 2048, src(kH100, "TF32 Tensor 494.7 TFLOPS / (132 x 1.83 GHz) = 2048")},
                {"fp16/matrix", 4096, src(kH100, "FP16 Tensor 989.4 TFLOPS / (132 x 1.83 GHz) = 4096 (\"2x A100's MMA rate per SM clock for clock\")")},
                {"bf16/matrix", 4096, src(kH100, "BF16 Tensor 989.4 TFLOPS / (132 x 1.83 GHz) = 4096")},
                {"fp8/matrix", 8192, src(kH100, "FP8 Tensor 1978.9 TFLOPS / (132 x 1.83 GHz) = 8192")},
                {"int8/matrix", 8192, src(kH100, "INT8 Tensor 1978.9 TOPS / (132 x 1.83 GHz) = 8192")}},
               {"The whitepaper's tensor figures assume a 1.83 GHz boost clock, its FP32/FP64 figures 1.98 GHz: the "
                "theoretical peak here uses the clock measured under load instead."}});
  t.back().vector_clock_hz = 1.98e+09;
  t.back().matrix_clock_hz = 1.83e+09;
  t.push_back({10, 0, "B200",
               {{"fp64/vector", 128, src(kB200, "FP64 40 TFLOPS / (148 x ~2.1 GHz) ~ 128, as Hopper's 64 FP64 units per SM")},
                {"fp64/matrix", 128, src(kB200, "FP64 Tensor Core 40 TFLOPS, the same as vector FP64: 128")},
                {"fp32/vector", 256, src(kB200, "FP32 80 TFLOPS / (148 x ~2.1 GHz) ~ 256, 128 FP32 cores per SM")},
                {"fp16/vector", 512, src(kB200, "not in the datasheet: Hopper's per-SM rate (2x FP32), an assumption")},
                {"bf16/vector", 512, src(kB200, "not in the datasheet: Hopper's per-SM rate (2x FP32), an assumption")},
                {"tf32/matrix", 4096, src(kB200, "TF32 Tensor 2.2 PFLOPS sparse = 1.1 dense / (148 x 1.85 GHz) ~ 4096")},
                {"fp16/matrix", 8192, src(kB200, "FP16 Tensor 4.5 PFLOPS sparse = 2.25 dense / (148 x 1.85 GHz) ~ 8192")},
                {"bf16/matrix", 8192, src(kB200, "BF16 Tensor 4.5 PFLOPS sparse = 2.25 dense / (148 x 1.85 GHz) ~ 8192")},
                {"fp8/matrix", 16384, src(kB200, "FP8 Tensor 9 PFLOPS sparse = 4.5 dense / (148 x 1.85 GHz) ~ 16384")},
                {"int8/matrix", 16384, src(kB200, "INT8 Tensor 9 POPS sparse = 4.5 dense / (148 x 1.85 GHz) ~ 16384")}},
               {"NVIDIA publishes no per-SM rates or boost clock for 10.0: the figures are the datasheet's divided by "
                "148 SMs at the clock that makes them round (1.85 GHz tensor, ~2.1 GHz FP32/FP64); treat them as estimates."}});
  t.back().vector_clock_hz = 2.1e+09;
  t.back().matrix_clock_hz = 1.85e+09;
  return t;
}

}  // namespace

const std::vector<ComputeCapabilityPeaks>& peak_table() {
  static const std::vector<ComputeCapabilityPeaks> table = build_table();
  return table;
}

const ComputeCapabilityPeaks* find_peaks(int major, int minor) {
  for (const ComputeCapabilityPeaks& row : peak_table()) {
    if (row.major == major && row.minor == minor) return &row;
  }
  return nullptr;
}

double ops_per_sm_per_clock(const ComputeCapabilityPeaks& row, const std::string& key) {
  for (const PeakRate& rate : row.rates) {
    if (rate.key == key) return rate.ops_per_sm_per_clock;
  }
  return 0.0;
}

double datasheet_clock_hz(const ComputeCapabilityPeaks& row, const std::string& key) {
  // FP64 on the tensor cores is quoted at the CUDA cores' clock (H100: 67 TFLOPS = 132 x 256 x 1.98 GHz).
  const bool matrix = key.size() > 7 && key.compare(key.size() - 7, 7, "/matrix") == 0 && key.rfind("fp64", 0) != 0;
  return matrix ? row.matrix_clock_hz : row.vector_clock_hz;
}

double theoretical_peak(const ComputeCapabilityPeaks& row, const std::string& key, int sms, double clock_hz) {
  return static_cast<double>(sms) * clock_hz * ops_per_sm_per_clock(row, key);
}

}  // namespace roofline::cuda
