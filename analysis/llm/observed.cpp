// MBU and MFU of an observed speed: see observed.hpp.
#include "roofline/llm/observed.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline::llm {

ObservedSpeeds parse_observed(const std::string& text) {
  ObservedSpeeds o;
  std::stringstream items(text);
  std::string item;
  const auto bad = [&](const std::string& why) {
    return InputError(fmt::format("--observed '{}': {}; expected decode=TPS[,prefill=TPS] (tokens/s)", text, why));
  };
  while (std::getline(items, item, ',')) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (eq == std::string::npos || (key != "decode" && key != "prefill")) throw bad(fmt::format("'{}' is not decode= or prefill=", item));
    const std::string value = item.substr(eq + 1);
    char* end = nullptr;
    const double v = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
    if (end == nullptr || *end != '\0' || !std::isfinite(v) || v <= 0.0) throw bad(fmt::format("'{}' is not a positive number", value));
    double& slot = key == "decode" ? o.decode : o.prefill;
    if (slot > 0.0) throw bad(fmt::format("{} given twice", key));
    slot = v;
  }
  if (o.decode <= 0.0 && o.prefill <= 0.0) throw bad("nothing given");
  return o;
}

Utilisation utilisation(const StepEstimate& s, double tokens, double tps, double dequant_rate) {
  Utilisation u;
  u.step_seconds = tokens / tps;
  u.mbu = s.bytes / u.step_seconds / s.bandwidth;
  u.mfu = s.flops / u.step_seconds / s.peak;
  // The step's dequantization time at its roof (a measured dequant-dot ceiling or the convention) over the
  // observed time; a hand-made step without the time falls back to the operations at the convention's rate.
  u.dequant = s.dequant_seconds > 0.0 ? s.dequant_seconds / u.step_seconds
                                      : dequant_rate > 0.0 ? s.dequant_ops / u.step_seconds / dequant_rate : 0.0;
  u.nearest = u.mfu > u.mbu ? Limit::compute : Limit::memory;
  if (u.dequant > std::max(u.mbu, u.mfu)) u.nearest = Limit::dequant;
  u.estimate_ratio = s.seconds / u.step_seconds;
  return u;
}

}  // namespace roofline::llm
