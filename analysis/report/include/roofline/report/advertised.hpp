// Advertised vs measured: sets a spec's datasheet figures beside the run's theoretical peak at the measured
// clock, its measured ceilings and its best GEMM, with the ratios (best GEMM over advertised is the
// utilisation a user gets, as MFU is defined) and a one-line verdict per row.
#pragma once

#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"
#include "roofline/report/spec.hpp"

namespace roofline {

struct AdvertisedRow {
  std::string what;          // a precision ("fp32") or "memory bandwidth"
  std::string unit;          // FLOP/s, OP/s or B/s
  std::string stated;        // the spec's text, e.g. "3958 TOPS"
  bool sparse = false;
  double advertised = 0.0;   // the spec's figure, scaled to the cores measured for cpu compute rows
  double dense = 0.0;        // advertised without 2:4 sparsity (half when sparse)
  double theoretical = 0.0;  // the run's theoretical peak at the measured clock (0: none)
  double measured = 0.0;     // the run's measured ceiling (0: not measured)
  double best_gemm = 0.0;    // the run's best GEMV/GEMM (0: none)
  bool comparable = true;    // false when the spec describes another machine
  std::string verdict;       // one line

  // measured / advertised and best GEMM / advertised; 0 when not comparable or not measured.
  [[nodiscard]] double measured_ratio() const;
  [[nodiscard]] double gemm_ratio() const;
};

struct AdvertisedComparison {
  std::string spec_name;
  std::string spec_file;
  std::string target;  // the target compared: the host CPU ("cpu") for a cpu spec, the one an accelerator spec names
  bool host = true;    // whether that is the file's host CPU (the report's first target)
  std::string basis;   // one sentence: what the spec covers and how it was scaled to this run
  int threads = 0;     // thread count compared
  double scale = 1.0;  // factor applied to advertised compute figures
  bool comparable = true;
  std::vector<AdvertisedRow> rows;
  std::vector<std::string> notes;  // the spec's own notes
};

// Compares a results document with a validated spec: a cpu spec with the host CPU's part of the file (its facts
// and ceilings, as before targets), an accelerator spec with the measured target whose name's words are all in the
// spec's name ("NVIDIA H200" and "NVIDIA H200 SXM"), on that target's ceilings, clock and main memory; not comparable,
// said, when no target is one it names. Never throws for missing data.
AdvertisedComparison compare_to_spec(const ResultsDocument& results, const Spec& spec);

}  // namespace roofline
