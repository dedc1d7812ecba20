// `roofline llm --measure` (cmd_llm_measure.cpp): the llm suite run on this machine as a target of the harness's
// measure() (roofline/drivers/llm_target.hpp), with the run's binding, the environment guard and the context of every
// `run` file, written to a results file (labels.suite "llm", key figures llm/...: analysis/model/key_figures.cpp)
// that compare and history gate, and set beside the estimate.
#pragma once

#include <filesystem>
#include <string>

#include "commands.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/llm/answer.hpp"
#include "roofline/llm/config.hpp"
#include "roofline/llm/roofs.hpp"
#include "roofline/llm/summary.hpp"

namespace roofline::cli {

struct LlmMeasureArgs {
  std::string out;                    // the results file (default: results/llm/<model>_<host>_<date>_<revision>.json)
  std::string profile = "quick";
  std::string bind = "compact";
  std::string backends;               // --backends: the first that runs each precision (default eigen fp32, onednn)
  std::string estimate_from;          // the results file whose ceilings give the estimate (recorded in the context)
  bool force = false;
};

// What the measurement will do, every flag and the destination checked before anything is measured.
struct LlmMeasurePlan {
  MachineFacts machine;
  RunConfig config;  // thread_counts {the estimate's threads}, suites {"llm"}
  std::filesystem::path out;
  Overwrite overwrite = Overwrite::no;
  std::string estimate_from;
};
LlmMeasurePlan plan_llm_measure(const LlmMeasureArgs& args, const llm::ModelConfig& config, const llm::LlmRequest& request,
                                int threads);

// Measures (measure_and_derive over the llm target), writes the results file and returns the comparison (the answer's measured, with the run's facts).
// Benchmarks that failed validation are named on stderr and set state.exit_code to 1 (the file keeps their
// entries, marked).
llm::MeasuredComparison measure_llm(const LlmMeasurePlan& plan, const llm::ModelConfig& config,
                                    const llm::LlmRequest& request, const llm::Roofs& roofs, CliState& state);

// `llm --measured FILE`: the comparison of a results file `llm --measure` wrote (read back, nothing measured)
// against the estimate of `roofs`. Throws InputError for a file that is not one, or measured another model, weights
// format or KV precision, or has no step at roofs.threads.
llm::MeasuredComparison read_measured_llm(const std::filesystem::path& file, const llm::ModelConfig& config,
                                          const llm::LlmRequest& request, const llm::Roofs& roofs);

}  // namespace roofline::cli
