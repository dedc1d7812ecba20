// Memory available to the run: see memory.hpp.
#include "roofline/bench/memory.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

namespace roofline {
namespace {

std::optional<std::string> slurp(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<std::uint64_t> parse_u64(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr == text.data()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::uint64_t> parse_meminfo_field(std::string_view meminfo, std::string_view field) {
  std::size_t pos = 0;
  while (pos < meminfo.size()) {
    const std::size_t eol = meminfo.find('\n', pos);
    const std::string_view line = meminfo.substr(pos, eol == std::string_view::npos ? meminfo.npos : eol - pos);
    if (line.size() > field.size() && line.substr(0, field.size()) == field && line[field.size()] == ':') {
      const auto kib = parse_u64(line.substr(field.size() + 1));
      if (!kib) return std::nullopt;
      return *kib * 1024;  // /proc/meminfo's "kB" are KiB
    }
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> parse_cgroup_limit(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  if (text == "max") return std::nullopt;
  const auto v = parse_u64(text);
  // cgroup v1 writes a page-rounded LLONG_MAX when unlimited.
  if (!v || *v >= (std::uint64_t{1} << 62)) return std::nullopt;
  return v;
}

MemoryInfo detect_memory() {
  MemoryInfo info;
  if (const auto meminfo = slurp("/proc/meminfo")) {
    info.total_bytes = parse_meminfo_field(*meminfo, "MemTotal").value_or(0);
    info.available_bytes = parse_meminfo_field(*meminfo, "MemAvailable").value_or(0);
    info.source = "/proc/meminfo MemTotal/MemAvailable";
  }
  struct CgroupFiles {
    const char* limit;
    const char* usage;
    const char* name;
  };
  for (const CgroupFiles& cg : {CgroupFiles{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current", "cgroup v2 memory.max"},
                                CgroupFiles{"/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                            "/sys/fs/cgroup/memory/memory.usage_in_bytes", "cgroup v1 memory.limit_in_bytes"}}) {
    const auto limit_text = slurp(cg.limit);
    if (!limit_text) continue;
    const auto limit = parse_cgroup_limit(*limit_text);
    if (!limit) break;  // unlimited
    std::uint64_t usage = 0;
    if (const auto u = slurp(cg.usage)) usage = parse_u64(*u).value_or(0);
    const std::uint64_t allowed = *limit > usage ? *limit - usage : 0;
    if (info.total_bytes == 0 || *limit < info.total_bytes) info.total_bytes = *limit;
    if (info.available_bytes == 0 || allowed < info.available_bytes) {
      info.available_bytes = allowed;
      info.source += std::string(info.source.empty() ? "" : ", capped by ") + cg.name;
    }
    break;
  }
  return info;
}

std::uint64_t memory_budget(const MemoryInfo& info) {
  return info.available_bytes / 10 * 7;
}

}  // namespace roofline
