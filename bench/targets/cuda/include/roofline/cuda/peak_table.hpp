// The CUDA target's theoretical-peak table (issue 23): operations per SM per clock for each precision and engine,
// per compute capability (8.0, 8.6, 8.9, 9.0, 10.0), each number with its source. The theoretical peak of a GPU is
// SMs x the SM clock measured under load x this number (peak model "units_clock", target.hpp). Dense figures
// only (no 2:4 sparsity); an FMA counts 2 FLOP, an int8 multiply-add 2 OP. Plain C++, no CUDA: it is tested in
// every CI build, and the device-check probe, built on the GPU machine with nvcc alone, uses it too.
#pragma once

#include <string>
#include <vector>

namespace roofline::cuda {

struct PeakRate {
  std::string key;      // "<precision>/<engine>": "fp32/vector", "bf16/matrix"
  double ops_per_sm_per_clock = 0.0;
  std::string source;   // where the number comes from, with the arithmetic when it is derived
};

struct ComputeCapabilityPeaks {
  int major = 0;
  int minor = 0;
  std::string example;  // the part the figures were taken from: "A100 SXM4"
  std::vector<PeakRate> rates;
  std::vector<std::string> notes;
  // The clocks the datasheet's figures assume (Hz): the CUDA cores' rows and the tensor cores' ("/matrix") rows.
  // On Hopper they differ (1.98 and 1.83 GHz): the datasheet's bf16 989 TFLOP/s is 132 x 4096 x 1.83 GHz.
  double vector_clock_hz = 0.0;
  double matrix_clock_hz = 0.0;
};
// The clock the datasheet figure behind `key` assumes.
double datasheet_clock_hz(const ComputeCapabilityPeaks& row, const std::string& key);

// Every compute capability the table knows, in ascending order.
const std::vector<ComputeCapabilityPeaks>& peak_table();
// The row of compute capability major.minor, or nullptr when the table has none (the theoretical peak is then
// "unknown", said in the target's notes, never guessed from a neighbour).
const ComputeCapabilityPeaks* find_peaks(int major, int minor);
// The rate of one key in a row; 0 when the row has none (e.g. fp8/matrix on 8.0).
double ops_per_sm_per_clock(const ComputeCapabilityPeaks& row, const std::string& key);
// SMs x clock x rate: the theoretical peak in FLOP/s (OP/s for int8).
double theoretical_peak(const ComputeCapabilityPeaks& row, const std::string& key, int sms, double clock_hz);

}  // namespace roofline::cuda
