// The typed GEMM labels of a benchmark entry: see gemm_labels.hpp.
#include "roofline/common/gemm_labels.hpp"

#include <cmath>

namespace roofline {
using nlohmann::json;

namespace {

std::int64_t positive_integer(const json& labels, const char* key) {
  if (!labels.contains(key) || !labels[key].is_number()) return 0;
  const double v = labels[key].get<double>();
  return std::isfinite(v) && v > 0.0 && v == std::floor(v) ? static_cast<std::int64_t>(v) : 0;
}

}  // namespace

double GemmLabels::operand_bytes() const {
  if (element.a <= 0 || element.b <= 0 || element.c <= 0) return 0.0;
  return gemm_compulsory_bytes(shape, element);
}

json gemm_labels_json(const GemmShape& shape, const OperandBytes& element) {
  return {{"m", shape.m},       {"n", shape.n},       {"k", shape.k},      {"batch", shape.n},
          {"a_bytes", element.a}, {"b_bytes", element.b}, {"c_bytes", element.c}};
}

std::optional<GemmLabels> read_gemm_labels(const json& labels) {
  if (!labels.is_object()) return std::nullopt;
  GemmLabels g;
  g.shape.m = positive_integer(labels, "m");
  g.shape.k = positive_integer(labels, "k");
  g.shape.n = positive_integer(labels, "batch");
  if (g.shape.n == 0) g.shape.n = positive_integer(labels, "n");
  if (g.shape.m == 0 || g.shape.k == 0 || g.shape.n == 0) return std::nullopt;
  g.element = {static_cast<int>(positive_integer(labels, "a_bytes")), static_cast<int>(positive_integer(labels, "b_bytes")),
               static_cast<int>(positive_integer(labels, "c_bytes"))};
  return g;
}

}  // namespace roofline
