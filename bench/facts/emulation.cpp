// Detecting a user-mode emulator (emulation.hpp): the kernel's architecture, read from files the kernel writes and
// qemu-user passes through untouched, against the architecture this binary was built for (the facts' seam).
#include "roofline/facts/emulation.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cpu_arch.hpp"

namespace roofline {
namespace {

std::string trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

std::string read_file(const char* path) {
  std::ifstream in(path);
  if (!in) return "";
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr const char* kKernelArchFile = "/proc/sys/kernel/arch";
constexpr const char* kModaliasFile = "/sys/devices/system/cpu/modalias";

}  // namespace

std::optional<std::string> kernel_arch_from(std::string_view proc_sys_kernel_arch, std::string_view cpu_modalias) {
  const std::string arch = trimmed(proc_sys_kernel_arch);
  if (!arch.empty()) return arch;
  // "cpu:type:x86,ven0002fam0019mod0011:feature:,..." (x86), "cpu:type:aarch64:feature:,..." (arm64).
  constexpr std::string_view prefix = "cpu:type:";
  if (cpu_modalias.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view rest = cpu_modalias.substr(prefix.size());
  const std::string type(rest.substr(0, rest.find_first_of(",:\n")));
  if (type.empty()) return std::nullopt;
  return type == "x86" ? "x86_64" : type;
}

Emulation emulation_verdict(const std::optional<std::string>& kernel_arch, std::string_view source,
                            std::string_view built_for) {
  if (!kernel_arch) return {};
  if (*kernel_arch == built_for) {
    return {false, fmt::format("{}: {}, the architecture this binary was built for", source, *kernel_arch)};
  }
  return {true, fmt::format("{}: {}, but this binary was built for {}: a user-mode emulator (qemu-user) runs it",
                            source, *kernel_arch, built_for)};
}

Emulation detect_emulation() {
  const std::string arch_file = read_file(kKernelArchFile);
  const bool from_arch_file = !trimmed(arch_file).empty();
  const std::string modalias = from_arch_file ? "" : read_file(kModaliasFile);
  return emulation_verdict(kernel_arch_from(arch_file, modalias), from_arch_file ? kKernelArchFile : kModaliasFile,
                           arch_machine_name());
}

}  // namespace roofline
