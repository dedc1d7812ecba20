// The field lists of the typed results model (results_document.hpp): one X(type, name) per field of each
// typed object, in the catalogue's order (results/fields.txt, the same names and kinds: text -> std::string,
// integer -> long long, number -> double, flag -> bool). Objects and arrays inside a typed object are members
// written out in results_document.hpp. A field added to the catalogue under a typed object is added here too:
// the strict reader refuses a recorded field that no member holds (tests/analysis/model/test_results_document.cpp).
#pragma once

#define ROOFLINE_ENTRY_FIELDS(X) \
  X(std::string, aggregate_name) X(std::string, aggregate_unit) X(double, arithmetic_intensity) \
  X(double, attn_scores_seconds) X(double, attn_values_seconds) X(double, bytes_per_second) \
  X(double, bytes_per_second_write_allocate) X(double, call_overhead_fraction) X(double, clock_hz) \
  X(double, clock_hz_average) X(double, cpu_time) X(double, down_proj_seconds) X(double, elements) \
  X(std::string, error_message) X(bool, error_occurred) X(long long, family_index) X(double, flop_per_second) \
  X(double, flop_per_second_average) X(double, gate_proj_seconds) X(double, huge_page_bytes) \
  X(double, instructions_per_cycle) X(long long, iterations) X(double, k_proj_seconds) X(std::string, label) \
  X(double, latency_seconds) X(double, layer_seconds) X(double, lm_head_seconds) X(std::string, name) \
  X(double, o_proj_seconds) X(double, op_per_second) X(double, op_per_second_average) X(double, passes_per_call) \
  X(long long, per_family_instance_index) X(double, q_proj_seconds) X(double, real_time) \
  X(long long, repetition_index) X(long long, repetitions) X(double, resident_bytes) X(std::string, run_name) \
  X(std::string, run_type) X(double, seconds) X(double, step_seconds) X(long long, threads) \
  X(std::string, time_unit) X(double, up_proj_seconds) X(double, v_proj_seconds) X(double, weights_per_second) \
  X(double, weights_per_second_average) X(double, working_set_bytes)

#define ROOFLINE_LABELS_FIELDS(X) \
  X(double, a_bytes) X(std::string, activations) X(double, b_bytes) X(std::string, backend) X(long long, batch) \
  X(long long, block_bytes) X(long long, block_weights) X(long long, bytes) X(double, c_bytes) \
  X(long long, chains) X(long long, cols) X(bool, complete) X(long long, context) X(std::string, direction) \
  X(std::string, engine) X(double, estimated_seconds) X(std::string, format) X(long long, global_size) \
  X(std::string, implementation) X(std::string, instruction) X(long long, instructions_per_iteration) \
  X(std::string, isa) X(std::string, isa_level) X(long long, k) X(std::string, kernel) \
  X(std::string, kv_backend) X(std::string, kv_precision) X(long long, launches_per_call) X(std::string, level) \
  X(long long, local_size) X(long long, m) X(std::string, memory) X(std::string, model) X(long long, n) \
  X(long long, ops_per_cycle_per_core) X(long long, ops_per_instruction) X(std::string, pages) \
  X(std::string, phase) X(std::string, precision) X(long long, prompt_tokens) X(long long, rows) \
  X(std::string, step) X(long long, steps) X(std::string, suite) X(std::string, target) X(long long, threads) \
  X(std::string, timing) X(std::string, unit) X(std::string, variant) X(long long, vector_bits) \
  X(long long, weights_copies) X(long long, width) X(double, working_set_bytes)

#define ROOFLINE_PROBE_FIELDS(X) \
  X(double, bytes_per_second) X(std::string, kernel) X(std::string, pages) X(long long, passes_per_sample) \
  X(double, seconds) X(long long, threads) X(long long, working_set_bytes)

#define ROOFLINE_CONTEXT_FIELDS(X) \
  X(std::string, build_type) X(std::string, compiler) X(std::string, compiler_flags) \
  X(bool, cpu_scaling_enabled) X(std::string, date) X(std::string, executable) X(std::string, git_revision) \
  X(std::string, host_name) X(std::string, library_build_type) X(std::string, max_isa) \
  X(long long, memory_budget_bytes) X(long long, mhz_per_cpu) X(long long, num_cpus) X(std::string, profile) \
  X(bool, random_interleaving) X(std::string, roofline_version) X(long long, schema_version) \
  X(double, wall_seconds)

#define ROOFLINE_MACHINE_FIELDS(X) \
  X(std::string, build_type) X(std::string, compiler) X(std::string, compiler_flags) X(long long, cores) \
  X(long long, cpu_family) X(std::string, cpu_model) X(long long, cpu_model_number) X(long long, cpu_stepping) \
  X(std::string, cpu_vendor) X(std::string, git_revision) X(std::string, hostname) \
  X(long long, hwloc_numa_memory_bytes) X(bool, hypervisor) X(long long, memory_available_bytes) \
  X(std::string, memory_source) X(long long, memory_total_bytes) X(std::string, microarchitecture) \
  X(long long, numa_nodes) X(std::string, os) X(long long, packages) X(long long, pus) \
  X(std::string, topology_source) X(std::string, transparent_huge_pages) \
  X(std::string, transparent_huge_pages_defrag) X(std::string, transparent_huge_pages_source)

#define ROOFLINE_AMX_FIELDS(X) \
  X(std::string, detail) X(std::string, source) X(std::string, status)

#define ROOFLINE_CACHE_FIELDS(X) \
  X(long long, cores_per_instance) X(long long, instances) X(long long, level) X(long long, size_bytes) \
  X(std::string, source) X(std::string, type)

#define ROOFLINE_TARGET_FIELDS(X) \
  X(std::string, api) X(double, clock_hz) X(long long, compute_units) X(std::string, driver) \
  X(std::string, kind) X(long long, memory_available_bytes) X(long long, memory_total_bytes) \
  X(std::string, name) X(std::string, peak_model) X(std::string, target) X(std::string, vendor)

#define ROOFLINE_LEVEL_FIELDS(X) \
  X(long long, capacity_bytes) X(std::string, name) X(bool, shared)

#define ROOFLINE_COMPUTE_FIELDS(X) \
  X(std::string, benchmark) X(double, clock_hz) X(std::string, clock_source) X(std::string, engine) \
  X(std::string, isa) X(double, median) X(double, ops_per_cycle_per_core) X(double, percent) \
  X(std::string, precision) X(std::string, target) X(double, theoretical) X(long long, threads) \
  X(std::string, unit) X(double, value) X(long long, vector_bits)

#define ROOFLINE_MEMORY_FIELDS(X) \
  X(std::string, benchmark) X(double, huge_page_fraction) X(std::string, kernel) X(std::string, level) \
  X(double, max_bytes) X(double, median) X(double, median_write_allocate) X(double, min_bytes) \
  X(std::string, pages) X(double, plateau_median) X(long long, points) X(std::string, source) \
  X(std::string, target) X(long long, threads) X(std::string, unit) X(double, value) \
  X(double, value_write_allocate) X(std::string, warning) X(long long, width)

#define ROOFLINE_PAGES_FIELDS(X) \
  X(std::string, benchmark) X(double, huge_page_fraction) X(std::string, kernel) X(std::string, level) \
  X(long long, max_bytes) X(double, median) X(double, median_write_allocate) X(long long, min_bytes) \
  X(std::string, pages) X(double, plateau_median) X(long long, points) X(std::string, source) \
  X(std::string, target) X(long long, threads) X(std::string, unit) X(double, value) \
  X(double, value_write_allocate)

#define ROOFLINE_RIDGE_FIELDS(X) \
  X(double, ai) X(std::string, engine) X(std::string, kernel) X(std::string, level) X(std::string, pages) \
  X(std::string, precision) X(std::string, target) X(long long, threads)

#define ROOFLINE_PLACEMENT_FIELDS(X) \
  X(double, ai) X(double, attainable) X(std::string, backend) X(long long, batch) X(bool, beats_roof) \
  X(std::string, bound) X(double, compute_ceiling) X(double, efficiency) X(std::string, engine) \
  X(std::string, implementation) X(long long, k) X(std::string, kernel) X(double, latency_seconds) \
  X(long long, m) X(double, memory_ceiling) X(long long, n) X(double, operand_bytes) X(std::string, precision) \
  X(long long, repetitions) X(std::string, resident_level) X(double, ridge_ai) X(std::string, target) \
  X(long long, threads) X(std::string, unit) X(double, value) X(double, value_max)

#define ROOFLINE_ROOF_FIELDS(X) \
  X(std::string, engine) X(std::string, engine_missing) X(std::string, level) X(std::string, pages)

#define ROOFLINE_OFFLOAD_FIELDS(X) \
  X(double, attainable) X(double, bandwidth) X(std::string, bound) X(std::string, direction) \
  X(std::string, memory)

#define ROOFLINE_ROOFNOW_FIELDS(X) \
  X(double, after) X(double, attainable) X(double, bandwidth) X(double, before) X(std::string, bound) \
  X(double, efficiency) X(std::string, kernel) X(bool, moved) X(double, noise) X(double, roof_ratio) \
  X(double, spread) X(double, working_set_bytes)

#define ROOFLINE_ROOFS_FIELDS(X) \
  X(double, attainable) X(double, bandwidth) X(std::string, bound) X(double, efficiency) X(std::string, kernel) \
  X(std::string, level) X(std::string, pages) X(double, ridge_ai)

#define ROOFLINE_TRANSFER_FIELDS(X) \
  X(std::string, benchmark) X(std::string, direction) X(double, median) X(std::string, memory) \
  X(std::string, target) X(std::string, unit) X(double, value)

#define ROOFLINE_LAUNCH_FIELDS(X) \
  X(double, median) X(long long, repetitions) X(double, seconds) X(std::string, target)

// context.environment (the run's environment guard, bench/harness/environment.cpp) and its parts.
#define ROOFLINE_ENVIRONMENT_FIELDS(X) \
  X(double, clock_drift) X(std::string, method) X(double, other_busy_fraction) X(double, steal_fraction)

#define ROOFLINE_CANARY_FIELDS(X) \
  X(double, drift) X(double, end) X(std::string, kernel) X(long long, passes) X(long long, samples) \
  X(double, start) X(long long, threads) X(long long, working_set_bytes)

#define ROOFLINE_CHECKPOINT_FIELDS(X) X(std::string, at) X(double, bytes_per_second) X(double, seconds)

#define ROOFLINE_SNAPSHOT_FIELDS(X) \
  X(double, canary_bytes_per_second) X(double, clock_hz) X(double, core_canary_bytes_per_second)

#define ROOFLINE_PROC_STAT_FIELDS(X) X(long long, steal_ticks) X(long long, total_ticks)
