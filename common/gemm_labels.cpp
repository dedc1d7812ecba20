// The typed GEMM labels of a benchmark entry: see gemm_labels.hpp.
#include "roofline/common/gemm_labels.hpp"

#include <cmath>

namespace roofline {
using nlohmann::json;

double GemmLabels::operand_bytes() const {
  if (element.a <= 0 || element.b <= 0 || element.c <= 0) return 0.0;
  return gemm_compulsory_bytes(shape, element);
}

json gemm_labels_json(const GemmShape& shape, const OperandBytes& element) {
  return {{"m", shape.m},       {"n", shape.n},       {"k", shape.k},      {"batch", shape.n},
          {"a_bytes", element.a}, {"b_bytes", element.b}, {"c_bytes", element.c}};
}

}  // namespace roofline
