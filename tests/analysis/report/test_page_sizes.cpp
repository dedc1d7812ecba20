// Page sizes behind the DRAM figures (issue 24): the DRAM rows' pages and huge-page share, the 4 KiB-page
// ceilings of the suite "bandwidth_pages", the notes when a huge-page request was not granted, the roof as the
// better of the two, the memory table, and files from before page sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "roofline/model/memory_ceilings.hpp"
#include "roofline/report/report_tables.hpp"
#include "roofline/model/roofline_section.hpp"
#include "support/typed_results.hpp"

namespace roofline {
namespace {
using nlohmann::json;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

const json kCaches = json::array({
    {{"level", 1}, {"type", "data"}, {"size_bytes", 49152}, {"instances", 2}, {"cores_per_instance", 1}},
    {{"level", 2}, {"type", "unified"}, {"size_bytes", 1048576}, {"instances", 2}, {"cores_per_instance", 1}},
    {{"level", 3}, {"type", "unified"}, {"size_bytes", 33554432}, {"instances", 1}, {"cores_per_instance", 2}},
});

json empty_doc(const std::string& thp = "madvise") {
  return {{"context", {{"schema_version", 1},
                       {"machine", {{"caches", kCaches}, {"transparent_huge_pages", thp},
                                    {"transparent_huge_pages_defrag", "madvise"}}},
                       {"binding", {{"policy", "compact"}}}}},
          {"benchmarks", json::array()}};
}

// One 1 GiB point of `kernel`, as `--sizes 1GiB` writes it: 3 repetitions and median/max aggregates;
// `huge` is the share of its arrays on huge pages (none: the run recorded no pages, as older files).
void add_point(json& doc, bool small_pages, const std::string& kernel, int threads, double value,
               std::optional<double> huge) {
  const std::string name = "bandwidth/" + kernel + (small_pages ? "/pages:4K" : "") + "/threads:" +
                           std::to_string(threads) + "/bytes:1073741824";
  json labels = {{"suite", small_pages ? "bandwidth_pages" : "bandwidth"}, {"kernel", kernel},
                 {"precision", "fp64"}, {"threads", threads}};
  if (huge) labels["pages"] = small_pages ? "4K" : "2M";
  const auto entry = [&](const std::string& run_type, const std::string& aggregate, double v) {
    json e = {{"name", aggregate.empty() ? name : name + "_" + aggregate}, {"run_name", name}, {"run_type", run_type},
              {"labels", labels}, {"bytes_per_second", v}, {"working_set_bytes", kGiB}};
    if (!aggregate.empty()) e["aggregate_name"] = aggregate;
    if (huge) {
      e["resident_bytes"] = kGiB;
      e["huge_page_bytes"] = kGiB * *huge;
    }
    doc["benchmarks"].push_back(e);
  };
  for (double f : {0.98, 1.0, 1.01}) entry("iteration", "", value * f);
  entry("aggregate", "median", value);
  entry("aggregate", "max", value * 1.01);
}

// The reporter's run at 1 GiB and 1 thread: 31.4 GB/s read on 2 MiB pages, 22.9 on 4 KiB pages.
json sitting(double huge_share, double small_share = 0.0, const std::string& thp = "madvise") {
  json doc = empty_doc(thp);
  add_point(doc, false, "read", 1, 31.4e9, huge_share);
  add_point(doc, false, "triad", 1, 30.0e9, huge_share);
  add_point(doc, true, "read", 1, 22.9e9, small_share);
  add_point(doc, true, "triad", 1, 21.0e9, small_share);
  return doc;
}

const json* row(const json& rows, const std::string& level, const std::string& kernel, int threads) {
  for (const json& r : rows) {
    if (r["level"] == level && r["kernel"] == kernel && r["threads"] == threads) return &r;
  }
  return nullptr;
}

std::string notes_with(const json& out, const std::string& word) {
  std::string all;
  for (const json& n : out["notes"]) {
    if (n.get<std::string>().find(word) != std::string::npos) all += n.get<std::string>() + "\n";
  }
  return all;
}

TEST(PageSizes, GrantedHugePagesAndTheFourKibCeilingBeside) {
  const json out = testing::derived_memory(sitting(1.0));
  const json* huge = row(out["memory_ceilings"], "DRAM", "read", 1);
  ASSERT_NE(huge, nullptr);
  EXPECT_EQ((*huge)["pages"], "2M");
  EXPECT_DOUBLE_EQ((*huge)["huge_page_fraction"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ((*huge)["value"].get<double>(), 31.4e9 * 1.01);
  // The 4 KiB-page entries stay out of the main rows: one DRAM read row there.
  int dram_reads = 0;
  for (const json& r : out["memory_ceilings"]) dram_reads += r["level"] == "DRAM" && r["kernel"] == "read";
  EXPECT_EQ(dram_reads, 1);
  ASSERT_EQ(out["page_size_ceilings"].size(), 2u);
  const json* small = row(out["page_size_ceilings"], "DRAM", "read", 1);
  ASSERT_NE(small, nullptr);
  EXPECT_EQ((*small)["pages"], "4K");
  EXPECT_DOUBLE_EQ((*small)["value"].get<double>(), 22.9e9 * 1.01);
  EXPECT_DOUBLE_EQ((*small)["huge_page_fraction"].get<double>(), 0.0);
  EXPECT_EQ((*small)["benchmark"], "bandwidth/read/pages:4K/threads:1/bytes:1073741824");
  ASSERT_NE(row(out["page_size_ceilings"], "DRAM", "triad", 1), nullptr);
  const std::string beside = notes_with(out, "also measured on 4 KiB pages");
  EXPECT_NE(beside.find("read on 4 KiB pages / read on 2 MiB pages: 0.73 at 1 thread"), std::string::npos) << beside;
  EXPECT_NE(beside.find("OpenCL/CUDA host buffers"), std::string::npos) << beside;
  EXPECT_EQ(notes_with(out, "granted"), "");
}

TEST(PageSizes, NotGrantedIsANoteWithTheThpMode) {
  const json out = testing::derived_memory(sitting(0.0, 0.0, "never"));
  EXPECT_DOUBLE_EQ((*row(out["memory_ceilings"], "DRAM", "read", 1))["huge_page_fraction"].get<double>(), 0.0);
  const std::string note = notes_with(out, "asked for 2 MiB pages");
  EXPECT_NE(note.find("1 thread: the DRAM arrays asked for 2 MiB pages were not granted: 0%"), std::string::npos) << note;
  EXPECT_NE(note.find("(transparent huge pages: never, defrag: madvise)"), std::string::npos) << note;
  EXPECT_NE(note.find("their DRAM figures are on 4 KiB pages"), std::string::npos) << note;
}

TEST(PageSizes, PartlyGrantedIsANote) {
  const json out = testing::derived_memory(sitting(0.5));
  const std::string note = notes_with(out, "asked for 2 MiB pages");
  EXPECT_NE(note.find("were partly granted: 50%"), std::string::npos) << note;
  EXPECT_NE(note.find("partly on 4 KiB pages"), std::string::npos) << note;
  // All but the mapping's last pages is granted: no note.
  EXPECT_EQ(notes_with(testing::derived_memory(sitting(0.97)), "asked for 2 MiB pages"), "");
}

TEST(PageSizes, SmallPagesGivenHugePagesAnywayIsANote) {
  const json out = testing::derived_memory(sitting(1.0, 0.3));
  EXPECT_NE(notes_with(out, "4 KiB-page arrays (MADV_NOHUGEPAGE) were 30% on huge pages anyway"), "");
}

TEST(PageSizes, NoDramLevelMeansNoFourKibCeiling) {
  json doc = sitting(1.0);
  add_point(doc, true, "read", 2, 37.3e9, 0.0);  // 4 KiB pages at 2 threads, but no main sweep there
  const json out = testing::derived_memory(doc);
  EXPECT_EQ(row(out["page_size_ceilings"], "DRAM", "read", 2), nullptr);
  EXPECT_NE(notes_with(out, "2 threads: read and triad ran on 4 KiB pages, but the main sweep found no DRAM"), "");
}

TEST(PageSizes, SmallPagesBelowTheDramRangeAreANote) {
  json doc = sitting(1.0);
  for (json& e : doc["benchmarks"]) {
    if (e["labels"]["suite"] == "bandwidth_pages") e["working_set_bytes"] = kGiB / 8;  // 128 MiB: below 1 GiB
  }
  const json out = testing::derived_memory(doc);
  EXPECT_TRUE(out["page_size_ceilings"].empty());
  EXPECT_NE(notes_with(out, "1 thread: read and triad ran on 4 KiB pages below the DRAM range of the main sweep (from 1 GiB)"), "")
      << out["notes"].dump();
}

// The roof is the better of the two, and says which; ridge points and placements carry its pages.
TEST(PageSizes, RoofIsTheBetterOfTheTwoAndSaysWhich) {
  json section = testing::derived_memory(sitting(1.0));
  RooflineSection typed = read_roofline_section(section, "test.json");
  MemoryRoof roof = memory_roof(typed, "DRAM", 1);
  ASSERT_TRUE(roof.found());
  EXPECT_EQ(roof.page_size().value_or(""), "2M");
  section["compute_ceilings"] = json::array({{{"precision", "fp64"}, {"threads", 1}, {"value", 1e11}}});
  json ridges = testing::derived_ridge_points(section);
  ASSERT_FALSE(ridges.empty());
  EXPECT_EQ(ridges.back()["level"], "DRAM");
  EXPECT_EQ(ridges.back()["pages"], "2M");

  // Not granted, the huge-page run can measure less than the 4 KiB one: the roof is then that one.
  json doc = empty_doc();
  add_point(doc, false, "read", 1, 22.0e9, 0.0);
  add_point(doc, true, "read", 1, 22.9e9, 0.0);
  section = testing::derived_memory(doc);
  typed = read_roofline_section(section, "test.json");
  roof = memory_roof(typed, "DRAM", 1);
  ASSERT_TRUE(roof.found());
  EXPECT_EQ(roof.page_size().value_or(""), "4K");
  EXPECT_DOUBLE_EQ(roof.value(), 22.9e9 * 1.01);
  section["compute_ceilings"] = json::array({{{"precision", "fp64"}, {"threads", 1}, {"value", 1e11}}});
  ridges = testing::derived_ridge_points(section);
  EXPECT_EQ(ridges.back()["pages"], "4K");
}

// The main rows do not change when the 4 KiB-page entries and page records are added: those only add fields.
TEST(PageSizes, MainRowsUnchangedApartFromAddedFields) {
  json old_style = empty_doc();
  add_point(old_style, false, "read", 1, 31.4e9, std::nullopt);
  add_point(old_style, false, "triad", 1, 30.0e9, std::nullopt);
  const json before = testing::derived_memory(old_style);
  const json after = testing::derived_memory(sitting(1.0));
  ASSERT_EQ(before["memory_ceilings"].size(), after["memory_ceilings"].size());
  for (std::size_t i = 0; i < before["memory_ceilings"].size(); ++i) {
    json a = after["memory_ceilings"][i];
    json b = before["memory_ceilings"][i];
    if (b["level"] == "DRAM") {
      EXPECT_EQ(b["pages"], "2M");  // older files: the main sweep, which asked for 2 MiB pages
      EXPECT_TRUE(b["huge_page_fraction"].is_null());
    } else {
      EXPECT_FALSE(b.contains("pages"));  // no page size bounds a cache level
    }
    a.erase("huge_page_fraction");
    b.erase("huge_page_fraction");
    EXPECT_EQ(a, b) << i;
  }
  EXPECT_TRUE(before["page_size_ceilings"].empty());
  EXPECT_EQ(notes_with(before, "pages"), "");  // an old file gets no page note
  EXPECT_EQ(before["memory_levels"], after["memory_levels"]);
}

TEST(PageSizes, MemoryTableShowsBothAndTheRoof) {
  json doc = sitting(1.0);
  doc["roofline"] = testing::derived_memory(doc);
  const ReportTable t = memory_table(testing::typed_fragment(doc));
  const auto col = [&](const char* name) {
    return static_cast<std::size_t>(std::find(t.columns.begin(), t.columns.end(), name) - t.columns.begin());
  };
  ASSERT_LT(col("pages"), t.columns.size());
  std::vector<std::string> dram_read;
  for (const auto& r : t.rows) {
    if (r[col("level")] == "DRAM" && r[col("kernel")] == "read") dram_read.push_back(r[col("pages")]);
  }
  EXPECT_EQ(dram_read, (std::vector<std::string>{"2M (100% huge), roof", "4K (0% huge)"}));
  for (const auto& r : t.rows) {
    if (r[col("level")] != "DRAM") {
      EXPECT_EQ(r[col("pages")], "");
    }
  }
  EXPECT_NE(t.note.find("4K = 4 KiB pages"), std::string::npos);
}

}  // namespace
}  // namespace roofline
