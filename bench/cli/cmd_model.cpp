// `roofline model`: the roofline calculator. Given a peak, a bandwidth and an arithmetic intensity, prints
// the attainable performance, the bound and the ridge point.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/model/model.hpp"
#include "roofline/common/units.hpp"

namespace roofline::cli {
namespace {
double parse_flag(const std::string& flag, const std::string& text, Quantity kind) {
  try {
    return parse_quantity(text, kind);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", flag, e.what()));
  }
}
}  // namespace

void add_model_command(CLI::App& app, CliState&) {
  auto* cmd = app.add_subcommand("model", "Roofline calculator: attainable = min(peak, bandwidth x AI)");
  struct Args {
    std::string peak, bandwidth, ai;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("--peak", args->peak, "Compute peak, e.g. 100T, 3.5 TFLOP/s, 400 TOPS")->required();
  cmd->add_option("--bandwidth", args->bandwidth, "Memory bandwidth, e.g. 2T, 60 GB/s")->required();
  cmd->add_option("--ai", args->ai, "Arithmetic intensity in FLOP/byte (or OP/byte), e.g. 10")->required();
  cmd->callback([args] {
    const double peak = parse_flag("--peak", args->peak, Quantity::compute_rate);
    const double bw = parse_flag("--bandwidth", args->bandwidth, Quantity::byte_rate);
    const double ai = parse_flag("--ai", args->ai, Quantity::plain);
    const bool ops = args->peak.find("OP") != std::string::npos && args->peak.find("FLOP") == std::string::npos;
    const std::string unit = ops ? "OP/s" : "FLOP/s";
    const RoofEvaluation e = evaluate_roof(peak, bw, ai);
    std::printf("attainable   %s\n", format_si(e.attainable, unit).c_str());
    std::printf("bound        %s%s\n", std::string(to_string(e.bound)).c_str(),
                e.at_ridge ? " (exactly at the ridge: both limits meet)" : "");
    std::printf("ridge point  %s/byte\n", fmt::format("{:.4g} {}", e.ridge_ai, ops ? "OP" : "FLOP").c_str());
    std::printf("inputs       peak %s, bandwidth %s, AI %.4g\n", format_si(peak, unit).c_str(),
                format_si(bw, "B/s").c_str(), ai);
  });
}

}  // namespace roofline::cli
