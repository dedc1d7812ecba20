// Mixture of experts at a step: how many distinct routed experts of a layer the step's tokens touch,
// which decides the expert weights it reads. Under uniform routing each of T token-slots (tokens x top_k,
// drawn without replacement within a token) misses a given expert with probability 1 - k/E, so the
// expected number touched is E x (1 - (1 - k/E)^T) for T tokens. --routing states another law.
#pragma once

#include <cstdint>
#include <string>

namespace roofline::llm {

enum class RoutingLaw {
  uniform,  // E x (1 - (1 - k/E)^tokens), the default
  best,     // every token routed to the same k experts: k touched
  worst,    // tokens spread as widely as they can: min(E, tokens x k)
  touched,  // a count the user measured: min(N, tokens x k)
};

struct Routing {
  RoutingLaw law = RoutingLaw::uniform;
  double touched = 0.0;  // RoutingLaw::touched: experts per layer per step
};

// Expected distinct experts of `experts` touched by `tokens` tokens routed to `top_k` each.
double experts_touched(const Routing& r, std::int64_t experts, std::int64_t top_k, std::int64_t tokens);

// uniform, best, worst or touched=N (N a number of experts; checked against the model by
// check_routing). Throws InputError naming --routing otherwise.
Routing parse_routing(const std::string& text);

// Throws InputError when `touched=N` is below top_k or above the experts of the model.
void check_routing(const Routing& r, std::int64_t experts, std::int64_t top_k);

// The law in words, for the output.
std::string describe_routing(const Routing& r);

}  // namespace roofline::llm
