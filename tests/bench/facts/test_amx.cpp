// AMX detection on recorded cpuid/XCR0 values (classify_amx is pure): each gate's outcome with its source,
// the machine fact's JSON round trip and its refusal of an unknown status; on this machine, the live
// detection, and where it says usable, the tile peak kernels run and validate.
#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

#include "roofline/common/errors.hpp"
#include "roofline/facts/amx.hpp"
#include "roofline/facts/machine.hpp"
#include "roofline/kernels/cpu/peak.hpp"

namespace roofline {
namespace {

// This development VM (AMD EPYC, KVM), as read_amx_cpuid() reported it: no AMX bits, XCR0 = x87/SSE/AVX +
// the three AVX-512 states.
constexpr AmxCpuid kEpycVm{28, 0x110, 0x30, true, 0xe7};
// An Emerald/Sapphire Rapids guest: leaf 7 EDX AMX-BF16 (22), AMX-TILE (24), AMX-INT8 (25) on top of this
// VM's bits; XCR0 = 0x602e7 (the above + PKRU + XTILECFG + XTILEDATA), what Linux 5.16+ enables there.
constexpr std::uint32_t kAmxBits = (1u << 22) | (1u << 24) | (1u << 25);
constexpr AmxCpuid kSapphireRapids{32, 0x110 | kAmxBits, 0x30, true, 0x602e7};
// Granite Rapids adds AMX-FP16 (leaf 7 subleaf 1 EAX bit 21).
constexpr AmxCpuid kGraniteRapids{32, 0x110 | kAmxBits, 0x30 | (1u << 21), true, 0x602e7};

constexpr AmxProbe kGranted{true, 0, true, false};

TEST(AmxDetection, AbsentOnACpuWithoutTheBits) {
  const AmxFact f = classify_amx(kEpycVm, {});
  EXPECT_EQ(f.status, AmxStatus::absent);
  EXPECT_EQ(to_string(f.status), "absent");
  EXPECT_NE(f.source.find("leaf 7 EDX bit 24"), std::string::npos) << f.source;
  EXPECT_FALSE(amx_advertised_and_enabled(kEpycVm));
  EXPECT_FALSE(f.tile || f.bf16 || f.int8 || f.fp16);
}

TEST(AmxDetection, AdvertisedButNotEnabledByTheOs) {
  AmxCpuid old_kernel = kSapphireRapids;
  old_kernel.xcr0 = 0x2e7;  // a kernel before 5.16 enables no tile state
  const AmxFact f = classify_amx(old_kernel, kGranted);
  EXPECT_EQ(f.status, AmxStatus::not_enabled_by_os);
  EXPECT_EQ(to_string(f.status), "advertised but not enabled by the OS");
  EXPECT_NE(f.source.find("XCR0 bits 17-18"), std::string::npos);
  EXPECT_NE(f.detail.find("0x2e7"), std::string::npos) << f.detail;
  EXPECT_TRUE(f.tile && f.bf16 && f.int8);  // what cpuid advertised stays recorded
  AmxCpuid only_cfg = kSapphireRapids;
  only_cfg.xcr0 = 0x202e7;  // XTILECFG without XTILEDATA is not enough
  EXPECT_EQ(classify_amx(only_cfg, kGranted).status, AmxStatus::not_enabled_by_os);
  AmxCpuid no_osxsave = kSapphireRapids;
  no_osxsave.osxsave = false;
  EXPECT_EQ(classify_amx(no_osxsave, kGranted).status, AmxStatus::not_enabled_by_os);
}

TEST(AmxDetection, PermissionRefused) {
  const AmxFact f = classify_amx(kSapphireRapids, {true, EPERM, false, false});
  EXPECT_EQ(f.status, AmxStatus::permission_refused);
  EXPECT_NE(f.source.find("ARCH_REQ_XCOMP_PERM"), std::string::npos);
  EXPECT_FALSE(f.detail.empty());
  EXPECT_EQ(classify_amx(kSapphireRapids, {}).status, AmxStatus::permission_refused);  // never requested
}

TEST(AmxDetection, FaultedTrial) {
  const AmxFact f = classify_amx(kSapphireRapids, {true, 0, true, true});
  EXPECT_EQ(f.status, AmxStatus::faulted);
  EXPECT_NE(f.source.find("SIGILL"), std::string::npos);
}

TEST(AmxDetection, UsableWithEveryGate) {
  const AmxFact f = classify_amx(kSapphireRapids, kGranted);
  EXPECT_TRUE(f.usable());
  EXPECT_TRUE(f.bf16 && f.int8);
  EXPECT_FALSE(f.fp16);
  EXPECT_TRUE(classify_amx(kGraniteRapids, kGranted).fp16);
  AmxCpuid low_leaf = kSapphireRapids;
  low_leaf.max_leaf = 6;  // leaf 7 unreadable: nothing is advertised
  EXPECT_EQ(classify_amx(low_leaf, kGranted).status, AmxStatus::absent);
}

TEST(AmxDetection, FactRoundTripsAndRefusesAnUnknownStatus) {
  const AmxFact f = classify_amx(kSapphireRapids, {true, EPERM, false, false});
  const AmxFact back = amx_from_json(to_json(f));
  EXPECT_EQ(back.status, f.status);
  EXPECT_EQ(back.source, f.source);
  EXPECT_TRUE(back.tile && back.bf16 && back.int8);
  nlohmann::json bad = to_json(f);
  bad["status"] = "maybe";
  EXPECT_THROW(amx_from_json(bad), InputError);
  EXPECT_THROW(amx_from_json(nlohmann::json::array()), InputError);
  for (AmxStatus s : {AmxStatus::usable, AmxStatus::not_enabled_by_os, AmxStatus::permission_refused,
                      AmxStatus::faulted, AmxStatus::absent}) {
    EXPECT_EQ(parse_amx_status(to_string(s)), s);
  }
}

TEST(AmxDetection, MachineFactsCarryItAndOlderFilesReadFromTheIsaFlags) {
  MachineFacts m;
  m.cpu_model = "test";
  m.cores = m.pus = 2;
  m.amx = classify_amx(kSapphireRapids, {true, 0, true, true});
  const MachineFacts back = machine_from_json(to_json(m));
  EXPECT_EQ(back.amx.status, AmxStatus::faulted);
  nlohmann::json old = to_json(m);
  old.erase("amx");
  old["isa"]["amx_tile"] = true;
  EXPECT_EQ(machine_from_json(old).amx.status, AmxStatus::usable);
  old["amx"] = {{"status", 3}};
  EXPECT_THROW(machine_from_json(old), InputError);
}

TEST(AmxDetection, TheTrialCatchesSigillWhereAmxCannotRun) {
  if (detect_amx().usable()) GTEST_SKIP() << "AMX usable here: the trial runs";
  EXPECT_TRUE(amx_trial_faults());  // no crash: the guard turned SIGILL into an answer
  EXPECT_TRUE(amx_trial_faults());  // and restored itself for the next call
}

TEST(AmxDetection, LiveMachineAndTheTileKernelsWhereUsable) {
  const AmxFact live = detect_amx();
  EXPECT_FALSE(live.source.empty());
  const MachineFacts m = detect_machine();
  EXPECT_EQ(m.isa.amx_tile, live.usable());  // kernels see AMX only when every gate passed
  if (!live.usable()) GTEST_SKIP() << "AMX " << to_string(live.status) << " here: " << live.source;
  int ran = 0;
  for (const PeakVariant& v : peak_variants()) {
    if (v.op != PeakOp::tile || !peak_runnable(v, m.isa)) continue;
    SCOPED_TRACE(std::string(v.name));
    const PeakInputs in = default_peak_inputs(v);
    for (const int threads : {1, 2}) {
      std::vector<double> out(static_cast<std::size_t>(threads) * v.accumulators(), -7.0);
      run_peak(v, threads, 1001, in, out.data());
      const auto err = validate_peak(v, 1001, in, threads, out.data());
      EXPECT_FALSE(err.has_value()) << *err;
    }
    ++ran;
  }
  EXPECT_GE(ran, 3);  // bf16, int8 s8 x s8, int8 u8 x s8
}

}  // namespace
}  // namespace roofline
