// Memory ceilings per level (L1/L2/L3/DRAM) from the bandwidth sweep: plateau detection on the
// bandwidth-vs-working-set curve, labelled with reported cache sizes when they agree with the curve.
//
// Method (per thread count):
//  - The reference curve is the `read` kernel's (else the kernel with most sizes): working_set_bytes vs
//    the median of bytes_per_second over the repetitions (medians resist noise when finding plateaus).
//  - Its plateaus (plateaus.hpp) are named L1/L2/L3/DRAM from the knees, checked against
//    context.machine.caches scaled to the threads used (a per-core cache counts once per thread). When the
//    curve and the reported sizes disagree, both are recorded and the curve is used.
//  - Each kernel's ceiling at a level is the best repetition (max) of its sizes inside that level's
//    plateau range; min_bytes/max_bytes are the sizes it came from. Transition sizes count for no level.
//  - With no plateaus (a short --sizes list, or memory that moved while sweeping), levels come from the reported
//    sizes alone, DRAM from twice the last plausible one ("source": "reported").
//
// Output (typed rows of the results file's `roofline` section, issue 61):
//  memory_ceilings: [{level, kernel, threads, value (B/s), unit "B/s", min_bytes, max_bytes,
//                     median (B/s, median of the repetitions at the best size), points, benchmark, source}]
//  memory_levels:   [{threads, level, reference_kernel, min_bytes, max_bytes, bandwidth (B/s, plateau median
//                     of the reference kernel), inferred_bytes (where the curve leaves the level, or null),
//                     reported_bytes (capacity the machine facts give for these threads, or null),
//                     agreement ("agrees"|"disagrees"|"unchecked"), source ("curve"|"reported")}]
//  notes:           sentences: disagreements, caps, the write-allocate caveat.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/plateaus.hpp"
#include "roofline/model/results_targets.hpp"

namespace roofline {

// Returns memory_ceilings, memory_levels, page_size_ceilings (where it has bandwidth entries) and notes (see above
// and results/README.md) of one target, every target's by this one derivation (issue 47): from its own bandwidth
// entries (its part of the document, target_document), its reported levels (target_reported_levels) and its level names (level_names).
// Rows carry `threads` where the entries name a thread count (a device runs each kernel on the whole device) and
// `width`/`pattern` (`reference_width` on levels) where a kernel ran in several variants (collect_points). It reads the
// typed document and builds the typed part of the section, row by row (issue 61: no JSON between).
RooflineSection derive_memory_ceilings(const ResultsDocument& part, const RecordedTarget& target);

// The names a target's levels take: a target whose facts give a cache topology (the CPU) names them L1..L3 and its
// main memory (DRAM), as it reports them; any other takes its facts' level names, innermost first, the last its main
// memory (one unlisted cache level, called "cache", where its facts list none).
LevelNames level_names(const RecordedTarget& target);

// What the analysis believes of a target's caches at `threads` threads (0: the whole target): the one verdict of
// roofline/common/reported_levels.hpp (cache_verdict, the plan's too) over its cache topology, binding and memory
// where it has a topology, else its facts' inner levels and their capacities (0: not reported), each taken as
// plausible, the largest of them the DRAM threshold.
CacheVerdict target_cache_verdict(const RecordedTarget& target, int threads);
// The levels a target reports at `threads` threads, the priors of its level detection: target_cache_verdict's.
std::vector<ReportedLevel> target_reported_levels(const RecordedTarget& target, int threads);

// The plateau median (the median of each size's median) of a target's `kernel` at `threads` (`part`: its part of the
// document, target_document) over the sizes of its main sweep in [lo, hi] (1% slack at both ends, as the levels' ranges have), and how many sizes that was (0: none,
// and the value 0). Compare takes a new run's memory figure over the base's sizes with it, from the typed document
// (issue 61, step 3: its entries read as the derivation reads the file's, memory_points.hpp's sweep_samples).
std::pair<double, int> plateau_median_over(const ResultsDocument& part, int threads, const std::string& kernel,
                                           double lo, double hi);

// The cache levels context.machine reports, as capacity seen by `threads` threads bound with `policy`
// ("compact" or "spread"): per-instance size x instances those threads use, each marked plausible or not
// with the host's memory (the levels of roofline/common/reported_levels.hpp's cache_verdict).
std::vector<ReportedLevel> reported_levels(const HostFacts& host, int threads, const std::string& policy);

}  // namespace roofline
