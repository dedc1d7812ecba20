// Naming the plateaus of a bandwidth curve L1/L2/L3/DRAM, with the reported cache sizes as priors that the
// curve confirms or overrules: see label_levels in plateaus.hpp for the rules.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/model/plateaus.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

namespace {

// Reported capacities by level number (known[1..n] for the target's n cache names, 0 where unknown or implausible)
// and the deepest level reported (0: none). A reported level's number is its name's place among the target's.
struct Priors {
  std::vector<double> known;
  int count = 0;
};

Priors priors_of(const std::vector<ReportedLevel>& reported, const LevelNames& names) {
  Priors p;
  p.known.assign(names.caches.size() + 1, 0.0);
  for (const ReportedLevel& r : reported) {
    const auto at = std::find(names.caches.begin(), names.caches.end(), r.name);
    if (r.bytes <= 0.0 || at == names.caches.end()) continue;
    const int k = static_cast<int>(at - names.caches.begin()) + 1;
    // An implausible size still says the level exists (count), but not where it ends (known stays 0).
    if (r.plausible) p.known[static_cast<std::size_t>(k)] = r.bytes;
    p.count = std::max(p.count, k);
  }
  return p;
}

// A plateau with where it came from (plateaus merged into one level keep the first one's index).
struct Piece {
  Plateau plateau;
  std::size_t origin = 0;
};

// Merges pieces[j] and pieces[j + 1] into one level over both ranges; its bandwidth and origin are those of
// the piece kept (j when keep_first), so a stray plateau widens a level without changing its value.
void merge_pieces(std::vector<Piece>& pieces, std::size_t j, bool keep_first) {
  Piece& a = pieces[j];
  const Piece& b = pieces[j + 1];
  if (!keep_first) {
    a.plateau.level = b.plateau.level;
    a.origin = b.origin;
  }
  a.plateau.last = b.plateau.last;
  a.plateau.points += b.plateau.points;
  a.plateau.max_bytes = b.plateau.max_bytes;
  pieces.erase(pieces.begin() + static_cast<std::ptrdiff_t>(j) + 1);
}

std::string merge_note(const Piece& a, const Piece& b, const std::string& why) {
  return fmt::format("the plateaus {}..{} and {}..{} ({:.0f}% apart in bandwidth) are taken as one level: {}.",
                     format_bytes(a.plateau.min_bytes), format_bytes(a.plateau.max_bytes),
                     format_bytes(b.plateau.min_bytes), format_bytes(b.plateau.max_bytes),
                     100.0 * (a.plateau.level / std::max(b.plateau.level, 1e-300) - 1.0), why);
}

// More cache plateaus than reported levels: the reported sizes pick, in order, the plateaus whose knees lie
// nearest them (log scale); each other plateau joins the neighbouring cache plateau closer in bandwidth
// (never DRAM, whose roof must stay the large end's). `next_min`: where the plateau after the caches starts.
void fold_extra_plateaus(std::vector<Piece>& caches, double next_min, const Priors& priors,
                         std::vector<std::string>& notes) {
  const std::size_t c = caches.size(), r = static_cast<std::size_t>(priors.count);
  if (r == 0 || c <= r || c > 16) return;
  std::vector<double> knees;
  for (std::size_t j = 0; j < c; ++j) {
    knees.push_back(std::sqrt(caches[j].plateau.max_bytes * (j + 1 < c ? caches[j + 1].plateau.min_bytes : next_min)));
  }
  unsigned best_mask = 0;
  double best_cost = 1e300;
  for (unsigned mask = 0; mask < (1u << c); ++mask) {
    if (static_cast<std::size_t>(__builtin_popcount(mask)) != r) continue;
    double cost = 0.0;
    int k = 1;
    for (std::size_t j = 0; j < c; ++j) {
      if (!(mask & (1u << j))) continue;
      const double known = priors.known[static_cast<std::size_t>(k)];
      if (known > 0.0) cost += std::fabs(std::log2(knees[j] / known));
      ++k;
    }
    if (cost < best_cost) {
      best_cost = cost;
      best_mask = mask;
    }
  }
  std::vector<bool> chosen;
  for (std::size_t j = 0; j < c; ++j) chosen.push_back((best_mask >> j) & 1u);
  for (std::size_t j = 0; j < caches.size();) {
    if (chosen[j]) {
      ++j;
      continue;
    }
    const auto ratio = [&](std::size_t a, std::size_t b) {
      const double x = caches[a].plateau.level, y = caches[b].plateau.level;
      return std::max(x, y) / std::max(std::min(x, y), 1e-300);
    };
    const bool into_previous = j > 0 && (j + 1 >= caches.size() || ratio(j - 1, j) <= ratio(j, j + 1));
    const std::size_t first = into_previous ? j - 1 : j;
    notes.push_back(merge_note(caches[first], caches[first + 1], "the second matches no reported cache size"));
    merge_pieces(caches, first, into_previous);
    chosen[first] = true;
    chosen.erase(chosen.begin() + static_cast<std::ptrdiff_t>(first) + 1);
    j = first;
  }
}

// Index of the neighbouring pair closest in bandwidth, and their ratio (>= 1).
std::size_t closest_pair(const std::vector<Piece>& caches, double& ratio) {
  std::size_t best = 0;
  ratio = 1e300;
  for (std::size_t j = 0; j + 1 < caches.size(); ++j) {
    const double r = caches[j].plateau.level / std::max(caches[j + 1].plateau.level, 1e-300);
    if (r < ratio) {
      ratio = r;
      best = j;
    }
  }
  return best;
}

// Level numbers (1..n) for the cache pieces: in order when there are as many as reported (or nothing is
// reported); with fewer, the increasing assignment whose knees lie nearest the reported sizes (log scale).
std::vector<int> cache_numbers(const std::vector<double>& knees, const Priors& priors) {
  const int c = static_cast<int>(knees.size());
  std::vector<int> out;
  for (int j = 0; j < c; ++j) out.push_back(j + 1);
  if (priors.count == 0 || c >= priors.count || c == 0) return out;
  double best_cost = 1e300;
  // Every increasing choice of c levels among 1..count (a target's few cache levels: a handful of choices).
  for (int mask = 0; mask < (1 << priors.count); ++mask) {
    if (__builtin_popcount(static_cast<unsigned>(mask)) != c) continue;
    std::vector<int> pick;
    for (int k = 1; k <= priors.count; ++k) {
      if (mask & (1 << (k - 1))) pick.push_back(k);
    }
    double cost = 0.0;
    for (int j = 0; j < c; ++j) {
      const double known = priors.known[static_cast<std::size_t>(pick[j])];
      cost += known > 0.0 ? std::fabs(std::log2(knees[j] / known)) : 0.0;
    }
    if (cost < best_cost) {
      best_cost = cost;
      out = pick;
    }
  }
  return out;
}

// Where DRAM starts: its plateau's first size beyond the largest plausible cache (the plateau's own start when it
// lies beyond already, or when no cache is plausible).
double dram_start(const std::vector<CurvePoint>& curve, const Plateau& p, double largest) {
  if (!(largest > 0.0) || p.min_bytes > largest * 1.01) return p.min_bytes;
  for (const CurvePoint& c : curve) {
    if (c.bytes > largest * 1.01 && c.bytes <= p.max_bytes) return c.bytes;
  }
  return p.min_bytes;
}

}  // namespace

LevelLabels label_levels(const std::vector<CurvePoint>& curve, const std::vector<Plateau>& plateaus,
                         const std::vector<ReportedLevel>& reported, const LevelNames& names) {
  LevelLabels out;
  if (plateaus.empty()) return out;
  const Priors priors = priors_of(reported, names);
  // The largest plausible cache (an implausible size is no prior: known stays 0).
  double largest = 0.0;
  for (const double k : priors.known) largest = std::max(largest, k);
  std::vector<Piece> pieces;
  for (std::size_t j = 0; j < plateaus.size(); ++j) pieces.push_back({plateaus[j], j});

  // DRAM: the last plateau, when the curve says so or when the reading is undecidable but conservative.
  const Plateau& last = pieces.back().plateau;
  const std::size_t m = pieces.size();
  const bool at_end = last.last + 2 >= curve.size();
  bool last_is_dram = false;
  // DRAM only beyond every plausible cache (issue 46): the last plateau reaches at least twice the largest one, and
  // its range starts past it (the sizes of the plateau inside the cache are left to no level below). A plateau
  // from a few MiB to just past the L3 (a 2-vCPU guest's 4-45 MiB at 203 GB/s, L3 32 MiB) is that cache, or a host's
  // cache the guest shares: the sweep ended before DRAM.
  const bool past_caches = !(largest > 0.0) || last.max_bytes >= 2.0 * largest;
  if (m >= 2 && at_end && plateau_octaves(last) >= 1.0 - 1e-9 && past_caches) {
    last_is_dram = true;
  } else if (largest > 0.0 && last.min_bytes >= 2.0 * largest) {
    last_is_dram = true;
  } else if (m >= 2 && past_caches) {
    last_is_dram = true;
    out.notes.push_back(fmt::format(
        "the sweep cannot tell whether its largest sizes ({}..{}) are DRAM (flat for under an octave at the "
        "end, within twice the reported caches); they are taken as DRAM, the conservative reading.",
        format_bytes(last.min_bytes), format_bytes(last.max_bytes)));
  }
  std::vector<Piece> caches(pieces.begin(), pieces.end() - (last_is_dram ? 1 : 0));

  // More cache plateaus than levels: the reported sizes pick the levels; with nothing reported, the
  // neighbours closest in bandwidth merge down to three.
  fold_extra_plateaus(caches, last_is_dram ? last.min_bytes : caches.back().plateau.max_bytes, priors, out.notes);
  while (caches.size() > std::max<std::size_t>(names.caches.size(), 1)) {
    double ratio = 0.0;
    const std::size_t j = closest_pair(caches, ratio);
    out.notes.push_back(merge_note(caches[j], caches[j + 1], names.why_at_most));
    merge_pieces(caches, j, caches[j].plateau.points >= caches[j + 1].plateau.points);
  }
  std::vector<Piece> all = caches;
  if (last_is_dram) all.push_back(pieces.back());

  // Knees: where the curve leaves each cache plateau (the middle of the gap to the next plateau).
  std::vector<double> knees;
  for (std::size_t j = 0; j < caches.size(); ++j) {
    knees.push_back(j + 1 < all.size() ? std::sqrt(all[j].plateau.max_bytes * all[j + 1].plateau.min_bytes)
                                       : all[j].plateau.max_bytes);
  }
  const std::vector<int> numbers = cache_numbers(knees, priors);
  for (std::size_t j = 0; j < all.size(); ++j) {
    const Plateau& p = all[j].plateau;
    const bool is_cache = j < caches.size();
    LevelLabel l;
    l.level = is_cache ? names.caches.at(static_cast<std::size_t>(numbers[j] - 1)) : names.main;
    l.plateau = all[j].origin;
    l.min_bytes = is_cache ? p.min_bytes : dram_start(curve, p, largest);
    l.max_bytes = p.max_bytes;
    l.bandwidth = p.level;
    l.source = "curve";
    l.reported_bytes = is_cache ? priors.known[static_cast<std::size_t>(numbers[j])] : 0.0;
    l.agreement = "unchecked";
    if (j + 1 < all.size()) {
      const double lo = p.max_bytes, hi = all[j + 1].plateau.min_bytes;
      l.inferred_bytes = knees[j];
      if (is_cache && l.reported_bytes > 0.0) {
        const bool agrees = l.reported_bytes >= lo / 2.0 && l.reported_bytes <= hi * 2.0;
        l.agreement = agrees ? "agrees" : "disagrees";
        if (!agrees) {
          out.notes.push_back(fmt::format("{}: reported {} per the machine facts, but the curve leaves this plateau "
                                          "at about {} (between {} and {}); the curve is used.",
                                          l.level, format_bytes(l.reported_bytes), format_bytes(l.inferred_bytes),
                                          format_bytes(lo), format_bytes(hi)));
        }
      }
    } else if (is_cache) {
      out.notes.push_back(fmt::format("{}: the sweep ended on the {} plateau at {}: no {} plateau beyond every "
                                      "plausible cache was reached.", kWarningDramNotReached, l.level,
                                      format_bytes(curve.empty() ? l.max_bytes : curve.back().bytes), names.main));
      l.warning = kWarningDramNotReached;
    }
    out.levels.push_back(l);
  }
  // Reported levels the curve shows no plateau for (their knee coincides with another level's).
  for (int k = 1; k <= priors.count; ++k) {
    const double known = priors.known[static_cast<std::size_t>(k)];
    if (known <= 0.0 || caches.empty() || k < numbers.front()) continue;
    if (std::find(numbers.begin(), numbers.end(), k) == numbers.end() && (last_is_dram || k < numbers.back())) {
      out.notes.push_back(fmt::format("{} (reported {}) has no plateau of its own in the curve.",
                                      names.caches[static_cast<std::size_t>(k - 1)], format_bytes(known)));
    }
  }
  return out;
}

LevelDetection detect_levels(const std::vector<std::vector<CurvePoint>>& curves,
                             const std::vector<ReportedLevel>& reported, const PlateauOptions& options,
                             const LevelNames& names) {
  LevelDetection d;
  d.curve = combined_curve(curves);
  d.plateaus = find_plateaus(d.curve, options);
  d.labels = label_levels(d.curve, d.plateaus, reported, names);
  return d;
}

std::string level_from_reported(double bytes, const std::vector<ReportedLevel>& reported, const std::string& main_memory) {
  std::string last_name;
  double last_bytes = 0.0;
  for (const ReportedLevel& r : reported) {
    if (r.bytes <= 0.0 || !r.plausible) continue;  // a single size beyond every plausible cache is DRAM
    if (bytes <= r.bytes) return r.name;
    last_name = r.name;
    last_bytes = r.bytes;
  }
  if (last_bytes > 0.0 && bytes >= 2.0 * last_bytes) return main_memory;
  return "";  // nothing reported, or between the last level and twice its size: not decidable
}

}  // namespace roofline
