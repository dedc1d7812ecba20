// What makes two results files the same machine, and what is only a run's configuration: decided here
// once for compare, the key-figure gate and its history, paired runs and fleet.
//   machine (hardware, runs of two machines are not compared unless allowed, fleet groups by it): the CPU
//     model, its cores, the ISA features the CPU has, and its memory rounded to GiB (MemTotal moves by a
//     few MiB with the kernel, which is no other machine);
//   configuration (compared, its differences stated): the ISA cap (--max-isa chooses which kernels run,
//     not what the CPU has), threads, profile, binding, SMT (hardware threads per core, which the OS can
//     switch off), compiler, flags, build type and random interleaving.
// The history matches runs on the machine identity and on the configuration facts marked
// `selects_history` (ISA cap, threads, profile, binding): a compiler change is what a gate must catch,
// so it stays in the same history.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"

namespace roofline {

// One fact, as the text the history keys and the differences show: strings as they are, integers and flags as
// written, other numbers as %g, lists as JSON ("[1,2]"). Two facts are the same when their texts are.
struct Fact {
  std::string name;
  std::optional<std::string> value;  // nullopt: not recorded (no evidence either way)
  bool selects_history = true;       // part of the identity key (machine_identity / configuration_identity)
};
using Facts = std::vector<Fact>;

// The facts of a roofline results file; "isa" is the sorted, comma-separated list of features present.
Facts machine_facts(const ResultsDocument& results);
Facts configuration_facts(const ResultsDocument& results);
// What plain Google Benchmark JSON says of its machine: num_cpus, caches, library_build_type.
Facts plain_machine_facts(const ResultsDocument& results);

// A fact's value as text; "" when not recorded.
std::string fact_text(const Fact& fact);
// "name=value;..." of the facts that select history: the keys the history database stores.
std::string identity_key(const Facts& facts);
std::string machine_identity(const ResultsDocument& results);        // identity_key(machine_facts(...))
std::string configuration_identity(const ResultsDocument& results);  // identity_key(configuration_facts(...))

// "name: A -> B" for each fact both sides recorded and disagree on ("isa: +amx_tile -avx512f" for ISA).
std::vector<std::string> fact_differences(const Facts& base, const Facts& next);

}  // namespace roofline
