// The GEMM labels' one reader (issue 35; issue 61: over the typed labels): the shape and operand element sizes of a
// benchmark entry's typed labels, which every placement reads. The one writer, gemm_labels_json, is in common
// (roofline/common/gemm_labels.hpp), below the targets that call it; the labels it writes are read into EntryLabels
// by the records' one reader, and from there here.
#pragma once

#include <optional>

#include "roofline/common/gemm_labels.hpp"
#include "roofline/records/results_document.hpp"

namespace roofline {

// The shape and element sizes of an entry's labels; nullopt when m, k or the batch (batch, else n) is missing, not a
// number or not a positive whole number. Element sizes that are missing or not positive whole numbers read as 0. A
// label the typed read kept in `extra` (a whole number written as a float) is read as a reader of the file's JSON read it.
std::optional<GemmLabels> read_gemm_labels(const EntryLabels& labels);

}  // namespace roofline
