// The bandwidth sweep's points and each kernel's ceilings over a level's range: shared by memory_ceilings.cpp
// (the levels, at every thread count) and memory_pages.cpp (the 4 KiB-page ceilings in the DRAM range). Private
// to roofline::model.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "roofline/model/record_fields.hpp"
#include "roofline/model/results_document.hpp"
#include "roofline/model/results_targets.hpp"  // RecordedTarget
#include "roofline/common/statistics.hpp"

namespace roofline::memory_detail {

// One measured size of one kernel at one thread count: its repetitions and aggregates.
struct Point {
  double bytes = 0.0;
  std::vector<double> repetitions;
  double median = -1.0;  // from the aggregate when present, else computed
  double best = -1.0;    // likewise, the max
  double best_write_allocate = -1.0;    // bytes_per_second_write_allocate of the best repetition (-1: absent)
  double median_write_allocate = -1.0;  // and of the median aggregate
  std::vector<double> write_allocate;   // per repetition, beside `repetitions`
  std::string benchmark;
  // The variant kept for its kernel (collect_points): its vector width (labels.width, 0 where none) and access
  // pattern (labels.pattern, "" where none).
  long long width = 0;
  std::string pattern;
  // The repetitions' robust relative spread: 1.4826 x MAD / median (0 with fewer than 3 repetitions).
  double spread() const {
    if (repetitions.size() < 3 || !(median > 0.0)) return 0.0;
    return robust_sigma(repetitions) / median;
  }
};

// threads (0 where the entries name none: a device runs each kernel on the whole device), kernel, working_set_bytes
using Key = std::tuple<int, std::string, double>;
using KernelPoints = std::map<std::string, std::vector<const Point*>>;  // kernel -> its sizes

// A level's range of working sets at one thread count, and where it came from.
struct Range {
  std::string level;
  double lo, hi;
  std::string source;
  std::string warning = {};  // a named warning (plateaus.hpp), "" when none
};

// Sets a field of a record the model builds to a whole count (bytes, a size), written as an integer: an integer member
// as it is, a number member marked in the record's integer_numbers (as the reader marks an integer the file wrote in a
// number field, so that the writer writes it back as one); given none, the explicit null (`set`).
template <class T, class R>
void set_whole(std::optional<T>& member, R& record, const char* key, std::optional<long long> value) {
  static_assert(std::is_same_v<T, long long> || std::is_same_v<T, double>, "a count is an integer or a number field");
  if (value && std::is_same_v<T, double>) record.integer_numbers.insert(key);
  else record.integer_numbers.erase(key);
  fields::set(member, record, key, value ? std::optional<T>(static_cast<T>(*value)) : std::nullopt);
}

// An entry's run_name, else its name.
std::string entry_name(const BenchmarkEntry& e);

// One bandwidth-suite entry as the points read it (issue 61): its repetition's or aggregate's rate, size and
// variant, read once from a target's typed document (a label of the wrong kind reads as absent, a number as a
// reader of the file's JSON took it).
struct SweepSample {
  std::string aggregate;  // "" for a repetition, else "median" or "max"
  int threads = 0;        // labels.threads, 0 where absent (a device)
  std::string kernel;
  long long width = 0;  // labels.width, 0 where absent
  std::string pattern;  // labels.pattern, "" where absent
  double bytes = 0.0;   // working_set_bytes
  double rate = 0.0;    // bytes_per_second
  double write_allocate = -1.0;  // bytes_per_second_write_allocate (-1: absent)
  std::string name;              // entry_name
};

// The samples of the suite `suite` (labels.suite): its repetitions in file order, then its median aggregates,
// then its max aggregates; failed entries, and entries without a kernel, a positive size or a rate, left out.
std::vector<SweepSample> sweep_samples(const ResultsDocument& results, const std::string& suite = "bandwidth");

// Collects the points from the bandwidth suite's samples (one target's: repetitions and median/max aggregates).
// A kernel measured in several variants at one thread count (vector widths or access patterns: a device's) is
// kept in one: the variant with the highest geometric mean of its per-size medians over the sizes every variant
// was measured at (the max over variants at each size would be lifted by noise alone).
std::map<Key, Point> collect_points(const std::vector<SweepSample>& samples);

// A level's range on the reference curve, widened by 1% so that other kernels' sizes (rounded to whole
// elements per array) just inside its ends still count.
inline bool in_range(double bytes, double lo, double hi) { return bytes >= lo * 0.99 && bytes <= hi * 1.01; }

// Appends to `ceilings` each kernel's ceiling at each of `ranges` (memory_points.cpp says how), with the
// write-allocate figures where the target's entries carry them (`with_write_allocate`): the main sweep's rows
// (memory_ceilings) or the 4 KiB-page sweep's (page_size_ceilings), typed (issue 61).
void ceilings_for(int threads, const KernelPoints& kernels, const std::vector<Range>& ranges,
                  bool with_write_allocate, std::vector<MemoryCeilingRecord>& ceilings);
void ceilings_for(int threads, const KernelPoints& kernels, const std::vector<Range>& ranges,
                  bool with_write_allocate, std::vector<PageSizeCeilingRecord>& ceilings);

// Adds page sizes to `out` (derive_memory_ceilings' typed part, its memory_ceilings derived): "pages" and
// "huge_page_fraction" on the DRAM rows, the page_size_ceilings list (empty when the run measured none) and the notes
// (memory_pages.cpp).
void add_page_sizes(const ResultsDocument& results, const RecordedTarget& target, RooflineSection& out);

}  // namespace roofline::memory_detail
