// Memory available to the run: see memory.hpp.
#include "roofline/facts/memory.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace roofline {
std::optional<std::string> read_text_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

namespace {

std::optional<std::string> slurp(const char* path) { return read_text_file(path); }

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

std::optional<std::string> parse_thp_setting(std::string_view text) {
  const std::size_t open = text.find('[');
  const std::size_t close = text.find(']', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos || close <= open + 1) return std::nullopt;
  return std::string(text.substr(open + 1, close - open - 1));
}

ThpMode detect_thp() {
  constexpr const char* kEnabled = "/sys/kernel/mm/transparent_hugepage/enabled";
  constexpr const char* kDefrag = "/sys/kernel/mm/transparent_hugepage/defrag";
  ThpMode mode;
  const auto enabled = slurp(kEnabled);
  const auto defrag = slurp(kDefrag);
  if (enabled) mode.enabled = parse_thp_setting(*enabled).value_or("");
  if (defrag) mode.defrag = parse_thp_setting(*defrag).value_or("");
  if (!enabled) {
    mode.source = fmt::format("{} absent: this kernel shows no transparent huge page mode", kEnabled);
  } else if (mode.enabled.empty()) {
    mode.source = fmt::format("{}: no [selected] word in it", kEnabled);
  } else {
    mode.source = "/sys/kernel/mm/transparent_hugepage/{enabled,defrag}";
  }
  if (enabled && !defrag) mode.source += fmt::format("; {} absent", kDefrag);
  return mode;
}

namespace {

// A mapping's header line ("7f00a0000000-7f00e0000000 rw-p 00000000 00:00 0"): its range, if it is one.
std::optional<AddressRange> mapping_header(std::string_view line) {
  const std::size_t dash = line.find('-');
  const std::size_t space = line.find(' ');
  if (dash == std::string_view::npos || space == std::string_view::npos || dash > space) return std::nullopt;
  AddressRange r;
  const auto hex = [](std::string_view t, std::uintptr_t& v) {
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 16);
    return ec == std::errc() && ptr == t.data() + t.size() && !t.empty();
  };
  if (!hex(line.substr(0, dash), r.begin) || !hex(line.substr(dash + 1, space - dash - 1), r.end)) return std::nullopt;
  return r;
}

// A "Name:   123 kB" field of a mapping, in bytes.
std::optional<std::uint64_t> kib_field(std::string_view line, std::string_view name) {
  if (line.size() <= name.size() || line.substr(0, name.size()) != name || line[name.size()] != ':') return std::nullopt;
  const auto kib = parse_u64(line.substr(name.size() + 1));
  if (!kib) return std::nullopt;
  return *kib * 1024;
}

bool has_flag(std::string_view vmflags, std::string_view flag) {
  std::size_t pos = 0;
  while ((pos = vmflags.find(flag, pos)) != std::string_view::npos) {
    const bool starts = pos == 0 || vmflags[pos - 1] == ' ';
    const bool ends = pos + flag.size() == vmflags.size() || vmflags[pos + flag.size()] == ' ';
    if (starts && ends) return true;
    pos += flag.size();
  }
  return false;
}

}  // namespace

SmapsTotals parse_smaps(std::string_view smaps, std::span<const AddressRange> ranges) {
  SmapsTotals t;
  bool inside = false;  // the current mapping overlaps a range
  std::size_t pos = 0;
  while (pos < smaps.size()) {
    const std::size_t eol = smaps.find('\n', pos);
    const std::string_view line = smaps.substr(pos, eol == std::string_view::npos ? smaps.npos : eol - pos);
    pos = eol == std::string_view::npos ? smaps.size() : eol + 1;
    if (const auto m = mapping_header(line)) {
      inside = std::any_of(ranges.begin(), ranges.end(),
                           [&](const AddressRange& r) { return r.begin < m->end && m->begin < r.end; });
      if (inside) ++t.mappings;
      continue;
    }
    if (!inside) continue;
    if (const auto v = kib_field(line, "Size")) t.mapped_bytes += *v;
    if (const auto v = kib_field(line, "Rss")) t.resident_bytes += *v;
    if (const auto v = kib_field(line, "AnonHugePages")) t.huge_bytes += *v;
    if (line.substr(0, 8) == "VmFlags:") {
      t.advised_huge = t.advised_huge || has_flag(line.substr(8), "hg");
      t.advised_no_huge = t.advised_no_huge || has_flag(line.substr(8), "nh");
    }
  }
  return t;
}

double PageRecord::huge_fraction() const {
  return totals.resident_bytes > 0 ? static_cast<double>(totals.huge_bytes) / static_cast<double>(totals.resident_bytes)
                                   : 0.0;
}

PageRecord page_record_from(const std::optional<std::string>& smaps, std::span<const AddressRange> buffers,
                            PageSize requested) {
  PageRecord r;
  r.requested = requested;
  if (!smaps) {
    r.source = "/proc/self/smaps could not be read";
    return r;
  }
  r.totals = parse_smaps(*smaps, buffers);
  r.recorded = r.totals.mappings > 0;
  r.source = r.recorded ? "/proc/self/smaps" : "no mapping of /proc/self/smaps holds the buffers";
  return r;
}

PageRecord page_record(std::span<const AddressRange> buffers, PageSize requested) {
  return page_record_from(slurp("/proc/self/smaps"), buffers, requested);
}

}  // namespace roofline
