// Timing one transformer layer as a chain of GEMMs: see llm_chain.hpp. Setup (allocation, first-touch
// fill, weight packing, primitive creation) happens before the timed passes; each pass times every
// operation with the steady clock around its calls, and the layer is the sum of one pass's operations.
#include "roofline/bench/llm_chain.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/huge_pages.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/bench/pinning.hpp"
#include "roofline/kernels/gemm.hpp"
#include "roofline/kernels/stream.hpp"

namespace roofline {

namespace {

using Clock = std::chrono::steady_clock;

struct FreeDeleter {
  void operator()(double* p) const { std::free(p); }
};

struct Instance {
  std::unique_ptr<GemmProblem> problem;
  std::int64_t n = 1;
};

// One operation's prepared problems (all instances of all its calls).
struct OpChain {
  std::string name;
  std::vector<Instance> instances;
  std::size_t active = 0;  // instances this step runs (routed experts: the experts it touches)
  double weight = 1.0;     // its share of the average layer (operations only some layers have)
};

const GemmBackend& backend_for(Precision p) {
  const GemmBackend* b = find_gemm_backend(chain_backend(p));
  return *b;
}

GemmRequest request_for(const llm::GemmCall& call, std::int64_t max_n, Precision p, const ChainRequest& r) {
  GemmRequest g;
  g.m = call.m;
  g.k = call.k;
  g.max_n = max_n;
  g.precision = p;
  g.threads = r.threads;
  g.features = r.features;
  return g;
}

// Prepares every instance of `op` unless they would take the budget past `budget`; returns false then.
bool prepare_op(const llm::Op& op, std::int64_t max_n, const ChainRequest& r, double& used, OpChain& out) {
  const GemmBackend& backend = backend_for(op.precision);
  double need = 0.0;
  for (const llm::GemmCall& call : op.calls) {
    need += static_cast<double>(call.count) * backend.footprint_bytes(request_for(call, std::max(max_n, call.n), op.precision, r));
  }
  if (used + need > r.budget_bytes) return false;
  used += need;
  out.name = op.name;
  for (const llm::GemmCall& call : op.calls) {
    for (std::int64_t i = 0; i < call.count; ++i) {
      out.instances.push_back({backend.prepare(request_for(call, std::max(max_n, call.n), op.precision, r)), call.n});
    }
  }
  out.active = out.instances.size();
  return true;
}

bool is_weights_op(const llm::Op& op) { return op.weight_bytes > 0.0; }

// Times the prepared chain for one step: warm-up pass, then passes until min_seconds (at least 3).
void time_step(std::vector<OpChain*>& chain, const ChainRequest& r, llm::MeasuredStep& step, bool complete) {
  for (OpChain* op : chain) {
    for (std::size_t k = 0; k < op->active; ++k) op->instances[k].problem->run();  // warm-up: page mapping, JIT caches
  }
  std::vector<std::vector<double>> op_times(chain.size());
  std::vector<double> layer;
  const auto start = Clock::now();
  while (layer.size() < 3 || (std::chrono::duration<double>(Clock::now() - start).count() < r.min_seconds && layer.size() < 50)) {
    double total = 0.0;
    for (std::size_t i = 0; i < chain.size(); ++i) {
      const auto t0 = Clock::now();
      for (std::size_t k = 0; k < chain[i]->active; ++k) chain[i]->instances[k].problem->run();
      const double t = std::chrono::duration<double>(Clock::now() - t0).count();
      op_times[i].push_back(t);
      total += chain[i]->weight * t;
    }
    layer.push_back(total);
  }
  for (OpChain* op : chain) {
    for (std::size_t k = 0; k < op->active; ++k) {
      const GemmCheck check = op->instances[k].problem->validate();
      if (!check.ok) throw std::runtime_error(fmt::format("llm --measure: wrong product in {}: {}", op->name, check.message));
    }
  }
  for (std::size_t i = 0; i < chain.size(); ++i) {
    step.op_seconds[chain[i]->name] = median(op_times[i]);
    step.op_best_seconds[chain[i]->name] = min_of(op_times[i]);
  }
  step.layer_seconds = complete ? median(layer) : 0.0;
  step.layer_best_seconds = complete ? min_of(layer) : 0.0;
  step.repetitions = static_cast<int>(layer.size());
  for (OpChain* op : chain) {
    if (!op->instances.empty()) step.implementations.push_back(op->name + ": " + op->instances.front().problem->implementation());
  }
}

// Each weights operation as the step touching the most of its weights runs it (routed experts: the most
// experts), so that one preparation serves every step.
std::vector<llm::Op> widest_weight_ops(const ChainRequest& r, const std::vector<llm::MeasuredStep>& steps) {
  std::vector<llm::Op> widest;
  for (const llm::MeasuredStep& step : steps) {
    for (const llm::Op& op : llm::chain_ops(r.config, r.request.precisions, step)) {
      if (!is_weights_op(op)) continue;
      auto it = std::find_if(widest.begin(), widest.end(), [&](const llm::Op& w) { return w.name == op.name; });
      if (it == widest.end()) {
        widest.push_back(op);
      } else if (op.calls.front().count > it->calls.front().count) {
        *it = op;
      }
    }
  }
  return widest;
}

double layer_share(const llm::Op& op, std::int64_t layers) {
  return llm::op_times(op, layers) / static_cast<double>(layers);
}

std::vector<llm::MeasuredStep> planned_steps(const ChainRequest& r) {
  std::vector<llm::MeasuredStep> steps;
  for (std::int64_t b : r.request.batches) {
    llm::MeasuredStep s;
    s.phase = llm::Phase::decode;
    s.batch = b;
    s.context = r.request.context;
    steps.push_back(s);
  }
  for (std::int64_t p : r.request.prompts) {
    llm::MeasuredStep s;
    s.phase = llm::Phase::prefill;
    s.prompt = p;
    steps.push_back(s);
  }
  return steps;
}

}  // namespace

double measure_memory_roof(const ChainRequest& r, std::uint64_t bytes, int passes) {
  if (!r.pus.empty()) pin_openmp_threads(r.threads, r.pus);
  // A whole number of the read kernel's steps per thread, so no tail runs (stream.hpp).
  const std::size_t unit = static_cast<std::size_t>(r.threads) * stream_step_elements(StreamKernel::read, r.features);
  const std::size_t n = std::max<std::size_t>(1, bytes / sizeof(double) / unit) * unit;
  // Not touched before stream_init: the pinned team's first touch places the pages. On huge pages, as the
  // results file's DRAM roof and the chain's own operands (common/huge_pages.hpp): the roof of the moment
  // must differ from the file's by the memory's state only, never by the page size.
  std::unique_ptr<double, FreeDeleter> a(static_cast<double*>(allocate_large(n * sizeof(double))));
  if (!a) return 0.0;  // no memory for it now: said by a 0
  const StreamArrays arrays{a.get(), nullptr, nullptr, n};
  stream_init(StreamKernel::read, arrays, r.threads);
  double best = 0.0, sum = 0.0;
  for (int i = 0; i < passes; ++i) {
    const auto t0 = Clock::now();
    sum = run_stream_kernel(StreamKernel::read, arrays, r.threads, 1, r.features);
    const double t = std::chrono::duration<double>(Clock::now() - t0).count();
    if (t > 0.0) best = std::max(best, static_cast<double>(stream_bytes_per_pass(StreamKernel::read, n)) / t);
  }
  const StreamCheck check = validate_stream(StreamKernel::read, arrays, sum, r.threads);
  if (!check.ok) throw std::runtime_error("llm --measure: memory roof: " + check.message);
  return best;
}

std::string chain_backend(Precision p) {
  const std::string name = p == Precision::fp32 ? "eigen" : "onednn";
  const GemmBackend* b = find_gemm_backend(name);
  const std::vector<Precision> runs = b != nullptr ? b->precisions() : std::vector<Precision>{};
  if (p == Precision::fp64 || p == Precision::fp16 || std::find(runs.begin(), runs.end(), p) == runs.end()) {
    throw InputError(fmt::format("--measure: {} runs on the {} backend, which this binary {}", to_string(p), name,
                                 b == nullptr ? "was built without (libdnnl-dev missing at configure time)" : "cannot run"));
  }
  return name;
}

std::vector<llm::MeasuredStep> measure_chain(const ChainRequest& r) {
  chain_backend(r.request.precisions.weights);
  chain_backend(r.request.precisions.kv);
  if (!r.pus.empty()) pin_openmp_threads(r.threads, r.pus);
  std::int64_t max_tokens = 1;
  for (std::int64_t b : r.request.batches) max_tokens = std::max(max_tokens, b);
  for (std::int64_t p : r.request.prompts) max_tokens = std::max(max_tokens, p);

  std::vector<llm::MeasuredStep> steps = planned_steps(r);
  // The layer's weights, prepared once for every step (the largest batch or prompt as max_n).
  double used = 0.0;
  std::vector<std::unique_ptr<OpChain>> weights;
  std::string weights_note;
  for (const llm::Op& op : widest_weight_ops(r, steps)) {
    auto chain = std::make_unique<OpChain>();
    if (!prepare_op(op, max_tokens, r, used, *chain)) {
      weights_note = fmt::format("the layer does not fit in the memory budget ({}): {} and later projections not measured",
                                 fmt::format("{:.3g} GB", r.budget_bytes / 1e9), op.name);
      break;
    }
    weights.push_back(std::move(chain));
  }
  for (llm::MeasuredStep& step : steps) {
    if (r.progress != nullptr) {
      r.progress->phase("llm");
      r.progress->update(step.phase == llm::Phase::decode ? fmt::format("decode batch {} context {}", step.batch, step.context)
                                                          : fmt::format("prefill {} tokens", step.prompt));
    }
    std::vector<OpChain*> chain;
    std::vector<std::unique_ptr<OpChain>> attention;  // this step's KV cache, released after it
    double step_used = used;
    bool complete = weights_note.empty();
    step.note = weights_note;
    for (const llm::Op& op : llm::chain_ops(r.config, r.request.precisions, step)) {
      if (is_weights_op(op)) {
        for (auto& w : weights) {
          if (w->name != op.name) continue;
          const llm::GemmCall& call = op.calls.front();  // routed experts: `count` experts of n tokens each
          w->active = std::min(w->instances.size(), static_cast<std::size_t>(call.count));
          w->weight = layer_share(op, r.config.layers);
          for (std::size_t k = 0; k < w->active; ++k) w->instances[k].problem->select_batch(call.n);
          chain.push_back(w.get());
        }
        continue;
      }
      auto a = std::make_unique<OpChain>();
      if (!prepare_op(op, 0, r, step_used, *a)) {
        complete = false;
        step.note += fmt::format("{}{} not measured: its KV cache does not fit in the memory budget ({:.3g} GB)",
                                 step.note.empty() ? "" : "; ", op.name, r.budget_bytes / 1e9);
        continue;
      }
      for (Instance& in : a->instances) in.problem->select_batch(in.n);
      a->weight = layer_share(op, r.config.layers);
      chain.push_back(a.get());
      attention.push_back(std::move(a));
    }
    time_step(chain, r, step, complete);
  }
  return steps;
}

}  // namespace roofline
