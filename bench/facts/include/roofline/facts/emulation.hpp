// Whether this process runs under a user-mode emulator (qemu-user, issue 62): a results file of an emulated run says
// so (context.machine.emulated), since its timings are the emulator's, never the CPU's ceilings. The witness is the
// kernel's own architecture, which a user-mode emulator does not rewrite, against the one this binary was built for.
// uname() is no witness: qemu-user answers it with the guest's machine ("aarch64" on an x86-64 kernel), and its
// /proc/cpuinfo is the host's in qemu 7.2 but emulated from 8.1 on.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace roofline {

struct Emulation {
  bool emulated = false;
  std::string evidence;  // one line: what was read and what it says ("" when nothing could be read)
};

// The kernel's architecture by the names uname's machine uses ("x86_64", "aarch64"), from what the kernel wrote:
// /proc/sys/kernel/arch's text (Linux 6.1 on), else /sys/devices/system/cpu/modalias's "cpu:type:<type>:" ("x86" is
// x86_64's). nullopt when neither says. Pure: the callers read the files.
std::optional<std::string> kernel_arch_from(std::string_view proc_sys_kernel_arch, std::string_view cpu_modalias);

// The verdict for a kernel's architecture (as kernel_arch_from names it, with the file it came from) and the one this
// binary was built for: emulated when they differ; not emulated, with the evidence empty, when the kernel's is unknown.
Emulation emulation_verdict(const std::optional<std::string>& kernel_arch, std::string_view source,
                            std::string_view built_for);

// This process: reads both files and asks emulation_verdict about the architecture built for (cpu_arch.hpp's).
Emulation detect_emulation();

}  // namespace roofline
