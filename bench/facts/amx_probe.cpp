// AMX's process-level probe on x86-64 (cmake/arch/x86_64.cmake): Linux's tile data permission (arch_prctl) and a
// SIGILL-guarded trial tile instruction, then the pure classification of amx.cpp. See amx.hpp.
#include <setjmp.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <mutex>

#include "roofline/facts/amx.hpp"

namespace roofline {
namespace {

// Linux's arch_prctl codes and the tile data state component (asm/prctl.h, 5.16+; not in glibc's headers).
constexpr int kArchReqXcompPerm = 0x1023;
constexpr int kXfeatureXtiledata = 18;

sigjmp_buf trial_jump;
void on_sigill(int) { siglongjmp(trial_jump, 1); }

}  // namespace

// Loads a one-tile configuration, zeroes the tile and releases it: the smallest use of the tile state.
bool amx_trial_faults() {
  struct alignas(64) {
    std::uint8_t palette = 1, start_row = 0, reserved[14] = {};
    std::uint16_t colsb[16] = {64};
    std::uint8_t rows[16] = {16};
  } cfg;
  struct sigaction guard {}, previous {};
  guard.sa_handler = on_sigill;
  sigemptyset(&guard.sa_mask);
  sigaction(SIGILL, &guard, &previous);
  bool faulted = false;
  if (sigsetjmp(trial_jump, 1) == 0) {
    asm volatile("ldtilecfg %0\n\ttilezero %%tmm0\n\ttilerelease" ::"m"(cfg) : "memory");
  } else {
    faulted = true;
  }
  sigaction(SIGILL, &previous, nullptr);
  return faulted;
}

AmxProbe probe_amx() {
  static AmxProbe result;
  static std::once_flag once;
  std::call_once(once, [] {
    result.permission_requested = true;
    if (syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) != 0) {
      result.permission_errno = errno != 0 ? errno : EPERM;
      return;  // no tile instruction without the permission: it would fault
    }
    result.trial_ran = true;
    result.trial_faulted = amx_trial_faults();
  });
  return result;
}

AmxFact detect_amx() {
  const AmxCpuid c = read_amx_cpuid();
  return classify_amx(c, amx_advertised_and_enabled(c) ? probe_amx() : AmxProbe{});
}

}  // namespace roofline
