// Page sizes (issue 24), apart from the level detection: the main sweep's DRAM rows say the pages they
// asked for and got; the suite "bandwidth_pages" (read and triad at DRAM sizes on 4 KiB pages) gives
// page_size_ceilings, in the DRAM range the main sweep found. See memory_points.hpp.
#include "memory_points.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"
#include "roofline/common/units.hpp"

namespace roofline::memory_detail {

namespace {


// Whether a share of huge pages means the request was granted: whole arrays round to 2 MiB, so a granted
// request is all but its mapping's last pages.
const char* huge_page_grant(double fraction) {
  if (fraction >= 0.95) return "granted";
  return fraction <= 0.05 ? "not granted" : "partly granted";
}

// Each iteration entry's huge-page share (huge_page_bytes / resident_bytes) by benchmark name, where the run
// recorded its pages.
std::map<std::string, double> huge_fractions(const ResultsDocument& results) {
  std::map<std::string, double> out;
  for (const char* suite : {"bandwidth", "bandwidth_pages"}) {
    for (const BenchmarkEntry* e : benchmark_entries(results, suite)) {
      const double resident = fields::amount(ROOFLINE_FIELD(*e, resident_bytes), -1.0);
      const double huge = fields::amount(ROOFLINE_FIELD(*e, huge_page_bytes), -1.0);
      if (resident > 0.0 && huge >= 0.0) out.emplace(entry_name(*e), huge / resident);
    }
  }
  return out;
}

// A row's huge-page share (its benchmark's), or the null a row states where the run recorded none.
template <class Row>
void set_huge_fraction(const std::map<std::string, double>& fractions, Row& row) {
  const auto it = fractions.find(row.benchmark.value_or(""));
  fields::set(ROOFLINE_FIELD(row, huge_page_fraction),
              it == fractions.end() ? std::nullopt : std::optional<double>(it->second));
}

// The 4 KiB-page points as the main collection reads them: the suite's entries relabelled "bandwidth".
std::map<Key, Point> small_page_points(const ResultsDocument& results) {
  ResultsDocument doc;
  for (const BenchmarkEntry& e : results.benchmarks) {
    if (!e.labels || e.labels->suite.value_or("") != "bandwidth_pages" || e.labels->pages.value_or("") != "4K") continue;
    BenchmarkEntry copy = e;
    copy.labels->suite = "bandwidth";
    doc.benchmarks.push_back(std::move(copy));
  }
  return collect_points(sweep_samples(doc));
}

// page_size_ceilings: each kernel's best 4 KiB-page repetition from the smallest DRAM size of the main
// sweep at its thread count up; a thread count without a DRAM level gets none, and a note.
std::vector<PageSizeCeilingRecord> small_page_ceilings(const ResultsDocument& results,
                                                       const std::vector<MemoryCeilingRecord>& main_ceilings,
                                                       const std::map<std::string, double>& fractions,
                                                       std::vector<std::string>& notes) {
  std::map<int, KernelPoints> by_threads;
  const std::map<Key, Point> points = small_page_points(results);
  for (const auto& [key, p] : points) by_threads[std::get<0>(key)][std::get<1>(key)].push_back(&p);
  std::vector<PageSizeCeilingRecord> out;
  const bool write_allocate = std::any_of(points.begin(), points.end(), [](const auto& p) {
    return p.second.best_write_allocate >= 0.0 || p.second.median_write_allocate >= 0.0;
  });
  for (const auto& [threads, kernels] : by_threads) {
    Range dram{"DRAM", 0.0, 1e30, ""};
    for (const MemoryCeilingRecord& c : main_ceilings) {
      if (c.level.value_or("") != "DRAM" || fields::whole(ROOFLINE_FIELD(c, threads)).value_or(0) != threads) continue;
      const double lo = fields::amount(ROOFLINE_FIELD(c, min_bytes));
      if (dram.source.empty() || lo < dram.lo) dram = {"DRAM", lo, 1e30, c.source.value_or("curve")};
    }
    if (dram.source.empty()) {
      notes.push_back(fmt::format("{} thread{}: read and triad ran on 4 KiB pages, but the main sweep found no DRAM "
                                  "level there: no 4 KiB-page ceiling.", threads, threads == 1 ? "" : "s"));
      continue;
    }
    std::vector<PageSizeCeilingRecord> rows;
    ceilings_for(threads, kernels, {dram}, write_allocate, rows);
    if (rows.empty()) {
      notes.push_back(fmt::format("{} thread{}: read and triad ran on 4 KiB pages below the DRAM range of the "
                                  "main sweep (from {}): no 4 KiB-page ceiling.", threads, threads == 1 ? "" : "s",
                                  format_bytes(dram.lo)));
    }
    for (PageSizeCeilingRecord& r : rows) {
      r.pages = "4K";
      set_huge_fraction(fractions, r);
      out.push_back(std::move(r));
    }
  }
  return out;
}

// A DRAM row's figure at `threads` for `kernel`, or 0.
double dram_value(const std::vector<MemoryCeilingRecord>& rows, int threads, const std::string& kernel) {
  for (const MemoryCeilingRecord& r : rows) {
    if (r.level.value_or("") == "DRAM" && fields::whole(ROOFLINE_FIELD(r, threads)).value_or(0) == threads &&
        r.kernel.value_or("") == kernel) {
      return fields::amount(ROOFLINE_FIELD(r, value));
    }
  }
  return 0.0;
}

// The THP mode the run recorded, for notes ("" when the file has none).
std::string thp_mode(const RecordedTarget& target) {
  if (!target.thp_present) return "";
  if (target.thp.empty()) return fmt::format(" ({})", target.thp_source);
  return fmt::format(" (transparent huge pages: {}, defrag: {})", target.thp, target.thp_defrag);
}

// Notes: a page request not granted, and the 4 KiB-page figures beside the huge-page ones.
void page_notes(const RecordedTarget& host, const std::vector<MemoryCeilingRecord>& main_ceilings,
                const std::vector<PageSizeCeilingRecord>& small, std::vector<std::string>& notes) {
  std::map<std::pair<int, std::string>, double> worst;  // (threads, pages) -> the lowest share of a DRAM row
  const auto lowest = [&worst](const auto& rows) {
    for (const auto& r : rows) {
      if (r.level.value_or("") != "DRAM" || !r.huge_page_fraction) continue;
      const auto key = std::make_pair(static_cast<int>(fields::whole(ROOFLINE_FIELD(r, threads)).value_or(0)),
                                      r.pages.value_or("2M"));
      const double f = *r.huge_page_fraction;
      const auto [it, inserted] = worst.emplace(key, f);
      if (!inserted) it->second = std::min(it->second, f);
    }
  };
  lowest(main_ceilings);
  lowest(small);
  for (const auto& [key, f] : worst) {
    const auto& [threads, pages] = key;
    const std::string who = fmt::format("{} thread{}", threads, threads == 1 ? "" : "s");
    if (pages == "2M" && f < 0.95) {
      notes.push_back(fmt::format("{}: the DRAM arrays asked for 2 MiB pages were {}: {:.0f}% of their resident bytes "
                                  "on huge pages{}; their DRAM figures are {}on 4 KiB pages.", who, huge_page_grant(f),
                                  100.0 * f, thp_mode(host), f <= 0.05 ? "" : "partly "));
    } else if (pages == "4K" && f > 0.05) {
      notes.push_back(fmt::format("{}: the 4 KiB-page arrays (MADV_NOHUGEPAGE) were {:.0f}% on huge pages anyway{}.",
                                  who, 100.0 * f, thp_mode(host)));
    }
  }
  if (small.empty()) return;
  std::vector<std::string> ratios;
  for (const PageSizeCeilingRecord& r : small) {
    if (r.kernel.value_or("") != "read") continue;
    const int threads = static_cast<int>(fields::whole(ROOFLINE_FIELD(r, threads)).value_or(0));
    const double huge = dram_value(main_ceilings, threads, "read");
    if (huge > 0.0) {
      ratios.push_back(fmt::format("{:.2f} at {} thread{}", fields::amount(ROOFLINE_FIELD(r, value)) / huge, threads,
                                   threads == 1 ? "" : "s"));
    }
  }
  notes.push_back(fmt::format(
      "DRAM read and triad were also measured on 4 KiB pages (page_size_ceilings, pages \"4K\": madvise(MADV_NOHUGEPAGE), "
      "as likwid-bench and STREAM allocate){}. The DRAM roof is the better of the two, and says which pages. Page "
      "records cover the CPU's arrays; OpenCL/CUDA host buffers will carry the same record when those targets exist "
      "(pinned host memory is page-locked).",
      ratios.empty() ? "" : fmt::format("; read on 4 KiB pages / read on 2 MiB pages: {}", fmt::join(ratios, ", "))));
}

}  // namespace

void add_page_sizes(const ResultsDocument& results, const RecordedTarget& host, RooflineSection& out) {
  const std::map<std::string, double> fractions = huge_fractions(results);
  std::vector<MemoryCeilingRecord>& ceilings = out.memory_ceilings ? *out.memory_ceilings : out.memory_ceilings.emplace();
  std::vector<std::string>& notes = out.notes ? *out.notes : out.notes.emplace();
  for (MemoryCeilingRecord& c : ceilings) {
    if (c.level.value_or("") != "DRAM") continue;
    c.pages = "2M";
    set_huge_fraction(fractions, c);
  }
  out.page_size_ceilings = small_page_ceilings(results, ceilings, fractions, notes);
  page_notes(host, ceilings, *out.page_size_ceilings, notes);
}

}  // namespace roofline::memory_detail
