// A hybrid CPU's figures per core kind (issue 62): the entries measured at 1 thread on a PU of each kind (the suites
// "clock_kind", "compute_kind" and "bandwidth_kind", labels.core_kind) derived, kind by kind, by the one compute and the
// one memory derivation every target's entries go through (compute_ceilings.hpp, memory_ceilings.hpp), as if each kind
// were a machine of its own; their rows kept apart from the section's compute and memory ceilings (which stay the
// run's, as on a machine of one kind) in roofline.core_kind_ceilings, each naming its kind.
#pragma once

#include <string>
#include <vector>

#include "roofline/model/results_targets.hpp"

namespace roofline {

// The kinds `part`'s entries were measured on, in the order they first appear; empty on a machine of one kind.
std::vector<std::string> measured_core_kinds(const ResultsDocument& part);

// {"core_kind_ceilings", "notes"} of `target`'s part (target_document): per kind, its compute ceilings ("figure":
// "compute") and its memory levels' ceilings ("memory"); each part's notes prefixed with "core kind NAME: ". Empty (no
// table) when no entry names a kind.
RooflineSection derive_core_kind_ceilings(const ResultsDocument& part, const RecordedTarget& target);

}  // namespace roofline
