// Paired A/B rounds: spawning the two builds' `run` in random order, collecting each round's key
// figures and environment, and extending the rounds while unclear. See paired_runs.hpp.
#include "roofline/drivers/paired_runs.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/regress/identity.hpp"
#include "roofline/model/key_figures.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/results_document.hpp"

extern char** environ;

namespace roofline {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Runs `bin run --out OUT --force --no-report --quiet FLAGS...` with stdout to /dev/null (stderr stays
// visible: a failing run says why) and returns its results.
ResultsDocument run_one(const std::string& bin, const fs::path& out, const std::vector<std::string>& flags) {
  std::vector<std::string> args{bin, "run", "--out", out.string(), "--force", "--no-report", "--quiet"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, bin.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw InputError(fmt::format("{}: cannot run ({})", bin, std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw InputError(fmt::format("{} run {}: {} {}", bin, fmt::join(flags, " "),
                                 WIFEXITED(status) ? "exited with" : "was killed by signal",
                                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status)));
  }
  return load_results_document(out);
}

void add_round(PairedRounds& rounds, const ResultsDocument& base, const ResultsDocument& next, const GateOptions& gate) {
  // key_figures.hpp reads the JSON a document writes (the key figures are not on the typed model yet).
  std::map<std::string, double> b;
  for (const KeyFigure& f : key_figures(to_json(base))) b[f.id] = f.value;
  const std::vector<KeyFigure> n = key_figures(to_json(next));
  if (rounds.rounds == 0) {
    for (const KeyFigure& f : n) {
      if (b.contains(f.id)) rounds.figures.push_back(f);
    }
  }
  for (const KeyFigure& f : n) {
    if (b.contains(f.id)) {
      rounds.base[f.id].push_back(b[f.id]);
      rounds.next[f.id].push_back(f.value);
    }
  }
  rounds.environments.push_back(check_environment(base, gate.max_canary_drift, gate));
  rounds.environments.push_back(check_environment(next, gate.max_canary_drift, gate));
  ++rounds.rounds;
}

}  // namespace

PairedResult run_paired(const PairedOptions& o, const GateOptions& gate, const std::function<void(const std::string&)>& log) {
  if (o.rounds < 1 || o.max_rounds < o.rounds) throw InputError("--rounds must be at least 1 and --max-rounds at least --rounds");
  for (const std::string& bin : {o.base_bin, o.next_bin}) {
    if (bin.find('/') != std::string::npos && ::access(bin.c_str(), X_OK) != 0) {
      throw InputError(fmt::format("{}: not an executable file", bin));
    }
  }
  PairedResult result;
  result.seed = o.seed != 0 ? o.seed : std::random_device{}();
  std::mt19937 rng(result.seed);
  std::vector<std::string> mismatch;
  for (int r = 1;; ++r) {
    const bool base_first = std::uniform_int_distribution<int>(0, 1)(rng) == 0;
    result.order.push_back(base_first ? "AB" : "BA");
    ResultsDocument base, next;
    for (int i = 0; i < 2; ++i) {
      const bool is_base = (i == 0) == base_first;
      const fs::path out = o.work_dir / fmt::format("round{:02d}_{}.json", r, is_base ? "base" : "new");
      log(fmt::format("round {}: {} ({})", r, is_base ? "base" : "new", is_base ? o.base_bin : o.next_bin));
      (is_base ? base : next) = run_one(is_base ? o.base_bin : o.next_bin, out, o.run_flags);
    }
    if (r == 1) {
      mismatch = fact_differences(machine_facts(base), machine_facts(next));
      if (!mismatch.empty() && !o.allow_machine_mismatch) {
        throw InputError(fmt::format("{} and {} report different machines ({}); pass --allow-machine-mismatch to compare anyway",
                                     o.base_bin, o.next_bin, fmt::join(mismatch, "; ")));
      }
      result.configuration_differences = fact_differences(configuration_facts(base), configuration_facts(next));
    }
    add_round(result.rounds, base, next, gate);
    if (r < o.rounds) continue;
    result.gate = gate_paired(result.rounds, gate, r >= o.max_rounds);
    if (!paired_unclear(result.gate) || r >= o.max_rounds) break;
    if (r + 1 < o.max_rounds) log(fmt::format("unclear after {} rounds: extending (limit {})", r, o.max_rounds));
  }
  return result;
}

}  // namespace roofline
