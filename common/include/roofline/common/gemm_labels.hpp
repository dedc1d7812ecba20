// The GEMV/GEMM labels of a benchmark entry, typed (issue 35): one writer, which every target's GEMM suite calls
// (the CPU's backends, CLBlast, cuBLASLt, the test target), and one reader, which every placement uses (since issue 61
// over the typed labels: roofline/records/gemm_labels.hpp, read_gemm_labels). The labels
// hold the shape (m, k, batch = n) and the operands' ELEMENT sizes in bytes (a_bytes, b_bytes, c_bytes: A is MxK,
// B is KxN, C is MxN); the compulsory operand bytes follow from them by roofline/common/gemm_count.hpp, never read back as
// a label. (Two readers once disagreed: the device path summed a/b/c_bytes as whole operands, so every device GEMM
// came out as ~12 bytes and was placed on its innermost level.) In common since issue 47: the targets write them,
// the analysis reads them, and neither includes the other.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "roofline/common/gemm_count.hpp"

namespace roofline {

struct GemmLabels {
  GemmShape shape;       // m, n (the batch), k
  OperandBytes element;  // element sizes of A, B, C (0 where the entry names none)
  // Every input read once and the output written once (gemm_compulsory_bytes); 0 without element sizes.
  [[nodiscard]] double operand_bytes() const;
};

// {"m", "n", "k", "batch", "a_bytes", "b_bytes", "c_bytes"}: merge into an entry's labels.
nlohmann::json gemm_labels_json(const GemmShape& shape, const OperandBytes& element);

}  // namespace roofline
