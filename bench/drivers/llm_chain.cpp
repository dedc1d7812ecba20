// The llm suite's plan, its backends, its entries read back and the memory roof of the moment: see
// llm_chain.hpp. The suite itself (preparing the problems, the specs, running them) is suite_llm.cpp.
#include "roofline/drivers/llm_chain.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "roofline/drivers/llm_quant.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/harness/stream_probe.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline {
using nlohmann::json;

namespace {

bool is_weights_op(const llm::Op& op) { return op.weight_bytes > 0.0; }

std::string step_id(const llm::MeasuredStep& s) {
  return s.phase == llm::Phase::decode ? fmt::format("decode-b{}", s.batch) : fmt::format("prefill-p{}", s.prompt);
}

bool runs(const GemmBackend& b, Precision p) {
  const std::vector<Precision> ps = b.precisions();
  return std::find(ps.begin(), ps.end(), p) != ps.end();
}

std::string built_backends() {
  std::string names;
  for (const GemmBackend* b : gemm_backends()) names += (names.empty() ? "" : ", ") + std::string(b->name());
  return names.empty() ? "none" : names;
}

double number_or(const json& e, const std::string& key, double fallback) {
  return e.contains(key) && e[key].is_number() ? e[key].get<double>() : fallback;
}

}  // namespace

LlmPlan plan_llm(const LlmSuiteInput& input) {
  LlmPlan plan;
  const llm::LlmRequest& r = input.request;
  const bool quantized = llm::quantized_chain(r.precisions);
  for (std::int64_t b : r.batches) {
    if (quantized && b > kQuantChainMaxBatch) {
      plan.skipped.push_back(fmt::format("decode at batch {} not measured: the quantized chain runs the dequant-dot GEMVs "
                                         "up to batch {} (llama.cpp's CPU path switches to tiled GEMMs above it)", b,
                                         kQuantChainMaxBatch));
      continue;
    }
    LlmStepPlan s;
    s.step.phase = llm::Phase::decode;
    s.step.batch = b;
    s.step.context = r.context;
    plan.steps.push_back(s);
    plan.max_tokens = std::max(plan.max_tokens, b);
  }
  for (std::int64_t p : r.prompts) {
    if (quantized) {
      plan.skipped.push_back(fmt::format("prefill of {} tokens not measured: the quantized chain times decode GEMVs only "
                                         "(a runtime prefills with tiled GEMMs)", p));
      continue;
    }
    LlmStepPlan s;
    s.step.phase = llm::Phase::prefill;
    s.step.prompt = p;
    plan.steps.push_back(s);
    plan.max_tokens = std::max(plan.max_tokens, p);
  }
  for (LlmStepPlan& s : plan.steps) {
    s.id = step_id(s.step);
    s.ops = llm::chain_ops(input.config, r.precisions, s.step);
    for (const llm::Op& op : s.ops) {
      if (!is_weights_op(op)) continue;
      auto it = std::find_if(plan.weight_ops.begin(), plan.weight_ops.end(), [&](const llm::Op& w) { return w.name == op.name; });
      if (it == plan.weight_ops.end()) {
        plan.weight_ops.push_back(op);
      } else if (op.calls.front().count > it->calls.front().count) {
        *it = op;
      }
    }
  }
  return plan;
}

std::string chain_backend(Precision p, const std::vector<std::string>& allowed) {
  for (const std::string& name : allowed) {
    if (find_gemm_backend(name) == nullptr) {
      throw InputError(fmt::format("--backends: '{}' is not a GEMM backend of this binary (built: {})", name, built_backends()));
    }
  }
  const std::vector<std::string> candidates =
      !allowed.empty() ? allowed : p == Precision::fp32 ? std::vector<std::string>{"eigen"} : std::vector<std::string>{"onednn"};
  // fp64 and fp16 are not LLM weights or KV formats any kernel here runs as a layer.
  if (p != Precision::fp64 && p != Precision::fp16) {
    for (const std::string& name : candidates) {
      const GemmBackend* b = find_gemm_backend(name);
      if (b != nullptr && runs(*b, p)) return name;
    }
  }
  const std::string names = fmt::format("{}", fmt::join(candidates, ", "));
  if (allowed.empty() && find_gemm_backend(candidates.front()) == nullptr) {
    throw InputError(fmt::format("--measure: {} runs on the {} backend, which this binary was built without ({} missing at "
                                 "configure time; --backends chooses another)", to_string(p), names,
                                 names == "onednn" ? "libdnnl-dev" : "its library"));
  }
  throw InputError(fmt::format("--measure: no backend of {} runs {} here (built: {})", names, to_string(p), built_backends()));
}

LlmProfile llm_profile(Profile profile) {
  // quick: 5 repetitions, the fewest with which compare's U test can reach p < 0.05 (as the gemm suite);
  // full: more and longer, for a steadier median.
  return profile == Profile::full ? LlmProfile{10, 0.5} : LlmProfile{5, 0.1};
}

std::vector<llm::MeasuredStep> measured_steps(const std::vector<json>& entries, int threads) {
  std::vector<llm::MeasuredStep> steps;
  std::map<std::string, std::size_t> index;
  for (const json& e : entries) {
    if (!e.is_object() || !e.contains("labels") || !e["labels"].is_object()) continue;
    const json& l = e["labels"];
    if (l.value("suite", "") != "llm" || l.value("threads", 0) != threads || e.value("error_occurred", false)) continue;
    const std::string run_type = e.value("run_type", "iteration");
    const std::string aggregate = e.value("aggregate_name", "");
    const std::string id = l.value("step", "");
    auto [it, inserted] = index.try_emplace(id, steps.size());
    if (inserted) {
      llm::MeasuredStep s;
      s.phase = l.value("phase", "") == "prefill" ? llm::Phase::prefill : llm::Phase::decode;
      s.batch = l.value("batch", 1);
      s.context = l.value("context", 0);
      s.prompt = l.value("prompt_tokens", 0);
      s.working_set_bytes = l.value("working_set_bytes", 0.0);
      steps.push_back(s);
    }
    llm::MeasuredStep& s = steps[it->second];
    if (run_type == "iteration") ++s.repetitions;
    if (run_type != "aggregate" || (aggregate != "median" && aggregate != "min")) continue;
    const bool median = aggregate == "median";
    (median ? s.layer_seconds : s.layer_best_seconds) = number_or(e, "layer_seconds", 0.0);
    (median ? s.step_seconds : s.step_best_seconds) = number_or(e, "step_seconds", 0.0);
    for (const auto& [key, value] : e.items()) {
      const std::string suffix = "_seconds";
      if (key == "layer_seconds" || key == "step_seconds" || !value.is_number() || key.size() <= suffix.size() ||
          key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0) {
        continue;
      }
      (median ? s.op_seconds : s.op_best_seconds)[key.substr(0, key.size() - suffix.size())] = value.get<double>();
    }
  }
  // A step whose repetitions all failed has no aggregates: it was not measured.
  steps.erase(std::remove_if(steps.begin(), steps.end(), [](const llm::MeasuredStep& s) { return s.op_seconds.empty(); }),
              steps.end());
  return steps;
}

double measure_memory_roof(int threads, const std::vector<int>& pus, const IsaFeatures& features, std::uint64_t bytes,
                           int passes) {
  struct FreeDeleter {
    void operator()(double* p) const { free_large(p); }
  };
  if (!pus.empty()) pin_openmp_threads(threads, pus);
  // A whole number of the read kernel's steps per thread, so no tail runs (stream.hpp).
  const std::size_t unit = static_cast<std::size_t>(threads) * stream_step_elements(StreamKernel::read, features);
  const std::size_t n = std::max<std::size_t>(1, bytes / sizeof(double) / unit) * unit;
  // Not touched before stream_init: the pinned team's first touch places the pages. On huge pages, as the
  // results file's DRAM roof and the chain's own operands (roofline/common/huge_pages.hpp): the roof of the moment
  // must differ from the file's by the memory's state only, never by the page size.
  std::unique_ptr<double, FreeDeleter> a(static_cast<double*>(allocate_large(n * sizeof(double))));
  if (!a) return 0.0;  // no memory for it now: said by a 0
  const StreamArrays arrays{a.get(), nullptr, nullptr, n};
  stream_init(StreamKernel::read, arrays, threads);
  // Best of `passes` samples of one pass each.
  const StreamProbeSampling sampling{.passes_per_sample = 1, .min_samples = passes, .max_samples = passes};
  return probe_stream(StreamKernel::read, arrays, threads, sampling, features, "llm --measure: memory roof")
      .best_bytes_per_second;
}

}  // namespace roofline
