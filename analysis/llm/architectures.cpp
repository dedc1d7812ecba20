// The architectures `roofline llm` models, each with the fields it reads beyond the shared shape, and the
// fields every config may carry that do not change a parameter, byte or FLOP count (tokens, activations,
// RoPE, norms' epsilon, dropout, training losses, logit soft-capping). Anything else is refused by name,
// so a new field that would change the shape (an MLA rank, a layer pattern, a bias) is never silently
// ignored.
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "config_fields.hpp"

namespace roofline::llm::detail {

namespace {

using Reader = void (*)(const Fields&, ModelConfig&);

struct Architecture {
  std::string_view name;
  bool tied_by_default;                 // tie_word_embeddings when absent (the architecture's config default)
  std::vector<std::string_view> fields;  // read by `read` (or checked to be harmless by it)
  Reader read;
};

constexpr std::array<std::string_view, 9> kShared{"architectures", "hidden_size", "num_hidden_layers",
                                                  "num_attention_heads", "num_key_value_heads", "intermediate_size",
                                                  "vocab_size", "head_dim", "tie_word_embeddings"};

// Fields that change no count: tokenizer ids, activation, initialisation, positions and RoPE, norm
// epsilon, dropout, caching, training losses, soft-capping, remote code, the file's provenance.
constexpr std::array<std::string_view, 34> kHarmless{
    "_name_or_path", "model_type", "torch_dtype", "transformers_version", "bos_token_id", "eos_token_id",
    "pad_token_id", "hidden_act", "hidden_activation", "initializer_range", "max_position_embeddings",
    "original_max_position_embeddings", "rms_norm_eps", "rope_theta", "rope_scaling", "use_cache",
    "attention_dropout", "embd_pdrop", "resid_pdrop", "pretraining_tp", "auto_map", "output_router_logits",
    "router_aux_loss_coef", "router_jitter_noise", "norm_topk_prob", "aux_loss_alpha", "seq_aux",
    "attn_logit_softcapping", "final_logit_softcapping", "query_pre_attn_scalar", "cache_implementation",
    "partial_rotary_factor", "rope_interleave", "use_return_dict"};

// Llama: attention_bias puts a bias on q, k, v and o; mlp_bias (on gate, up, down) is not modelled.
void read_llama(const Fields& f, ModelConfig& c) {
  c.qkv_bias = c.o_bias = f.flag("attention_bias", false);
  if (f.flag("mlp_bias", false)) f.fail("'mlp_bias': true is not modelled (biases on gate, up and down projections)");
}

// sliding_window on every layer (Mistral, Mixtral, Phi-3): null or absent is full attention.
void read_window(const Fields& f, ModelConfig& c) {
  c.sliding_window = f.count("sliding_window", kMaxWindow, 0);
  c.local_layers = c.sliding_window > 0 ? c.layers : 0;
}

void read_mistral(const Fields& f, ModelConfig& c) { read_window(f, c); }

void read_mixtral(const Fields& f, ModelConfig& c) {
  read_window(f, c);
  c.moe.experts = f.positive("num_local_experts", kMaxCount);
  c.moe.top_k = f.positive("num_experts_per_tok", kMaxCount);
  c.moe.expert_intermediate = c.intermediate;  // Mixtral's experts are intermediate_size wide
}

// Qwen2 and Qwen3: sliding windows only with use_sliding_window (then not modelled: which layers use it
// changed between releases of transformers).
void read_qwen_window(const Fields& f) {
  if (f.flag("use_sliding_window", false)) {
    f.fail("'use_sliding_window': true is not modelled (which layers use the window depends on max_window_layers)");
  }
}

// Qwen MoE layers: every layer sparse (decoder_sparse_step 1, no mlp_only_layers) is what is modelled.
void read_qwen_moe(const Fields& f, ModelConfig& c) {
  c.moe.experts = f.positive("num_experts", kMaxCount);
  c.moe.top_k = f.positive("num_experts_per_tok", kMaxCount);
  c.moe.expert_intermediate = f.positive("moe_intermediate_size", kMaxWidth);
  if (f.positive("decoder_sparse_step", kMaxCount, 1) != 1) f.fail("'decoder_sparse_step' other than 1 is not modelled");
  if (f.has("mlp_only_layers") && !(f.doc["mlp_only_layers"].is_array() && f.doc["mlp_only_layers"].empty())) {
    f.fail("'mlp_only_layers' other than [] is not modelled");
  }
}

void read_qwen2(const Fields& f, ModelConfig& c) {
  read_qwen_window(f);
  c.qkv_bias = true;  // Qwen2's q, k and v projections always have a bias
}

void read_qwen2_moe(const Fields& f, ModelConfig& c) {
  read_qwen2(f, c);
  read_qwen_moe(f, c);
  c.moe.shared_intermediate = f.count("shared_expert_intermediate_size", kMaxWidth, 0);
  c.moe.shared_gate = c.moe.shared_intermediate > 0;
}

void read_qwen3(const Fields& f, ModelConfig& c) {
  read_qwen_window(f);
  c.qkv_bias = c.o_bias = f.flag("attention_bias", false);
  c.qk_norm = true;
}

void read_qwen3_moe(const Fields& f, ModelConfig& c) {
  read_qwen3(f, c);
  read_qwen_moe(f, c);
}

// Gemma, Phi-3: attention_bias puts a bias on q, k, v and o.
void read_attention_bias(const Fields& f, ModelConfig& c) { c.qkv_bias = c.o_bias = f.flag("attention_bias", false); }

// Gemma-2: four norms per layer (pre/post attention and feed-forward); even layers use the window.
void read_gemma2(const Fields& f, ModelConfig& c) {
  read_attention_bias(f, c);
  c.norms_per_layer = 4;
  if (f.has("sliding_window_size") && f.count("sliding_window_size", kMaxWindow, 0) != f.count("sliding_window", kMaxWindow, 0)) {
    f.fail("'sliding_window_size' differs from 'sliding_window'");
  }
  c.sliding_window = f.count("sliding_window", kMaxWindow, 0);
  c.local_layers = c.sliding_window > 0 ? (c.layers + 1) / 2 : 0;
}

void read_phi3(const Fields& f, ModelConfig& c) {
  read_attention_bias(f, c);
  read_window(f, c);
  c.fused = "qkv_proj, gate_up_proj";
}

// DeepSeek-MoE: n_shared_experts shared experts of moe_intermediate_size, the first first_k_dense_replace
// layers dense; MoE every layer after them (moe_layer_freq 1).
void read_deepseek(const Fields& f, ModelConfig& c) {
  c.qkv_bias = c.o_bias = f.flag("attention_bias", false);
  c.moe.experts = f.positive("n_routed_experts", kMaxCount);
  c.moe.top_k = f.positive("num_experts_per_tok", kMaxCount);
  c.moe.expert_intermediate = f.positive("moe_intermediate_size", kMaxWidth);
  c.moe.shared_intermediate = f.count("n_shared_experts", kMaxCount, 0) * c.moe.expert_intermediate;
  c.moe.dense_layers = f.count("first_k_dense_replace", kMaxCount, 0);
  if (f.positive("moe_layer_freq", kMaxCount, 1) != 1) f.fail("'moe_layer_freq' other than 1 is not modelled");
  if (f.has("scoring_func") && f.doc["scoring_func"] != "softmax") f.fail("'scoring_func' other than softmax is not modelled");
  if (c.moe.dense_layers >= c.layers) f.fail("'first_k_dense_replace' must be below num_hidden_layers");
}

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> table{
      {"LlamaForCausalLM", false, {"attention_bias", "mlp_bias"}, read_llama},
      {"MistralForCausalLM", false, {"sliding_window"}, read_mistral},
      {"MixtralForCausalLM", false, {"sliding_window", "num_local_experts", "num_experts_per_tok"}, read_mixtral},
      {"Qwen2ForCausalLM", false, {"use_sliding_window", "sliding_window", "max_window_layers"}, read_qwen2},
      {"Qwen2MoeForCausalLM", false, {"use_sliding_window", "sliding_window", "max_window_layers", "num_experts",
        "num_experts_per_tok", "moe_intermediate_size", "shared_expert_intermediate_size", "decoder_sparse_step",
        "mlp_only_layers"}, read_qwen2_moe},
      {"Qwen3ForCausalLM", false, {"attention_bias", "use_sliding_window", "sliding_window", "max_window_layers"},
       read_qwen3},
      {"Qwen3MoeForCausalLM", false, {"attention_bias", "use_sliding_window", "sliding_window", "max_window_layers",
        "num_experts", "num_experts_per_tok", "moe_intermediate_size", "decoder_sparse_step", "mlp_only_layers"},
       read_qwen3_moe},
      {"GemmaForCausalLM", true, {"attention_bias"}, read_attention_bias},
      {"Gemma2ForCausalLM", true, {"attention_bias", "sliding_window", "sliding_window_size"}, read_gemma2},
      {"Phi3ForCausalLM", false, {"attention_bias", "sliding_window"}, read_phi3},
      {"DeepseekForCausalLM", false, {"attention_bias", "n_routed_experts", "n_shared_experts", "num_experts_per_tok",
        "moe_intermediate_size", "first_k_dense_replace", "moe_layer_freq", "scoring_func"}, read_deepseek},
  };
  return table;
}

template <class List>
bool listed(const List& list, std::string_view key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

std::string modelled_names() {
  std::string names;
  for (const Architecture& a : architectures()) names += (names.empty() ? "" : ", ") + std::string(a.name);
  return names;
}

}  // namespace

void read_architecture(const Fields& f, const std::string& name, ModelConfig& c) {
  const auto& table = architectures();
  const auto it = std::find_if(table.begin(), table.end(), [&](const Architecture& a) { return a.name == name; });
  if (it == table.end()) f.fail(fmt::format("architecture '{}' is not modelled (modelled: {})", name, modelled_names()));
  for (const auto& item : f.doc.items()) {
    const std::string& key = item.key();
    if (listed(kShared, key) || listed(kHarmless, key) || listed(it->fields, key)) continue;
    if (key == "quantization_config") {
      f.fail("'quantization_config' is not read: give the stored format with --weights (e.g. int4-g128, fp8, q4_k)");
    }
    f.fail(fmt::format("field '{}' is not modelled for {} (it may change the counts); remove it if it does not", key, name));
  }
  c.tied_embeddings = f.flag("tie_word_embeddings", it->tied_by_default);
  it->read(f, c);
  if (c.moe.experts > 0 && c.moe.top_k > c.moe.experts) {
    f.fail(fmt::format("num_experts_per_tok ({}) is above the experts of a layer ({})", c.moe.top_k, c.moe.experts));
  }
}

}  // namespace roofline::llm::detail
