// `roofline run`: measures this machine (the suites in bench/targets/cpu/suites.cpp), derives the roofline, writes the
// results file atomically and the HTML report beside it, and prints the summary. With --mpi, every rank of an
// MPI job does so for its node and rank 0 writes one fleet file instead (run_mpi_command).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "roofline/common/atomic_file.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/report/report.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/harness/environment.hpp"
#include "roofline/cpu/gemm_plan.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/facts/memory.hpp"
#include "roofline/drivers/mpi_run.hpp"
#include "roofline/facts/pinning.hpp"
#include "roofline/harness/profile.hpp"
#include "roofline/harness/progress.hpp"
#include "roofline/harness/run_config.hpp"
#include "roofline/harness/runner.hpp"
#include "roofline/harness/measure.hpp"
#include "roofline/cpu/suite.hpp"
#include "roofline/harness/target.hpp"

namespace roofline::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct RunArgs {
  std::string profile = "quick";
  std::string threads;
  bool threads_given = false;  // --threads "" is an error, not the default
  std::string bind = "compact";
  std::string max_isa;
  std::string suites;
  std::string sizes;
  std::string gemm_shape;
  std::string batches;
  std::string backends;
  std::string out;
  bool force = false;
  bool quiet = false;
  bool no_report = false;
  bool mpi = false;
  bool plan = false;  // --plan: print the plan, measure nothing
  std::vector<std::string> targets;  // --target, repeatable
  bool no_cpu = false;
};

}  // namespace

std::string default_results_name(const MachineFacts& m) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char date[32];
  std::strftime(date, sizeof date, "%Y%m%d-%H%M%S", &tm);
  std::string host = m.hostname;
  for (char& c : host) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  }
  return fmt::format("{}_{}_{}.json", host, date, m.git_revision);
}

Measured measure_and_derive(const MachineFacts& machine, const RunConfig& config,
                            std::vector<std::unique_ptr<Target>>& targets) {
  Measured m = measure(machine, config, targets);
  // The measurement derives nothing (issue 47): the CLI does, from the run's typed records.
  m.doc["roofline"] = to_json(derive_roofline(read_records(m.doc, "the measured run", ReadMode::lenient, false)));
  return m;
}

namespace {

// The ISA levels --max-isa takes, lowest first, from the vocabulary (scalar ... amx).
std::string isa_names() {
  std::vector<std::string_view> names;
  for (int i = 0; i <= static_cast<int>(Isa::amx); ++i) names.push_back(to_string(static_cast<Isa>(i)));
  return fmt::format("{}", fmt::join(names, ", "));
}

RunConfig make_config(const RunArgs& a, const MachineFacts& m) {
  RunConfig c;
  c.profile = parse_profile(a.profile);
  c.bind = parse_bind_policy(a.bind);
  const int all = m.cores > 0 ? m.cores : 1;
  c.thread_counts = !a.threads_given ? parse_thread_list(all > 1 ? "1,all" : "1", all)
                                      : parse_thread_list(a.threads, m.pus);
  if (!a.max_isa.empty()) {
    const auto isa = parse_isa(a.max_isa);
    if (!isa) throw InputError(fmt::format("--max-isa '{}': expected one of {}", a.max_isa, isa_names()));
    c.max_isa = *isa;
  }
  c.features = m.isa.capped(c.max_isa);
  c.memory_budget_bytes = memory_budget(MemoryInfo{m.memory_total_bytes, m.memory_available_bytes, m.memory_source});
  if (!a.suites.empty()) {
    c.suites = parse_name_list(a.suites, "--suites");
    for (const std::string& s : c.suites) {
      const bool known = std::find(kSuiteNames.begin(), kSuiteNames.end(), s) != kSuiteNames.end();
      if (!known) {
        throw InputError(fmt::format("--suites: unknown suite '{}' (expected {})", s, fmt::join(kSuiteNames, ", ")));
      }
    }
  }
  if (!a.sizes.empty()) c.sizes = parse_size_list(a.sizes, c.memory_budget_bytes);
  if (!a.gemm_shape.empty()) std::tie(c.gemm_m, c.gemm_k) = parse_gemm_shape(a.gemm_shape);
  if (!a.batches.empty()) c.batches = parse_batches(a.batches);
  if (!a.backends.empty()) c.backends = parse_name_list(a.backends, "--backends");
  c.quiet = a.quiet;
  return c;
}

void run_command(const RunArgs& a, CliState& state) {
  const MachineFacts machine = detect_machine();
  register_built_targets(machine);
  const RunConfig config = make_config(a, machine);
  std::vector<std::unique_ptr<Target>> targets = open_targets(a.targets, a.no_cpu, config);
  if (a.plan) {
    // What a run with these flags would measure, from the machine facts and the profile alone: two calls print
    // the same text.
    std::printf("roofline run --plan: %s profile, threads %s\n%s", std::string(to_string(config.profile)).c_str(),
                fmt::format("{}", fmt::join(config.thread_counts, ",")).c_str(), plan_run(targets, config).text().c_str());
    return;
  }
  const Overwrite overwrite = a.force ? Overwrite::yes : Overwrite::no;

  fs::path out = a.out;
  if (out.empty()) {
    std::error_code ec;
    fs::create_directories("results", ec);
    out = fs::path("results") / default_results_name(machine);
  }
  fs::path html = out;
  html.replace_extension(".html");
  // Bad GEMM flags (a shape that does not fit, an unknown backend) fail now, not after the other suites.
  if (config.wants_suite("gemm")) (void)plan_gemm(config);
  // Every destination is checked before minutes of measuring, so a bad --out costs nothing.
  check_destination(out, overwrite, "--out");
  if (!a.no_report) check_destination(html, overwrite, "report");

  Measured m = measure_and_derive(machine, config, targets);
  const json& doc = m.doc;
  write_file_atomically(out, doc.dump(2) + "\n", overwrite);
  // The report reads what was written as every command reads it: the typed results model.
  const ResultsDocument results = read_results(doc, out.string());
  if (!a.no_report) write_file_atomically(html, render_html_report(results), overwrite);

  if (!config.quiet) {
    std::fputs(render_text_summary(results).c_str(), stdout);
    std::printf("\nresults  %s\n", out.string().c_str());
    if (!a.no_report) std::printf("report   %s\n", html.string().c_str());
    std::printf("took     %.1f s (%s profile)\n", m.seconds, std::string(to_string(config.profile)).c_str());
  }
  // The invariant the tool enforces on itself: a placement above 110% of its roof is a missing ceiling or a
  // wrong count. Loud on the terminal (stderr, even with --quiet), named in the results and the report;
  // the run still exits 0, since every number in it is what was measured.
  warn_roof_violations(results, !config.quiet);
  if (!m.failures.empty()) {
    for (const std::string& f : m.failures) std::fprintf(stderr, "roofline: FAILED %s\n", f.c_str());
    std::fprintf(stderr, "roofline: %zu benchmark(s) failed validation; their entries are marked in %s\n",
                 m.failures.size(), out.string().c_str());
    state.exit_code = 1;
  }
}

// `run --mpi`: every rank measures its node (bench/drivers/mpi_run.cpp), rank 0 writes the fleet file (default
// results/fleet_<host>_<date>_<revision>.json) and the fleet report beside it (bench/cli/cmd_fleet.cpp).
void run_mpi_command(const RunArgs& a, CliState& state) {
  struct Prepared {
    MachineFacts machine;
    RunConfig config;
    std::vector<std::unique_ptr<Target>> targets;
    fs::path out;
  };
  auto p = std::make_shared<Prepared>();
  MpiRunHooks hooks;
  hooks.prepare = [&a, p] {
    p->machine = detect_machine();
    register_built_targets(p->machine);
    p->config = make_config(a, p->machine);
    p->targets = open_targets(a.targets, a.no_cpu, p->config);
    if (p->config.wants_suite("gemm")) (void)plan_gemm(p->config);
  };
  hooks.check_outputs = [&a, p] {
    p->out = a.out;
    if (p->out.empty()) {
      std::error_code ec;
      fs::create_directories("results", ec);
      p->out = fs::path("results") / ("fleet_" + default_results_name(p->machine));
    }
    check_fleet_destinations(p->out, !a.no_report, a.force ? Overwrite::yes : Overwrite::no);
  };
  hooks.measure = [p](const json& mpi) {
    json doc = measure_and_derive(p->machine, p->config, p->targets).doc;
    doc["context"]["mpi"] = mpi;
    return doc;
  };
  hooks.finish = [&a, p](const FleetDocument& fleet) {
    return finish_fleet_run(fleet, p->out, !a.no_report, a.force ? Overwrite::yes : Overwrite::no, a.quiet);
  };
  state.exit_code = run_under_mpi(hooks);
}

// The --profile help: each profile's time budget per suite, from the profile table (bench/harness/profile.cpp).
std::string profile_help() {
  const auto line = [](Profile p) {
    const auto list = [p](bool device) {
      std::vector<std::string> parts;
      for (const char* suite : {"bandwidth", "compute", "gemm", "transfer", "latency"}) {
        const double s = suite_budget_seconds(p, device, suite);
        if (s > 0.0) parts.push_back(fmt::format("{} {:.0f} s", suite, s));
      }
      return fmt::format("{:.0f} s ({})", profile_budget_seconds(p, device), fmt::join(parts, ", "));
    };
    return fmt::format("{}: CPU {}, each --target device {}", to_string(p), list(false), list(true));
  };
  return fmt::format("quick, full or gate (the CI gate's paired rounds: every key figure once, cheaply). Time budgets, "
                     "per target: {}; {}; {}. The CPU's shape its plan before anything is "
                     "measured (--plan prints it; fewer sizes per octave when over); nothing is cut at run time. A device "
                     "target's suites stop starting work past their budget (context.time_budget)",
                     line(Profile::quick), line(Profile::full), line(Profile::gate));
}

}  // namespace

void add_run_command(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand("run", "Measure this machine: ceilings, GEMV/GEMM placements, results file and report");
  auto a = std::make_shared<RunArgs>();
  cmd->add_option("--profile", a->profile, profile_help())
      ->envname("ROOFLINE_PROFILE")->capture_default_str();
  cmd->add_option("--threads", a->threads, "Thread counts to measure, e.g. 1,2 or all (default: 1 and all cores)")
      ->envname("ROOFLINE_THREADS");
  cmd->add_option("--bind", a->bind, "Thread binding: compact, spread or none")->envname("ROOFLINE_BIND")->capture_default_str();
  cmd->add_option("--max-isa", a->max_isa, fmt::format("Highest ISA kernels may use: {} (default: the highest this CPU "
                                                       "has; avx512 also caps oneDNN below AMX)", isa_names()))
      ->envname("ROOFLINE_MAX_ISA");
  // The list comes from the harness's own: a help text that restated it had lost two suites.
  cmd->add_option("--suites", a->suites,
                  fmt::format("Suites to run: {} (default: all; transfer and latency are the --target devices')",
                              fmt::join(kSuiteNames, ",")));
  cmd->add_option("--sizes", a->sizes, "Bandwidth working-set sizes, e.g. 32KiB,1MiB,256MiB (default: the profile's sweep)");
  cmd->add_option("--gemm-shape", a->gemm_shape, "GEMM weights shape M,K (default: the profile's)");
  cmd->add_option("--batches", a->batches, "GEMM batch sizes N, e.g. 1,16,256 (default: 1,2,4,...,1024)");
  cmd->add_option("--backends", a->backends, "GEMM backends: eigen,onednn,openblas (default: all built)");
  cmd->add_option("--out", a->out, "Results file (default: results/<host>_<date>_<revision>.json)")->type_name("FILE");
  cmd->add_flag("--force", a->force, "Overwrite existing output files");
  cmd->add_flag("--quiet", a->quiet, "No progress (on stderr: a line kept up to date on a terminal, one line per suite "
                                    "otherwise) and no summary");
  cmd->add_flag("--no-report", a->no_report, "Do not write the HTML report beside the results");
  cmd->add_option("--target", a->targets,
                  "Also measure this target: an id from `roofline devices` (opencl:0.0, cuda:0), a part of its name, or all")
      ->delimiter(',');
  cmd->add_flag("--no-cpu", a->no_cpu, "Measure only the --target devices, not the host CPU");
  cmd->add_flag("--plan", a->plan, "Print the plan (every benchmark with its repetitions and estimated time, fixed "
                                  "before the first measurement) and measure nothing");
  cmd->add_flag("--mpi", a->mpi, "Under mpirun or srun: every rank measures its node, rank 0 writes one fleet file and report");
  cmd->callback([a, cmd, &state] {
    // A flag given with an empty value is an error, never "use the default".
    for (const char* flag : {"--profile", "--threads", "--bind", "--max-isa", "--suites", "--sizes", "--gemm-shape",
                             "--batches", "--backends", "--out", "--target"}) {
      const CLI::Option* opt = cmd->get_option(flag);
      if (opt->count() > 0 && opt->as<std::string>().find_first_not_of(' ') == std::string::npos) {
        throw InputError(fmt::format("{}: empty value", flag));
      }
    }
    a->threads_given = cmd->get_option("--threads")->count() > 0 || std::getenv("ROOFLINE_THREADS") != nullptr;
    if (a->mpi) {
      run_mpi_command(*a, state);
    } else {
      run_command(*a, state);
    }
  });
}

}  // namespace roofline::cli
