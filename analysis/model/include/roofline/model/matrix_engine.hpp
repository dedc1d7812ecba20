// What the matrix engine (AMX tiles) adds on this machine, in a sentence per precision: the ratio of its
// measured ceiling to the vector units' (AMX over AVX-512), or, where no matrix-unit roof was measured, why
// not (the CPU lacks AMX, the OS or a hypervisor does not let it run, --max-isa capped it, or the file was
// measured by a version without tile kernels). Shown by the report under the compute table and in the notes.
#pragma once

#include <vector>

#include "roofline/model/results_document.hpp"
#include "roofline/model/results_targets.hpp"  // RecordedTarget

namespace roofline {

// roofline.matrix_engine, typed: roofs (any matrix ceiling measured), lines (sentences) and ratios ({precision,
// threads, matrix, vector, vector_isa, ratio}) from the compute ceilings just derived for `target`, its facts
// (RecordedTarget::matrix_engine_status, _source, _advertised) and the run's typed context (max_isa, the compute suite's
// unsupported rows).
MatrixEngineRecord matrix_engine_summary(const ResultsContext& context, const RecordedTarget& target,
                                         const std::vector<ComputeCeilingRecord>& compute_ceilings);

}  // namespace roofline
