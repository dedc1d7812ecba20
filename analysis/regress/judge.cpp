// The one directional threshold test and the verdict names. See judge.hpp.
#include "roofline/regress/judge.hpp"

#include "roofline/common/name_table.hpp"

namespace roofline {

std::string_view to_string(Verdict verdict) {
  static constexpr NameTable<Verdict, 6> kNames{{{Verdict::ok, "ok"},
                                                 {Verdict::improvement, "improvement"},
                                                 {Verdict::regression, "regression"},
                                                 {Verdict::unclear, "unclear"},
                                                 {Verdict::not_worse, "not_worse"},
                                                 {Verdict::undecided, "undecided"}}};
  return name_of(kNames, verdict, "");
}

Verdict judge(bool higher_is_better, double change, double threshold, Evidence evidence) {
  const double better_by = higher_is_better ? change : -change;  // > 0: better
  if (better_by < -threshold) return evidence.worse ? Verdict::regression : Verdict::unclear;
  if (better_by > threshold && evidence.better) return Verdict::improvement;
  return Verdict::ok;
}

}  // namespace roofline
