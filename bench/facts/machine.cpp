// Machine facts: hwloc first, the architecture's own (cpuid, or MIDR/HWCAP: cpu_arch.hpp) and sysconf next, each fact
// with the source it came from. The measured bandwidth curve (analysis/model/memory_ceilings.cpp) is the last word on cache sizes.
#include "roofline/facts/machine.hpp"

#include <hwloc.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <utility>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/units.hpp"
#include "roofline/facts/core_kinds.hpp"
#include "roofline/facts/emulation.hpp"
#include "roofline/facts/hwloc_topology.hpp"
#include "roofline/facts/memory.hpp"
#include "roofline_git_revision.hpp"

#include "cpu_arch.hpp"

namespace roofline {
using nlohmann::json;

std::uint64_t MachineFacts::cache_bytes(int level) const {
  for (const CacheInfo& c : caches) {
    if (c.level == level && c.type != "instruction") return c.size_bytes;
  }
  return 0;
}

namespace {

void detect_topology_hwloc(MachineFacts& m) {
  std::string why;
  hwloc_topology_t topo = load_hwloc_topology_quietly(&why);
  if (!why.empty()) {
    m.notes.push_back(fmt::format("{}; machine facts fall back to {} and sysconf where hwloc has none", why,
                                  arch_cache_source()));
  }
  if (topo == nullptr) return;
  m.packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
  m.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  m.pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  m.numa_nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
  m.topology_source = "hwloc";
  for (int i = 0; i < m.cores; ++i) {
    hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, static_cast<unsigned>(i));
    if (core != nullptr && core->cpuset != nullptr) m.core_first_pu.push_back(hwloc_bitmap_first(core->cpuset));
  }
  // Hybrid CPUs only: a homogeneous machine's one kind (or none) is not recorded.
  if (std::vector<CoreKind> kinds = read_core_kinds(topo); kinds.size() > 1) {
    std::vector<std::string> named;
    for (const CoreKind& k : kinds) named.push_back(fmt::format("{} (PUs {})", k.name, fmt::join(k.pus, ",")));
    m.notes.push_back(fmt::format("hybrid CPU: {} core kinds, {}: the 1-thread compute and bandwidth rows run once on a "
                                  "PU of each kind", kinds.size(), fmt::join(named, ", ")));
    m.core_kinds = std::move(kinds);
  }
  hwloc_obj_t root = hwloc_get_root_obj(topo);
  m.hwloc_numa_memory_bytes = root != nullptr ? root->total_memory : 0;

  for (int level = 1; level <= 3; ++level) {
    const hwloc_obj_type_t type = level == 1 ? HWLOC_OBJ_L1CACHE : level == 2 ? HWLOC_OBJ_L2CACHE : HWLOC_OBJ_L3CACHE;
    const int n = hwloc_get_nbobjs_by_type(topo, type);
    for (int i = 0; i < n; ++i) {
      hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, static_cast<unsigned>(i));
      if (obj == nullptr || obj->attr == nullptr) continue;
      if (obj->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION) continue;
      CacheInfo c;
      c.level = level;
      c.type = obj->attr->cache.type == HWLOC_OBJ_CACHE_DATA ? "data" : "unified";
      c.size_bytes = obj->attr->cache.size;
      c.instances = n;
      c.cores_per_instance = hwloc_get_nbobjs_inside_cpuset_by_type(topo, obj->cpuset, HWLOC_OBJ_CORE);
      c.source = "hwloc";
      if (c.size_bytes > 0) m.caches.push_back(c);
      break;  // one record per level: the instances are identical on the machines we know
    }
  }
  hwloc_topology_destroy(topo);
}

void detect_caches_sysconf(MachineFacts& m) {
  const std::pair<int, long> levels[] = {
      {1, sysconf(_SC_LEVEL1_DCACHE_SIZE)},
      {2, sysconf(_SC_LEVEL2_CACHE_SIZE)},
      {3, sysconf(_SC_LEVEL3_CACHE_SIZE)},
  };
  for (const auto& [level, size] : levels) {
    if (size <= 0) continue;
    CacheInfo c;
    c.level = level;
    c.type = level == 1 ? "data" : "unified";
    c.size_bytes = static_cast<std::uint64_t>(size);
    c.source = "sysconf";
    m.caches.push_back(c);
  }
}

std::string hostname() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

}  // namespace

MachineFacts detect_machine() {
  MachineFacts m;
  m.hostname = hostname();
  detect_cpu_identity(m);

  detect_topology_hwloc(m);
  if (m.cores <= 0 || m.pus <= 0) {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    m.pus = m.cores = online > 0 ? static_cast<int>(online) : 1;
    m.packages = m.numa_nodes = 1;
    m.core_first_pu.clear();
    for (int i = 0; i < m.cores; ++i) m.core_first_pu.push_back(i);
    m.topology_source = "sysconf";
    m.notes.push_back("hwloc could not load the topology: cores and PUs from sysconf, one PU per core assumed");
  }
  if (m.caches.empty()) {
    for (const CacheInfo& c : arch_caches()) m.caches.push_back(c);
    const std::string_view source = arch_cache_source();
    if (!m.caches.empty()) {
      m.notes.push_back(fmt::format("hwloc reports no caches: cache sizes from {}", source));
    } else {
      detect_caches_sysconf(m);
      m.notes.push_back(m.caches.empty() ? fmt::format("no cache sizes from hwloc, {} or sysconf: levels inferred from the "
                                                       "bandwidth curve only", source)
                                         : fmt::format("hwloc and {} report no caches: cache sizes from sysconf", source));
    }
  }
  const Emulation emulation = detect_emulation();
  if (emulation.emulated) {
    m.emulated = true;
    m.emulation = emulation.evidence;
    m.notes.push_back("emulated: " + emulation.evidence + "; every time is the emulator's, no figure is a ceiling of this CPU");
  }
  if (m.hypervisor) {
    m.notes.push_back("running under a hypervisor: reported cache sizes may be the host's; the bandwidth curve decides the levels");
  }

  const MemoryInfo mem = detect_memory();
  m.memory_total_bytes = mem.total_bytes;
  m.memory_available_bytes = mem.available_bytes;
  m.memory_source = mem.source;
  if (m.hwloc_numa_memory_bytes > 0 && m.memory_total_bytes > 0 &&
      (m.hwloc_numa_memory_bytes * 10 < m.memory_total_bytes * 9 || m.hwloc_numa_memory_bytes * 9 > m.memory_total_bytes * 10)) {
    m.notes.push_back(fmt::format("hwloc reports {} of NUMA memory but {} says {}: memory caps use the latter",
                                  format_bytes(static_cast<double>(m.hwloc_numa_memory_bytes)), mem.source,
                                  format_bytes(static_cast<double>(m.memory_total_bytes))));
  }
  const ThpMode thp = detect_thp();
  m.thp_enabled = thp.enabled;
  m.thp_defrag = thp.defrag;
  m.thp_source = thp.source;
  if (thp.enabled.empty()) {
    m.notes.push_back(thp.source + ": whether 2 MiB pages can be granted is unknown; the page record of each array says what it got");
  } else if (thp.enabled == "never") {
    m.notes.push_back("transparent huge pages are off (never): the arrays' 2 MiB page requests will not be granted");
  }

  m.compiler = ROOFLINE_COMPILER;
  m.compiler_flags = ROOFLINE_CXX_FLAGS;
  m.build_type = ROOFLINE_BUILD_TYPE;
  m.git_revision = ROOFLINE_GIT_REVISION;
  struct utsname u {};
  if (uname(&u) == 0) m.os = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
  return m;
}

namespace {
// The ISA flags under their names in a results file's "isa" object.
constexpr std::pair<const char*, bool IsaFeatures::*> kIsaFlags[] = {
    {"sse2", &IsaFeatures::sse2},
    {"sse4_2", &IsaFeatures::sse4_2},
    {"avx", &IsaFeatures::avx},
    {"avx2", &IsaFeatures::avx2},
    {"fma", &IsaFeatures::fma},
    {"f16c", &IsaFeatures::f16c},
    {"avx512f", &IsaFeatures::avx512f},
    {"avx512dq", &IsaFeatures::avx512dq},
    {"avx512bw", &IsaFeatures::avx512bw},
    {"avx512vl", &IsaFeatures::avx512vl},
    {"avx512_vnni", &IsaFeatures::avx512_vnni},
    {"avx512_bf16", &IsaFeatures::avx512_bf16},
    {"avx512_fp16", &IsaFeatures::avx512_fp16},
    {"avx_vnni", &IsaFeatures::avx_vnni},
    {"amx_tile", &IsaFeatures::amx_tile},
    {"amx_bf16", &IsaFeatures::amx_bf16},
    {"amx_int8", &IsaFeatures::amx_int8},
    {"amx_fp16", &IsaFeatures::amx_fp16},
};

// ARM64's (issue 62), written only when true, so that an x86 file's "isa" object keeps its fields.
constexpr std::pair<const char*, bool IsaFeatures::*> kArmIsaFlags[] = {
    {"neon", &IsaFeatures::neon},
    {"neon_dotprod", &IsaFeatures::neon_dotprod},
    {"neon_fp16", &IsaFeatures::neon_fp16},
    {"neon_i8mm", &IsaFeatures::neon_i8mm},
    {"neon_bf16", &IsaFeatures::neon_bf16},
    {"sve", &IsaFeatures::sve},
};

json isa_to_json(const IsaFeatures& f) {
  json j = json::object();
  for (const auto& [name, flag] : kIsaFlags) j[name] = f.*flag;
  for (const auto& [name, flag] : kArmIsaFlags) {
    if (f.*flag) j[name] = true;
  }
  return j;
}

IsaFeatures isa_from_json(const json& j) {
  IsaFeatures f;
  for (const auto& [name, flag] : kIsaFlags) f.*flag = j.value(name, false);
  for (const auto& [name, flag] : kArmIsaFlags) f.*flag = j.value(name, false);
  return f;
}

// The facts stored as they are, under their names in a results file, for to_json and machine_from_json:
// the CPU, topology and memory ones, then `others()` (the caches, ISA and AMX facts, which are not), then
// the build's. machine_from_json reads in this order, so a file's first bad field is the one named.
template <typename Facts, typename Field, typename Others>
void for_each_fact(Facts& m, Field&& field, Others&& others) {
  field("hostname", m.hostname);
  field("cpu_vendor", m.cpu_vendor);
  field("cpu_model", m.cpu_model);
  field("cpu_family", m.cpu_family);
  field("cpu_model_number", m.cpu_model_number);
  field("cpu_stepping", m.cpu_stepping);
  field("microarchitecture", m.microarchitecture);
  field("hypervisor", m.hypervisor);
  field("packages", m.packages);
  field("cores", m.cores);
  field("pus", m.pus);
  field("numa_nodes", m.numa_nodes);
  field("topology_source", m.topology_source);
  field("core_first_pu", m.core_first_pu);
  field("memory_total_bytes", m.memory_total_bytes);
  field("memory_available_bytes", m.memory_available_bytes);
  field("memory_source", m.memory_source);
  field("hwloc_numa_memory_bytes", m.hwloc_numa_memory_bytes);
  field("transparent_huge_pages", m.thp_enabled);
  field("transparent_huge_pages_defrag", m.thp_defrag);
  field("transparent_huge_pages_source", m.thp_source);
  others();
  field("compiler", m.compiler);
  field("compiler_flags", m.compiler_flags);
  field("build_type", m.build_type);
  field("git_revision", m.git_revision);
  field("os", m.os);
  field("notes", m.notes);
}
}  // namespace

json to_json(const MachineFacts& m) {
  json caches = json::array();
  for (const CacheInfo& c : m.caches) {
    caches.push_back({{"level", c.level}, {"type", c.type}, {"size_bytes", c.size_bytes}, {"instances", c.instances},
                      {"cores_per_instance", c.cores_per_instance}, {"source", c.source}});
  }
  json j = {{"caches", caches}, {"isa", isa_to_json(m.isa)}, {"amx", to_json(m.amx)}};
  for_each_fact(m, [&](const char* key, const auto& value) { j[key] = value; }, [] {});
  if (m.hybrid()) {  // only then: a homogeneous machine's file is unchanged
    json kinds = json::array();
    for (const CoreKind& k : m.core_kinds) {
      json row = {{"name", k.name}, {"pus", k.pus}, {"efficiency", k.efficiency}, {"source", k.source}};
      if (!k.core_type.empty()) row["core_type"] = k.core_type;
      if (!k.microarchitecture.empty()) row["microarchitecture"] = k.microarchitecture;
      if (k.frequency_max_mhz > 0) row["frequency_max_mhz"] = k.frequency_max_mhz;
      if (k.frequency_base_mhz > 0) row["frequency_base_mhz"] = k.frequency_base_mhz;
      if (k.linux_capacity > 0) row["linux_capacity"] = k.linux_capacity;
      kinds.push_back(std::move(row));
    }
    j["core_kinds"] = std::move(kinds);
  }
  if (m.emulated) {  // only then: a native run's file is unchanged
    j["emulated"] = true;
    j["emulation"] = m.emulation;
  }
  return j;
}

MachineFacts machine_from_json(const json& j) {
  if (!j.is_object()) throw InputError("machine facts: not an object");
  for (const char* key : {"cpu_model", "cores", "pus", "caches", "isa"}) {
    if (!j.contains(key)) throw InputError(fmt::format("machine facts: '{}' is missing", key));
  }
  MachineFacts m;
  try {
    // A missing field keeps its default (the required ones were checked above).
    const auto get = [&](const char* key, auto& value) { value = j.value(key, value); };
    for_each_fact(m, get, [&] {
      for (const json& c : j.at("caches")) {
        m.caches.push_back({c.at("level").get<int>(), c.value("type", "unified"),
                            c.at("size_bytes").get<std::uint64_t>(), c.value("instances", 0),
                            c.value("cores_per_instance", 0), c.value("source", "")});
      }
      m.isa = isa_from_json(j.at("isa"));
      // Files from before the AMX fact: what the isa flags said, with that as the source.
      if (j.contains("amx")) {
        m.amx = amx_from_json(j.at("amx"));
      } else {
        m.amx.tile = m.isa.amx_tile;
        m.amx.status = m.isa.amx_tile ? AmxStatus::usable : AmxStatus::absent;
        m.amx.source = "isa flags (a file without the amx fact)";
      }
    });
  } catch (const json::exception& e) {
    throw InputError(fmt::format("machine facts: {}", e.what()));
  }
  if (m.cores <= 0 || m.pus <= 0) throw InputError("machine facts: cores and pus must be positive");
  try {
    m.emulated = j.value("emulated", false);
    m.emulation = j.value("emulation", "");
    for (const json& k : j.value("core_kinds", json::array())) {
      CoreKind kind;
      kind.name = k.at("name").get<std::string>();
      kind.pus = k.at("pus").get<std::vector<int>>();
      kind.efficiency = k.value("efficiency", -1);
      kind.core_type = k.value("core_type", "");
      kind.microarchitecture = k.value("microarchitecture", "");
      kind.frequency_max_mhz = k.value("frequency_max_mhz", 0LL);
      kind.frequency_base_mhz = k.value("frequency_base_mhz", 0LL);
      kind.linux_capacity = k.value("linux_capacity", 0LL);
      kind.source = k.value("source", "");
      if (kind.name.empty() || kind.pus.empty()) throw InputError("machine facts: a core kind without a name or PUs");
      m.core_kinds.push_back(std::move(kind));
    }
  } catch (const json::exception& e) {
    throw InputError(fmt::format("machine facts: {}", e.what()));
  }
  return m;
}

std::string format_machine(const MachineFacts& m) {
  std::string s;
  auto line = [&](std::string_view k, const std::string& v) { s += fmt::format("{:<18} {}\n", k, v); };
  line("host", m.hostname);
  line("cpu", fmt::format("{} ({}, family {} model {} stepping {}{})", m.cpu_model, m.cpu_vendor, m.cpu_family,
                          m.cpu_model_number, m.cpu_stepping,
                          m.microarchitecture.empty() ? "" : ", " + m.microarchitecture));
  line("virtualized", m.hypervisor ? "yes (hypervisor bit set)" : "no");
  if (m.emulated) line("emulated", "yes: " + m.emulation);
  line("topology", fmt::format("{} package(s), {} core(s), {} PU(s), {} NUMA node(s)  [source: {}]", m.packages,
                               m.cores, m.pus, m.numa_nodes, m.topology_source));
  for (const CoreKind& k : m.core_kinds) {
    std::string about = fmt::format("{}: PUs {}, efficiency {}", k.name, fmt::join(k.pus, ","), k.efficiency);
    if (!k.core_type.empty()) about += ", " + k.core_type;
    if (!k.microarchitecture.empty()) about += ", " + k.microarchitecture;
    if (k.frequency_max_mhz > 0) about += fmt::format(", up to {} MHz", k.frequency_max_mhz);
    if (k.frequency_base_mhz > 0) about += fmt::format(", base {} MHz", k.frequency_base_mhz);
    if (k.linux_capacity > 0) about += fmt::format(", capacity {}", k.linux_capacity);
    line("core kind", fmt::format("{}  [source: {}]", about, k.source));
  }
  line("memory", fmt::format("{} total, {} available  [source: {}]", format_bytes(static_cast<double>(m.memory_total_bytes)),
                             format_bytes(static_cast<double>(m.memory_available_bytes)), m.memory_source));
  if (m.hwloc_numa_memory_bytes > 0) {
    line("hwloc NUMA memory", format_bytes(static_cast<double>(m.hwloc_numa_memory_bytes)));
  }
  line("huge pages", m.thp_enabled.empty() ? "unknown  [source: " + m.thp_source + "]"
                                            : fmt::format("transparent: {}, defrag: {}  [source: {}]", m.thp_enabled,
                                                          m.thp_defrag.empty() ? "unknown" : m.thp_defrag, m.thp_source));
  if (m.caches.empty()) line("caches", "unknown (levels will be inferred from the bandwidth curve)");
  for (const CacheInfo& c : m.caches) {
    line(fmt::format("L{} cache", c.level),
         fmt::format("{} {}{}  [source: {}]", format_bytes(static_cast<double>(c.size_bytes)), c.type,
                     c.cores_per_instance > 0 ? fmt::format(", shared by {} core(s)", c.cores_per_instance) : "",
                     c.source));
  }
  std::string isa;
  const IsaFeatures& f = m.isa;
  const std::pair<bool, const char*> flags[] = {
      {f.sse2, "sse2"}, {f.sse4_2, "sse4.2"}, {f.avx, "avx"}, {f.avx2, "avx2"}, {f.fma, "fma"}, {f.f16c, "f16c"},
      {f.avx512f, "avx512f"}, {f.avx512dq, "avx512dq"}, {f.avx512bw, "avx512bw"}, {f.avx512vl, "avx512vl"},
      {f.avx512_vnni, "avx512_vnni"}, {f.avx512_bf16, "avx512_bf16"}, {f.avx512_fp16, "avx512_fp16"},
      {f.avx_vnni, "avx_vnni"}, {f.amx_tile, "amx_tile"}, {f.amx_bf16, "amx_bf16"}, {f.amx_int8, "amx_int8"},
      {f.amx_fp16, "amx_fp16"}, {f.neon, "neon"}, {f.neon_dotprod, "neon_dotprod"}, {f.neon_fp16, "neon_fp16"},
      {f.neon_i8mm, "neon_i8mm"}, {f.neon_bf16, "neon_bf16"}, {f.sve, "sve"}};
  for (const auto& [on, name] : flags) {
    if (on) isa += std::string(isa.empty() ? "" : " ") + name;
  }
  line("isa", fmt::format("{}  [source: {}]", isa, arch_isa_source()));
  line("amx", fmt::format("{}{}  [source: {}]", to_string(m.amx.status), m.amx.detail.empty() ? "" : " (" + m.amx.detail + ")",
                          m.amx.source));
  line("compiler", fmt::format("{} ({}; {})", m.compiler, m.build_type, m.compiler_flags));
  line("revision", m.git_revision);
  line("os", m.os);
  for (const std::string& n : m.notes) line("note", n);
  return s;
}

}  // namespace roofline
