// The one catalogue of fields (results/fields.txt, issue 61) against the code: the typed records' scalar fields are
// generated from it (cmake/RooflineRecordFields.cmake), and this test holds the rest of the typed model to it both
// ways: every field a typed record holds is a catalogue line of its kind, and every catalogue line under a typed
// record is held by a member (not left to `extra`). And every catalogue line says what its field means.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "roofline/records/results_document.hpp"
#include "roofline/records/results_fields.hpp"

namespace roofline {
namespace {

std::map<std::string, std::string> catalogue_kinds() {
  std::map<std::string, std::string> out;
  for (const CatalogueField& f : catalogue_fields()) out[f.path] = f.kind;
  return out;
}

std::map<std::string, std::string> typed_kinds() {
  std::map<std::string, std::string> out;
  for (const TypedField& f : typed_fields()) out[f.path] = f.kind;
  return out;
}

// A catalogue path in the typed model's words: "a.b[].c" -> "a", "b[]", "c".
std::vector<std::string> tokens(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
    out.push_back(path.substr(start, dot - start));
    start = dot + 1;
  }
  out.push_back(path.substr(start));
  return out;
}

// Whether `pattern` (a typed path, `*` any one key) names the catalogue path `path`.
bool matches(const std::string& pattern, const std::string& path) {
  const std::vector<std::string> p = tokens(pattern), c = tokens(path);
  if (p.size() != c.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == c[i]) continue;
    if (!p[i].starts_with("*")) return false;
    const std::string brackets = p[i].substr(1);  // "*[]": any key, then its elements
    if (!c[i].ends_with(brackets)) return false;
  }
  return true;
}

// A record read at several paths holds the union of their fields (cmake/RooflineRecordFields.cmake): the four
// canaries (DRAM ones count passes, the cores' ones samples). A member of one is catalogued under any of them.
std::vector<std::string> paths_of_shared_record(const std::string& path) {
  static const std::vector<std::string> kCanaries = {"context.environment.canary.", "context.environment.core_canary.",
                                                     "context.environment.libc_canary.", "context.environment.libc_core_canary."};
  for (const std::string& prefix : kCanaries) {
    if (!path.starts_with(prefix)) continue;
    std::vector<std::string> out;
    for (const std::string& other : kCanaries) out.push_back(other + path.substr(prefix.size()));
    return out;
  }
  return {path};
}

bool kinds_agree(const std::string& typed, const std::string& catalogued) {
  return typed == catalogued || (typed == "number" && catalogued == "integer");
}

// Where the catalogue path `path` lies: held by a member of a typed record, in a section not typed yet (under an
// open record, or inside a member kept as JSON), or under a typed record that no member of holds it.
enum class Holding { typed, untyped_section, not_held };

Holding holding(const std::string& path, const std::map<std::string, std::string>& typed) {
  std::string at;
  for (const std::string& token : tokens(path)) {
    const std::string name = at.empty() ? token : at + "." + token;
    const std::size_t brackets = token.find("[]");
    const std::string any_key = at + ".*" + (brackets == std::string::npos ? "" : token.substr(brackets));
    if (typed.count(name) != 0) {
      at = name;
    } else if (!at.empty() && typed.count(any_key) != 0) {
      at = any_key;
    } else {
      const auto it = typed.find(at);
      if (it == typed.end() || it->second == "open record") return Holding::untyped_section;
      return it->second == "any" ? Holding::typed : Holding::not_held;
    }
  }
  return Holding::typed;
}

// Why the typed model does not hold the catalogue path `path`, or "" when it does or the path is not typed yet.
std::string not_held(const std::string& path, const std::map<std::string, std::string>& typed) {
  if (holding(path, typed) != Holding::not_held) return "";
  return path + ": in the catalogue, held by no member of its typed record";
}

}  // namespace

TEST(ResultsFields, EveryTypedFieldIsACatalogueLineOfItsKind) {
  const std::map<std::string, std::string> catalogue = catalogue_kinds();
  std::vector<std::string> problems;
  for (const auto& [path, kind] : typed_kinds()) {
    if (kind == "record" || kind == "open record" || kind == "map") continue;
    bool found = false;
    for (const std::string& p : paths_of_shared_record(path)) {
      for (const auto& [c, c_kind] : catalogue) {
        if (kind == "any" ? (c == p || c.starts_with(p + ".") || c.starts_with(p + "[]")) : matches(p, c)) {
          found = true;
          if (kind != "any" && !kinds_agree(kind, c_kind)) problems.push_back(c + ": " + kind + " in the model, " + c_kind + " in the catalogue");
        }
      }
    }
    if (!found) problems.push_back(path + ": a member of the typed model, no line in results/fields.txt");
  }
  EXPECT_TRUE(problems.empty()) << testing::PrintToString(problems);
}

TEST(ResultsFields, EveryCatalogueLineUnderATypedRecordIsHeldByAMember) {
  const std::map<std::string, std::string> typed = typed_kinds();
  ASSERT_GT(typed.size(), 300u);
  std::vector<std::string> problems;
  for (const CatalogueField& f : catalogue_fields()) {
    if (const std::string why = not_held(f.path, typed); !why.empty()) problems.push_back(why);
  }
  EXPECT_TRUE(problems.empty()) << testing::PrintToString(problems);
  // The check itself: a field of a typed record that no member holds is found.
  EXPECT_NE(not_held("benchmarks[].labels.flavour", typed), "");
  EXPECT_NE(not_held("roofline.placements[].roof.flavour", typed), "");
  EXPECT_NE(not_held("roofline.dequant_ceilings[].flavour", typed), "");  // a table typed (issue 61, step 3)
  EXPECT_NE(not_held("roofline.memory_levels[].flavour", typed), "");     // and the memory levels (DetectedLevelRecord)
  for (const char* table : {"theoretical_peaks", "crossovers", "best_backends", "roof_violations", "dequant_table",
                            "compute_table", "dequant_placements"}) {
    EXPECT_NE(not_held(std::string("roofline.") + table + "[].flavour", typed), "") << table;
  }
  EXPECT_NE(not_held("roofline.roof_violations[].roof.flavour", typed), "");
  EXPECT_NE(not_held("roofline.dequant_placements[].roof.memory.flavour", typed), "");
  EXPECT_NE(not_held("roofline.matrix_engine.flavour", typed), "");  // and the matrix engine's summary
  EXPECT_NE(not_held("roofline.matrix_engine.ratios[].flavour", typed), "");
  EXPECT_EQ(not_held("roofline.conventions.flop", typed), "");  // the conventions: a map of topics
  EXPECT_EQ(not_held("context.suites.gemm.flavour", typed), "");  // a section not typed yet
  EXPECT_EQ(not_held("context.machine.isa.avx2", typed), "");     // a map's key
}

// Every catalogue line says what its field means ("path kind meaning, with its unit"): every line a typed record
// holds does. The lines of sections not typed yet, written before meanings were asked for, are counted down here as
// they get theirs (each gets one when its section is typed): a new line without a meaning fails either way.
TEST(ResultsFields, EveryCatalogueLineSaysWhatItMeans) {
  constexpr std::size_t kUntypedLinesStillWithoutMeaning = 149;
  const std::map<std::string, std::string> typed = typed_kinds();
  std::vector<std::string> typed_without, untyped_without;
  for (const CatalogueField& f : catalogue_fields()) {
    if (!f.meaning.empty()) continue;
    (holding(f.path, typed) == Holding::untyped_section ? untyped_without : typed_without).push_back(f.path);
  }
  EXPECT_TRUE(typed_without.empty()) << "fields of typed records without a meaning: " << testing::PrintToString(typed_without);
  EXPECT_LE(untyped_without.size(), kUntypedLinesStillWithoutMeaning)
      << "the last: " << (untyped_without.empty() ? "" : untyped_without.back());
}

}  // namespace roofline
