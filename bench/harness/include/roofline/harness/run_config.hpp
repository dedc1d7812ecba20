// The parameters of one `roofline run`, from CLI flags, then environment variables, then defaults.
// Suites read what they need from here; nothing needs a rebuild to change an experiment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "roofline/facts/machine.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {

// gate: the CI gate's paired rounds (scripts/ci-regression): every key figure once per round, as cheaply as the
// figure allows (profile.cpp); otherwise planned as quick.
enum class Profile { quick, full, gate };

std::string_view to_string(Profile p);

struct RunConfig {
  Profile profile = Profile::quick;
  // Thread counts to measure at; always sorted, unique, each in [1, machine.pus]. Default {1, all cores}.
  std::vector<int> thread_counts;
  BindPolicy bind = BindPolicy::compact;
  // ISA cap (--max-isa / ROOFLINE_MAX_ISA); `features` below already has it applied.
  Isa max_isa = Isa::amx;
  IsaFeatures features;
  // Memory the run may use for working sets, in bytes: MemAvailable (and cgroup limit) with headroom.
  std::uint64_t memory_budget_bytes = 0;
  // Suites to run (--suites): bandwidth, compute, gemm. Empty means all.
  std::vector<std::string> suites;
  // Bandwidth sweep override (--sizes), bytes of working set; empty means the profile's sweep.
  std::vector<std::uint64_t> sizes;
  // GEMM overrides (--gemm-shape M,K, --batches, --backends); empty/zero means the profile's defaults.
  std::int64_t gemm_m = 0;
  std::int64_t gemm_k = 0;
  std::vector<int> batches;
  std::vector<std::string> backends;
  bool quiet = false;

  [[nodiscard]] bool wants_suite(const std::string& name) const;
  [[nodiscard]] int max_threads() const { return thread_counts.empty() ? 1 : thread_counts.back(); }
};

// Parsers for the run flags, pure so they can be tested. Each throws InputError naming the flag and what
// is allowed.
Profile parse_profile(const std::string& text);
// "1,2" or "all" -> sorted unique counts in [1, max_threads].
std::vector<int> parse_thread_list(const std::string& text, int max_threads);
// "64KiB,1MiB,256M" -> byte counts, each > 0 and <= budget.
std::vector<std::uint64_t> parse_size_list(const std::string& text, std::uint64_t budget_bytes);
// "8192,4096" -> {M, K}, both positive integers.
std::pair<std::int64_t, std::int64_t> parse_gemm_shape(const std::string& text);
// A comma-separated list of positive integers up to `max`, sorted, without repeats; errors name `flag`.
std::vector<int> parse_positive_list(const std::string& text, const std::string& flag, std::int64_t max);
// "1,2,4" -> batch sizes, each positive.
std::vector<int> parse_batches(const std::string& text);
// "eigen,onednn" -> backend names (not checked against what was built: the gemm suite does that).
std::vector<std::string> parse_name_list(const std::string& text, const std::string& flag);

}  // namespace roofline
