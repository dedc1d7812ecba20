// Machine facts: detection on the live machine (sanity only), JSON round trip, memory parsing, binding plans.
#include <gtest/gtest.h>

#include <omp.h>
#include <sched.h>
#include <sys/utsname.h>

#include <string>
#include <vector>

#include "roofline/common/errors.hpp"
#include "roofline/facts/core_kinds.hpp"
#include "roofline/facts/emulation.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/facts/memory.hpp"
#include "roofline/facts/pinning.hpp"
#include "support/gzip_json.hpp"

namespace roofline {
using nlohmann::json;

TEST(Machine, DetectsTheLiveMachineWithSources) {
  const MachineFacts m = detect_machine();
  EXPECT_GT(m.cores, 0);
  EXPECT_GE(m.pus, m.cores);
  EXPECT_FALSE(m.topology_source.empty());
  EXPECT_GT(m.memory_total_bytes, 0u);
  EXPECT_GT(m.memory_available_bytes, 0u);
  EXPECT_LE(m.memory_available_bytes, m.memory_total_bytes);
  for (const CacheInfo& c : m.caches) {
    EXPECT_GE(c.level, 1);
    EXPECT_LE(c.level, 3);
    EXPECT_GT(c.size_bytes, 0u);
    EXPECT_TRUE(c.source == "hwloc" || c.source == "cpuid" || c.source == "MIDR" || c.source == "sysconf") << c.source;
  }
  EXPECT_EQ(m.core_first_pu.size(), static_cast<std::size_t>(m.cores));
}

TEST(Machine, JsonRoundTrip) {
  const MachineFacts m = detect_machine();
  const json j = to_json(m);
  const MachineFacts back = machine_from_json(j);
  EXPECT_EQ(back.cpu_model, m.cpu_model);
  EXPECT_EQ(back.cores, m.cores);
  EXPECT_EQ(back.caches.size(), m.caches.size());
  EXPECT_EQ(back.isa.avx2, m.isa.avx2);
  EXPECT_EQ(back.isa.avx512_vnni, m.isa.avx512_vnni);
  EXPECT_EQ(to_json(back), j);
}

TEST(Machine, RecordedMachineWithoutCaches) {
  // A recorded VM (the EMR run of ../shared/recorded) as if its hwloc had reported nothing: cache_bytes
  // says unknown, formatting says so. Not the live machine: this runs the same everywhere.
  const std::string path = std::string(ROOFLINE_TEST_DATA_DIR) + "/golden/emr-2vcpu-amx_quick_a.json.gz";
  const json results = testing::load_gz(path);
  ASSERT_TRUE(results.is_object()) << path;
  json j = results["context"]["machine"];
  ASSERT_FALSE(j["caches"].empty());  // it had caches: the test takes them away
  const MachineFacts recorded = machine_from_json(j);
  EXPECT_EQ(recorded.cores, 2);
  EXPECT_GT(recorded.cache_bytes(1), 0u);
  j["caches"] = json::array();
  const MachineFacts m = machine_from_json(j);
  EXPECT_EQ(m.cpu_model, recorded.cpu_model);
  EXPECT_EQ(m.cache_bytes(1), 0u);
  EXPECT_NE(format_machine(m).find("inferred from the bandwidth curve"), std::string::npos);
}

TEST(Machine, MalformedFactsAreInputErrors) {
  EXPECT_THROW(machine_from_json(json::parse(R"({"cores": 2})")), InputError);
  json j = to_json(detect_machine());
  j["cores"] = "two";
  EXPECT_THROW(machine_from_json(j), InputError);
  j["cores"] = 0;
  EXPECT_THROW(machine_from_json(j), InputError);
}

// Emulation (issue 62): the kernel's architecture from its own files against the binary's; uname is no witness
// (qemu-user answers with the guest's machine), so the evidence names it as the architecture built for.
TEST(Emulation, KernelArchitectureFromItsFiles) {
  EXPECT_EQ(kernel_arch_from("x86_64\n", "cpu:type:aarch64:feature:,0000"), "x86_64");  // kernel.arch first
  EXPECT_EQ(kernel_arch_from("", "cpu:type:x86,ven0002fam0019mod0011:feature:,0000,0001\n"), "x86_64");
  EXPECT_EQ(kernel_arch_from("  \n", "cpu:type:aarch64:feature:,0000,0001,0002\n"), "aarch64");
  EXPECT_EQ(kernel_arch_from("", ""), std::nullopt);
  EXPECT_EQ(kernel_arch_from("", "cpu:type::feature:"), std::nullopt);
  EXPECT_EQ(kernel_arch_from("", "something else"), std::nullopt);
}

TEST(Emulation, VerdictComparesTheKernelsArchitectureWithTheBuilds) {
  const Emulation qemu = emulation_verdict("x86_64", "/proc/sys/kernel/arch", "aarch64");
  EXPECT_TRUE(qemu.emulated);
  EXPECT_NE(qemu.evidence.find("/proc/sys/kernel/arch: x86_64"), std::string::npos) << qemu.evidence;
  EXPECT_NE(qemu.evidence.find("built for aarch64"), std::string::npos) << qemu.evidence;
  const Emulation native = emulation_verdict("aarch64", "/sys/devices/system/cpu/modalias", "aarch64");
  EXPECT_FALSE(native.emulated);
  EXPECT_NE(native.evidence.find("aarch64"), std::string::npos);
  const Emulation unknown = emulation_verdict(std::nullopt, "/proc/sys/kernel/arch", "aarch64");
  EXPECT_FALSE(unknown.emulated);
  EXPECT_TRUE(unknown.evidence.empty());
}

TEST(Emulation, TheLiveVerdictNamesTheArchitectureUnameSays) {
  // Natively uname's machine is the kernel's and the build's; under qemu-user it is the build's (the guest's).
  const Emulation e = detect_emulation();
  if (e.evidence.empty()) GTEST_SKIP() << "neither /proc/sys/kernel/arch nor /sys/devices/system/cpu/modalias says";
  struct utsname u {};
  ASSERT_EQ(uname(&u), 0);
  EXPECT_NE(e.evidence.find(u.machine), std::string::npos) << e.evidence;
  const MachineFacts m = detect_machine();
  EXPECT_EQ(m.emulated, e.emulated);
  const json j = to_json(m);
  EXPECT_EQ(j.contains("emulated"), e.emulated);  // written only when true: a native run's file is unchanged
  EXPECT_EQ(machine_from_json(j).emulated, e.emulated);
  json marked = j;
  marked["emulated"] = true;
  marked["emulation"] = "/proc/sys/kernel/arch: x86_64, but this binary was built for aarch64";
  const MachineFacts back = machine_from_json(marked);
  EXPECT_TRUE(back.emulated);
  EXPECT_NE(format_machine(back).find("emulated"), std::string::npos);
  EXPECT_EQ(to_json(back)["emulation"], marked["emulation"]);
}

TEST(Memory, ParsesMeminfo) {
  const std::string meminfo = "MemTotal:       24576000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n";
  EXPECT_EQ(parse_meminfo_field(meminfo, "MemTotal"), 24576000ull * 1024);
  EXPECT_EQ(parse_meminfo_field(meminfo, "MemAvailable"), 20000000ull * 1024);
  EXPECT_FALSE(parse_meminfo_field(meminfo, "Mem").has_value());
  EXPECT_FALSE(parse_meminfo_field(meminfo, "SwapTotal").has_value());
}

TEST(Memory, ParsesCgroupLimits) {
  EXPECT_EQ(parse_cgroup_limit("8589934592\n"), 8589934592ull);
  EXPECT_FALSE(parse_cgroup_limit("max\n").has_value());
  EXPECT_FALSE(parse_cgroup_limit("9223372036854771712\n").has_value());  // v1 "unlimited"
  EXPECT_FALSE(parse_cgroup_limit("garbage").has_value());
  EXPECT_EQ(memory_budget(MemoryInfo{100, 100, ""}), 70u);
}

TEST(Pinning, CompactAndSpreadPlans) {
  MachineFacts m;
  m.cores = 4;
  m.pus = 8;
  m.core_first_pu = {0, 2, 4, 6};
  EXPECT_EQ(binding_plan(m, 2, BindPolicy::compact), (std::vector<int>{0, 2}));
  EXPECT_EQ(binding_plan(m, 2, BindPolicy::spread), (std::vector<int>{0, 4}));
  EXPECT_EQ(binding_plan(m, 4, BindPolicy::spread), (std::vector<int>{0, 2, 4, 6}));
  EXPECT_TRUE(binding_plan(m, 2, BindPolicy::none).empty());
}

TEST(Pinning, PinsTheLiveTeam) {
  const MachineFacts m = detect_machine();
  const auto plan = binding_plan(m, m.cores, BindPolicy::compact);
  ASSERT_EQ(plan.size(), static_cast<std::size_t>(m.cores));
  // Binding may be refused in some containers; it must then say so (false) rather than crash.
  if (!pin_openmp_threads(m.cores, plan)) GTEST_SKIP() << "binding refused here";
  // Each thread of the next team of the same size runs where the plan put it, and only there.
  std::vector<int> where(plan.size(), -1);
  std::vector<int> allowed(plan.size(), 0);
#pragma omp parallel num_threads(m.cores)
  {
    const int t = omp_get_thread_num();
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
      allowed[static_cast<std::size_t>(t)] = CPU_COUNT(&set);
      for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set)) where[static_cast<std::size_t>(t)] = cpu;
      }
    }
  }
  EXPECT_EQ(where, plan);
  for (int n : allowed) EXPECT_EQ(n, 1);
}

}  // namespace roofline

namespace roofline {
namespace {
// The machine facts as hwloc reads a recorded topology (tests/data/topology/README.md), this machine's PUs kept.
MachineFacts detect_with_topology(const std::string& file) {
  const std::string path = std::string(ROOFLINE_TEST_DATA_DIR) + "/topology/" + file;
  ::setenv("HWLOC_XMLFILE", path.c_str(), 1);
  ::setenv("HWLOC_THISSYSTEM", "1", 1);
  MachineFacts m = detect_machine();
  ::unsetenv("HWLOC_XMLFILE");
  ::unsetenv("HWLOC_THISSYSTEM");
  return m;
}
}  // namespace

// Issue 62: hwloc's cpukinds of a hybrid CPU (PU 0 IntelAtom, PU 1 IntelCore) become the facts' core kinds, written to
// context.machine.core_kinds and read back; each kind's measurements are bound to its PU.
TEST(CoreKinds, HybridTopologyListsEachKind) {
  const MachineFacts m = detect_with_topology("hybrid-2pu.xml");
  ASSERT_TRUE(m.hybrid());
  ASSERT_EQ(m.core_kinds.size(), 2u);
  const CoreKind& atom = m.core_kinds[0];
  const CoreKind& core = m.core_kinds[1];
  EXPECT_EQ(atom.name, "IntelAtom");
  EXPECT_EQ(atom.core_type, "IntelAtom");
  EXPECT_EQ(atom.pus, std::vector<int>{0});
  EXPECT_EQ(atom.efficiency, 0);
  EXPECT_EQ(atom.frequency_max_mhz, 3800);
  EXPECT_EQ(atom.frequency_base_mhz, 2400);
  EXPECT_EQ(atom.linux_capacity, 512);  // the file's, not the one hwloc appends from this system
  EXPECT_EQ(atom.source, "hwloc cpukinds");
  EXPECT_EQ(core.name, "IntelCore");
  EXPECT_EQ(core.pus, std::vector<int>{1});
  EXPECT_EQ(core.efficiency, 1);
  EXPECT_EQ(core.frequency_max_mhz, 5200);
  EXPECT_EQ(core.linux_capacity, 1024);
  EXPECT_EQ(core_kind_pu(m, atom), 0);
  EXPECT_EQ(core_kind_pu(m, core), 1);

  const json j = to_json(m);
  ASSERT_TRUE(j.contains("core_kinds"));
  EXPECT_EQ(j["core_kinds"][1]["name"], "IntelCore");
  EXPECT_EQ(j["core_kinds"][1]["pus"], json::array({1}));
  const MachineFacts back = machine_from_json(j);
  ASSERT_EQ(back.core_kinds.size(), 2u);
  EXPECT_EQ(back.core_kinds[0].linux_capacity, 512);
  EXPECT_EQ(to_json(back), j);
  EXPECT_NE(format_machine(m).find("IntelCore: PUs 1, efficiency 1"), std::string::npos);
}

// A homogeneous machine's one kind (or none) is not recorded: its file is unchanged.
TEST(CoreKinds, HomogeneousTopologyWritesNothing) {
  const MachineFacts m = detect_with_topology("zen5-oxide-2vcpu.xml");
  EXPECT_FALSE(m.hybrid());
  EXPECT_TRUE(m.core_kinds.empty());
  EXPECT_FALSE(to_json(m).contains("core_kinds"));
}

TEST(CoreKinds, NamesAreUniqueAndFallBack) {
  std::vector<CoreKind> kinds(4);
  kinds[0].microarchitecture = "cortex_a55";
  kinds[1].microarchitecture = "cortex_a78";
  kinds[2].microarchitecture = "cortex_a78";  // same core, another variant
  kinds[3].core_type = "Intel Core/x";      // characters a benchmark name cannot hold
  name_core_kinds(kinds);
  EXPECT_EQ(kinds[0].name, "cortex_a55");
  EXPECT_EQ(kinds[1].name, "cortex_a78_1");
  EXPECT_EQ(kinds[2].name, "cortex_a78_2");
  EXPECT_EQ(kinds[3].name, "Intel_Core_x");
  std::vector<CoreKind> unknown(2);
  name_core_kinds(unknown);
  EXPECT_EQ(unknown[0].name, "kind0");
  EXPECT_EQ(unknown[1].name, "kind1");
}

TEST(CoreKinds, BadKindInAFileIsInputError) {
  json j = to_json(detect_with_topology("hybrid-2pu.xml"));
  j["core_kinds"][0].erase("pus");
  EXPECT_THROW(machine_from_json(j), InputError);
}

}  // namespace roofline
