// The oneDNN backend: the matmul primitive in fp32, bf16 x bf16 -> fp32 and u8 x s8 -> s32. oneDNN's
// matmul computes dst(N x M) = src(N x K) * weights(K x M), i.e. C^T = B^T A^T, which is our shared
// layout as is: B column-major is src row-major, A row-major is weights in format "ba", C column-major
// is dst row-major. The weights are reordered once into the layout the primitive asks for (format
// "any"), outside the timed call, and that reorder's time is reported. Threads: this oneDNN is built on
// the OpenMP runtime (DNNL_CPU_RUNTIME), which sizes primitives from omp_get_max_threads() at creation
// and execution, so both happen inside an OmpThreadsScope of the request's thread count.
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>

#include <oneapi/dnnl/dnnl.hpp>

#include "gemm_internal.hpp"

namespace roofline::gemm_detail {
namespace {

using dnnl::memory;
using dt = memory::data_type;
using tag = memory::format_tag;

struct DnnlTypes {
  dt a, b, c;
};
DnnlTypes dnnl_types(Precision p) {
  switch (p) {
    case Precision::fp32: return {dt::f32, dt::f32, dt::f32};
    case Precision::bf16: return {dt::bf16, dt::bf16, dt::f32};
    case Precision::int8: return {dt::s8, dt::u8, dt::s32};
    default: break;
  }
  throw GemmUnsupported("onednn: precision " + std::string(to_string(p)) + " is not run (fp32, bf16, int8)");
}

std::string isa_name(dnnl::cpu_isa isa) {
  switch (isa) {
    case dnnl::cpu_isa::sse41: return "sse41";
    case dnnl::cpu_isa::avx: return "avx";
    case dnnl::cpu_isa::avx2: return "avx2";
    case dnnl::cpu_isa::avx2_vnni: return "avx2_vnni";
    case dnnl::cpu_isa::avx512_core: return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx: return "avx512_core_amx";
    default: return "other";
  }
}

// The cap --max-isa implies for oneDNN: none at amx (the top level), AVX512_CORE_BF16 at avx512 (everything
// AVX-512 but the AMX kernels, so that two runs show what AMX buys), and the matching level below.
std::optional<dnnl::cpu_isa> onednn_isa_cap(Isa max_isa) {
  if (isa_rank(max_isa) >= isa_rank(Isa::amx)) return std::nullopt;
  if (isa_rank(max_isa) >= isa_rank(Isa::avx512)) return dnnl::cpu_isa::avx512_core_bf16;
  if (max_isa == Isa::avx_vnni) return dnnl::cpu_isa::avx2_vnni;
  return isa_rank(max_isa) >= isa_rank(Isa::avx2) ? dnnl::cpu_isa::avx2 : dnnl::cpu_isa::sse41;
}

// Honours --max-isa: oneDNN's ISA cap can only be set before its first JIT kernel, once per process.
void apply_isa_cap(const IsaFeatures& features) {
  static std::once_flag once;
  std::call_once(once, [&] {
    const std::optional<dnnl::cpu_isa> cap = onednn_isa_cap(features.max_isa);
    if (!cap) return;
    try {
      dnnl::set_max_cpu_isa(*cap);
    } catch (const dnnl::error&) {
      // Already fixed by an earlier primitive or ONEDNN_MAX_CPU_ISA: library_facts() reports the ISA in force.
    }
  });
}

class OnednnProblem final : public GemmProblem {
 public:
  OnednnProblem(const GemmRequest& request, std::shared_ptr<GemmOperandSet> operands)
      : buffers_(request, std::move(operands)), types_(dnnl_types(request.precision)),
        engine_(dnnl::engine::kind::cpu, 0),
        stream_(engine_),
        weights_plain_({{request.k, request.m}, types_.a, tag::ba}, engine_, buffers_.a<void>()) {}

  void select_batch(std::int64_t n) override {
    const GemmRequest& r = buffers_.request();
    if (n < 1 || n > r.max_n) throw std::out_of_range("GEMM batch outside 1..max_n");
    n_ = n;
    if (auto it = batches_.find(n); it != batches_.end()) {
      current_ = &it->second;
      return;
    }
    OmpThreadsScope threads(r.threads);
    const memory::desc src_md({n, r.k}, types_.b, tag::ab);
    const memory::desc weights_md({r.k, r.m}, types_.a, tag::any);
    const memory::desc dst_md({n, r.m}, types_.c, tag::ab);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // allocated here, not in the timed call
    const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(src_md, weights_md, dst_md), attr, engine_, true);
    if (!pd) {
      throw GemmUnsupported("onednn: no matmul implementation for " + std::string(to_string(r.precision)) + " here");
    }
    Batch b;
    b.implementation = pd.impl_info_str();
    // The reference implementation would take hours at real shapes: not a measurement of this machine.
    if (b.implementation.rfind("ref", 0) == 0) {
      throw GemmUnsupported("onednn: only the reference implementation (" + b.implementation + ") runs " +
                            std::string(to_string(r.precision)) + " matmul on this CPU");
    }
    b.primitive = dnnl::matmul(pd);
    b.src = memory(src_md, engine_, buffers_.b<void>());
    b.dst = memory(dst_md, engine_, buffers_.c<void>());
    b.scratchpad = memory(pd.scratchpad_desc(), engine_);
    const memory& weights = packed_weights(pd.weights_desc());
    b.args = {{DNNL_ARG_SRC, b.src.get()},
              {DNNL_ARG_WEIGHTS, weights.get()},
              {DNNL_ARG_DST, b.dst.get()},
              {DNNL_ARG_SCRATCHPAD, b.scratchpad.get()}};
    current_ = &batches_.emplace(n, std::move(b)).first->second;
  }

  void run() override {
    OmpThreadsScope threads(buffers_.request().threads);
    // The C API with arguments built in select_batch: the C++ wrapper would build a vector per call.
    dnnl::error::wrap_c_api(dnnl_primitive_execute(current_->primitive.get(), stream_.get(),
                                                   static_cast<int>(current_->args.size()), current_->args.data()),
                            "onednn: matmul execution failed");
    dnnl::error::wrap_c_api(dnnl_stream_wait(stream_.get()), "onednn: stream wait failed");
  }

  [[nodiscard]] GemmCheck validate() const override { return buffers_.check(n_); }
  [[nodiscard]] std::string implementation() const override { return current_ ? current_->implementation : ""; }
  [[nodiscard]] double pack_seconds() const override { return pack_seconds_; }
  GemmOperands operands() override { return buffers_.operands(n_); }

 private:
  struct Batch {
    dnnl::matmul primitive;
    memory src, dst, scratchpad;
    std::vector<dnnl_exec_arg_t> args;
    std::string implementation;
  };

  // The weights in the layout `desc`: A itself when that is its plain layout, else a reorder of A made
  // once per layout (timed into pack_seconds_).
  const memory& packed_weights(const memory::desc& desc) {
    if (desc == weights_plain_.get_desc()) return weights_plain_;
    for (const auto& [d, m] : packed_) {
      if (d == desc) return m;
    }
    // Its storage from the operands' pool, not oneDNN's malloc: memory the process already touched (a fresh guest
    // page's first touch ran at 0.5 GB/s, most of the 0.35 s each reorder of a 128 MiB A took in the quick profile,
    // issue 46), and on 2 MiB pages like A itself, the pages of the DRAM roof the GEMV is placed against.
    packed_storage_.push_back(GemmBuffers::allocate(static_cast<double>(desc.get_size())));
    memory packed(desc, engine_, packed_storage_.back().get());
    const auto start = std::chrono::steady_clock::now();
    dnnl::reorder(weights_plain_, packed).execute(stream_, weights_plain_, packed);
    stream_.wait();
    pack_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    packed_.emplace_back(desc, packed);
    return packed_.back().second;
  }

  GemmBuffers buffers_;
  DnnlTypes types_;
  dnnl::engine engine_;
  dnnl::stream stream_;
  memory weights_plain_;
  std::vector<GemmBuffers::Block> packed_storage_;  // declared before packed_: outlives the memories over it
  std::vector<std::pair<memory::desc, memory>> packed_;
  std::map<std::int64_t, Batch> batches_;
  Batch* current_ = nullptr;
  std::int64_t n_ = 1;
  double pack_seconds_ = 0.0;
};

class OnednnBackend final : public GemmBackend {
 public:
  [[nodiscard]] std::string_view name() const override { return "onednn"; }
  // Pre-packed weights make batch 1024 short for fp32 and int8; bf16 runs at half the fp32 rate on some
  // CPUs (vdpbf16ps), so quick stops it at 256, already past its ridge.
  [[nodiscard]] GemmQuickPlan quick_plan() const override { return {{}, false, 1024, {{Precision::bf16, 256}}}; }
  [[nodiscard]] std::vector<Precision> precisions() const override {
    return {Precision::fp32, Precision::bf16, Precision::int8};
  }
  [[nodiscard]] std::unique_ptr<GemmProblem> prepare(const GemmRequest& request,
                                                     std::shared_ptr<GemmOperandSet> operands) const override {
    dnnl_types(request.precision);  // throws GemmUnsupported for other precisions
    apply_isa_cap(request.features);
    auto p = std::make_unique<OnednnProblem>(request, std::move(operands));
    p->select_batch(1);
    return p;
  }
  [[nodiscard]] double footprint_bytes(const GemmRequest& request) const override {
    // A once more, packed (blocked layouts pad K and M up to their block sizes: allow 1/8 more).
    const double m = static_cast<double>(request.m), k = static_cast<double>(request.k);
    return gemm_operand_footprint(request) + 1.125 * m * k * gemm_operand_bytes(request.precision).a;
  }
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> library_facts(
      const IsaFeatures& features) const override {
    apply_isa_cap(features);
    const dnnl_version_t* v = dnnl_version();
    std::string runtime = v->cpu_runtime == DNNL_RUNTIME_OMP    ? "OpenMP"
                          : v->cpu_runtime == DNNL_RUNTIME_SEQ  ? "sequential"
                          : v->cpu_runtime == DNNL_RUNTIME_TBB  ? "TBB"
                                                                : "other (" + std::to_string(v->cpu_runtime) + ")";
    return {{"version", std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch)},
            {"git_hash", v->hash ? v->hash : ""},
            {"cpu_runtime", runtime},
            {"effective_isa", isa_name(dnnl::get_effective_cpu_isa())},
            {"isa_cap", onednn_isa_cap(features.max_isa) ? isa_name(*onednn_isa_cap(features.max_isa)) + " (--max-isa " +
                                                             std::string(to_string(features.max_isa)) + ")"
                                                       : "none"}};
  }
  [[nodiscard]] std::vector<std::string> environment() const override { return {"ONEDNN_MAX_CPU_ISA"}; }
};

}  // namespace

const GemmBackend& onednn_backend() {
  static const OnednnBackend backend;
  return backend;
}

}  // namespace roofline::gemm_detail
