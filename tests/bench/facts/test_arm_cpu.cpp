// ARM64 identity and features (issue 62): MIDR decoding, the core table, /proc/cpuinfo's blocks and core kinds, from
// text in the layout ARM64 kernels print (fields written from the machines' published values, not captured on them).
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "roofline/facts/arm_cpu.hpp"

namespace roofline {
namespace {

// One processor's block of an ARM64 /proc/cpuinfo, in the layout the kernel prints it.
std::string cpuinfo_block(int processor, const char* features, unsigned variant, unsigned part, unsigned revision) {
  return fmt::format("processor\t: {}\nBogoMIPS\t: 2100.00\nFeatures\t: {}\nCPU implementer\t: 0x41\n"
                     "CPU architecture: 8\nCPU variant\t: {:#x}\nCPU part\t: {:#05x}\nCPU revision\t: {}\n\n",
                     processor, features, variant, part, revision);
}

// A Graviton3 (Neoverse V1 r1p1), two of its vCPUs.
constexpr const char* kGraviton3Features =
    "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 "
    "sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs paca pacg dcpodp svei8mm svebf16 i8mm bf16 dgh rng";
const std::string kGraviton3 = cpuinfo_block(0, kGraviton3Features, 0x1, 0xd40, 1) +
                               cpuinfo_block(1, kGraviton3Features, 0x1, 0xd40, 1);

// A big.LITTLE board (RK3588): Cortex-A55 cores 0-1 (r2p0) and Cortex-A76 cores 2-3 (r4p0), shortened from eight.
constexpr const char* kRk3588Features =
    "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp";
const std::string kBigLittle = cpuinfo_block(0, kRk3588Features, 0x2, 0xd05, 0) +
                               cpuinfo_block(1, kRk3588Features, 0x2, 0xd05, 0) +
                               cpuinfo_block(2, kRk3588Features, 0x4, 0xd0b, 0) +
                               cpuinfo_block(3, kRk3588Features, 0x4, 0xd0b, 0);

constexpr const char* kX86 = R"(processor	: 0
vendor_id	: AuthenticAMD
cpu family	: 25
model		: 17
flags		: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr avx512f
)";

TEST(ArmCpu, MidrDecodesIntoItsFields) {
  // Grace and Graviton4: Neoverse V2 r0p1, as /sys writes midr_el1.
  const auto m = parse_midr("0x00000000410fd4f1\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->implementer, 0x41u);
  EXPECT_EQ(m->variant, 0u);
  EXPECT_EQ(m->architecture, 0xfu);
  EXPECT_EQ(m->part, 0xd4fu);
  EXPECT_EQ(m->revision, 1u);
  EXPECT_FALSE(parse_midr("410fd4f1"));  // not written as /sys writes it
  EXPECT_FALSE(parse_midr("0xnothex"));
  EXPECT_FALSE(parse_midr(""));
}

TEST(ArmCpu, TheTableNamesTheCoresOurUsersRunOn) {
  EXPECT_EQ(arm_core(0x41, 0xd4f)->name, "Neoverse V2");  // Grace, Graviton4
  EXPECT_EQ(arm_core(0x41, 0xd4f)->microarchitecture, "neoverse_v2");
  EXPECT_EQ(arm_core(0x41, 0xd40)->microarchitecture, "neoverse_v1");  // Graviton3
  EXPECT_EQ(arm_core(0x41, 0xd0c)->microarchitecture, "neoverse_n1");  // Graviton2, Ampere Altra
  EXPECT_EQ(arm_core(0x41, 0xd42)->microarchitecture, "cortex_a78ae");  // Jetson Orin
  EXPECT_EQ(arm_core(0xc0, 0xac3)->implementer, "Ampere");
  EXPECT_EQ(arm_core(0x61, 0x023)->implementer, "Apple");
  EXPECT_EQ(arm_core(0x6d, 0xd49)->microarchitecture, "neoverse_n2");  // Cobalt 100 under Microsoft's code
  EXPECT_FALSE(arm_core(0x41, 0xfff));
  EXPECT_EQ(arm_implementer_name(0x4e), "NVIDIA");
  EXPECT_EQ(arm_implementer_name(0x99), "");
}

TEST(ArmCpu, CpuinfoGivesEachCpusMidrAndFeatures) {
  const std::vector<ArmCpuEntry> cpus = parse_arm_cpuinfo(kGraviton3);
  ASSERT_EQ(cpus.size(), 2u);
  EXPECT_EQ(cpus[1].processor, 1);
  EXPECT_EQ(cpus[0].midr, (ArmMidr{0x41, 0x1, 0xf, 0xd40, 1}));
  const ArmFeatures f = arm_features(cpus[0].features);
  EXPECT_TRUE(f.asimd);
  EXPECT_TRUE(f.fp16);
  EXPECT_TRUE(f.dotprod);
  EXPECT_TRUE(f.i8mm);
  EXPECT_TRUE(f.bf16);
  EXPECT_TRUE(f.sve);
  EXPECT_FALSE(f.sve2);  // Graviton3 is SVE (1) only
  EXPECT_TRUE(f.sve_i8mm);
  EXPECT_FALSE(f.sme);
}

TEST(ArmCpu, OneKindOfCoreOnAServerTwoOnABigLittleBoard) {
  const auto server = arm_core_kinds(parse_arm_cpuinfo(kGraviton3));
  ASSERT_EQ(server.size(), 1u);
  EXPECT_EQ(server[0].core->name, "Neoverse V1");
  EXPECT_EQ(server[0].cpus, (std::vector<int>{0, 1}));

  const auto board = arm_core_kinds(parse_arm_cpuinfo(kBigLittle));
  ASSERT_EQ(board.size(), 2u);
  EXPECT_EQ(board[0].core->name, "Cortex-A55");
  EXPECT_EQ(board[0].cpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(board[1].core->name, "Cortex-A76");
  EXPECT_EQ(board[1].cpus, (std::vector<int>{2, 3}));
  EXPECT_TRUE(board[1].features.dotprod);
  EXPECT_FALSE(board[1].features.sve);
}

TEST(ArmCpu, HwcapBitsGiveTheKernelsFeatures) {
  // Linux's AT_HWCAP bits: ASIMD 1, ASIMDHP 10, ASIMDDP 20, SVE 22; AT_HWCAP2's: SVE2 1, I8MM 13, BF16 14 (a Neoverse
  // V2 sets them all).
  const std::uint64_t v2_hwcap = (1u << 1) | (1u << 10) | (1u << 20) | (1u << 22);
  const std::uint64_t v2_hwcap2 = (1u << 1) | (1u << 13) | (1u << 14);
  const IsaFeatures v2 = arm_isa_features(v2_hwcap, v2_hwcap2);
  EXPECT_TRUE(v2.neon && v2.neon_fp16 && v2.neon_dotprod && v2.neon_i8mm && v2.neon_bf16 && v2.sve);
  EXPECT_TRUE(v2.supports(Isa::sve));
  EXPECT_FALSE(v2.capped(Isa::neon).supports(Isa::sve));
  EXPECT_TRUE(v2.capped(Isa::neon).supports(Isa::neon));
  EXPECT_TRUE(v2.capped(Isa::neon).neon_i8mm && v2.capped(Isa::neon).neon_bf16);
  EXPECT_FALSE(v2.capped(Isa::scalar).neon_i8mm || v2.capped(Isa::scalar).neon_bf16);
  const IsaFeatures a72 = arm_isa_features(1u << 1, 0);  // Cortex-A72: NEON only
  EXPECT_TRUE(a72.supports(Isa::neon));
  EXPECT_FALSE(a72.neon_dotprod || a72.neon_fp16 || a72.neon_i8mm || a72.neon_bf16 || a72.sve);
  // Each HWCAP2 bit alone: I8MM without BF16 and the reverse; none without NEON itself.
  const IsaFeatures i8mm = arm_isa_features(1u << 1, 1u << 13);
  EXPECT_TRUE(i8mm.neon_i8mm);
  EXPECT_FALSE(i8mm.neon_bf16);
  const IsaFeatures bf16 = arm_isa_features(1u << 1, 1u << 14);
  EXPECT_TRUE(bf16.neon_bf16);
  EXPECT_FALSE(bf16.neon_i8mm);
  EXPECT_FALSE(arm_isa_features(0, v2_hwcap2).neon_i8mm);
  const IsaFeatures hwcap_only = arm_isa_features(v2_hwcap | (1u << 13) | (1u << 14), 0);  // HWCAP's 13, 14: others
  EXPECT_FALSE(hwcap_only.neon_i8mm || hwcap_only.neon_bf16);
  EXPECT_FALSE(arm_isa_features(0, 0).supports(Isa::neon));
  EXPECT_FALSE(v2.sse2 || v2.avx2);
}

TEST(ArmCpu, AnX86CpuinfoHasNoArmCpus) {
  EXPECT_TRUE(parse_arm_cpuinfo(kX86).empty());
  EXPECT_TRUE(parse_arm_cpuinfo("").empty());
#if !defined(__aarch64__)
  EXPECT_TRUE(arm_cpu_facts().empty());  // this machine's own files
#endif
}

}  // namespace
}  // namespace roofline
