// Experts touched per layer under a routing law: see moe.hpp.
#include "roofline/llm/moe.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline::llm {

double experts_touched(const Routing& r, std::int64_t experts, std::int64_t top_k, std::int64_t tokens) {
  const double e = static_cast<double>(experts), k = static_cast<double>(top_k), t = static_cast<double>(tokens);
  switch (r.law) {
    case RoutingLaw::uniform: return e * (1.0 - std::pow(1.0 - k / e, t));
    case RoutingLaw::best: return k;
    case RoutingLaw::worst: return std::min(e, t * k);
    case RoutingLaw::touched: return std::min(r.touched, t * k);
  }
  return e;
}

Routing parse_routing(const std::string& text) {
  if (text == "uniform") return {};
  if (text == "best") return {RoutingLaw::best, 0.0};
  if (text == "worst") return {RoutingLaw::worst, 0.0};
  if (text.rfind("touched=", 0) == 0) {
    const std::string n = text.substr(8);
    char* end = nullptr;
    const double v = n.empty() ? 0.0 : std::strtod(n.c_str(), &end);
    if (end != nullptr && *end == '\0' && std::isfinite(v) && v > 0.0) return {RoutingLaw::touched, v};
  }
  throw InputError(fmt::format("--routing '{}': expected uniform (E x (1 - (1 - k/E)^B) experts per layer), best (k), "
                               "worst (min(E, B x k)) or touched=N (N experts per layer per step, measured)", text));
}

void check_routing(const Routing& r, std::int64_t experts, std::int64_t top_k) {
  if (r.law != RoutingLaw::touched) return;
  if (r.touched < static_cast<double>(top_k) || r.touched > static_cast<double>(experts)) {
    throw InputError(fmt::format("--routing touched={}: a step touches between num_experts_per_tok ({}) and the experts "
                                 "of a layer ({})", r.touched, top_k, experts));
  }
}

std::string describe_routing(const Routing& r) {
  switch (r.law) {
    case RoutingLaw::uniform: return "uniform routing: E x (1 - (1 - k/E)^T) distinct experts per layer for T tokens";
    case RoutingLaw::best: return "best case (--routing best): all tokens routed to the same k experts";
    case RoutingLaw::worst: return "worst case (--routing worst): min(E, T x k) distinct experts per layer";
    case RoutingLaw::touched: return fmt::format("--routing touched={}: min({}, T x k) experts per layer", r.touched, r.touched);
  }
  return "";
}

}  // namespace roofline::llm
