// The project's vocabulary, defined once: numeric precisions, instruction-set levels (and the CPU
// features that enable them), memory levels and compute engines. Every layer takes these names from here;
// results files spell them exactly as to_string() does. The kernels know nothing of how the CPU was
// detected; the harness (bench/) detects the features and passes them in.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace roofline {

// tf32 and fp8 (e4m3) are the tensor-core precisions of GPUs (cuBLASLt): 4-byte and 1-byte elements; int32 is the
// OpenCL devices' integer mad chains. The CPU kernels run none of the three. New precisions are appended, so the order of the older ones stays.
enum class Precision { fp64, fp32, bf16, fp16, int8, tf32, fp8, int32 };

// Names as they appear in results files: "fp64", "fp32", "bf16", "fp16", "int8", "tf32", "fp8", "int32".
std::string_view to_string(Precision p);
std::optional<Precision> parse_precision(std::string_view name);
// Bytes of one element of this precision (int8 -> 1, bf16 -> 2, ...).
int element_bytes(Precision p);
// True for integer precisions, whose rates are OP/s rather than FLOP/s.
constexpr bool is_integer(Precision p) { return p == Precision::int8 || p == Precision::int32; }
// "OP/s" for integer precisions, "FLOP/s" for floating point.
std::string_view rate_unit(Precision p);
// Every precision, in the order tables list them.
std::span<const Precision> all_precisions();

// Instruction-set levels, ordered: a cap of `avx2` allows scalar, sse and avx2 kernels.
// avx_vnni is the 256-bit VEX-encoded VNNI of Alder Lake / Zen 5 and sits beside avx2; amx (the tile
// matrix unit of Sapphire Rapids and later) is the top level, above avx512. ARM64's levels come after the x86 ones
// (issue 62), so that the x86 names keep their values: neon (Advanced SIMD, 128 bits) ranks with sse, sve (vector
// length agnostic, 128 to 2048 bits) with avx512.
enum class Isa { scalar, sse, avx2, avx_vnni, avx512, amx, neon, sve };

std::string_view to_string(Isa isa);
std::optional<Isa> parse_isa(std::string_view name);
// The cap order used by --max-isa: scalar < sse == neon < avx2 == avx_vnni < avx512 == sve < amx.
int isa_rank(Isa isa);
// Vector width in bits a kernel of this ISA uses (scalar -> 64, sse -> 128, avx2/avx_vnni -> 256, avx512 -> 512;
// amx -> 8192, one 1 KiB tile register; neon -> 128; sve -> 128, its architectural minimum: a kernel's row carries
// the length it ran at).
int vector_bits(Isa isa);

// CPU features a kernel may need. Filled by bench/ from cpuid (and xgetbv for OS support) on x86-64, from HWCAP
// on ARM64.
struct IsaFeatures {
  bool sse2 = false;
  bool sse4_2 = false;
  bool avx = false;
  bool avx2 = false;
  bool fma = false;
  bool f16c = false;
  bool avx512f = false;
  bool avx512dq = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512_vnni = false;
  bool avx512_bf16 = false;
  bool avx512_fp16 = false;
  bool avx_vnni = false;
  bool amx_tile = false;
  bool amx_bf16 = false;
  bool amx_int8 = false;
  bool amx_fp16 = false;
  // ARM64 (HWCAP, HWCAP2): Advanced SIMD, its dot product (SDOT/UDOT), fp16 arithmetic, int8 matrix multiply (SMMLA)
  // and bf16 (BFDOT, BFMMLA); SVE.
  bool neon = false;
  bool neon_dotprod = false;
  bool neon_fp16 = false;
  bool neon_i8mm = false;
  bool neon_bf16 = false;
  bool sve = false;
  // The highest ISA level kernels may use (--max-isa); features above it read as absent.
  Isa max_isa = Isa::amx;

  // Features left after a --max-isa cap: everything above the cap is switched off.
  [[nodiscard]] IsaFeatures capped(Isa max_isa) const;
  // Whether kernels of this ISA level can run (e.g. avx512 needs F+BW+VL+DQ, avx2 needs AVX2+FMA, amx needs
  // AMX-TILE, which bench/ sets only when the OS granted the tile state and a trial instruction ran).
  [[nodiscard]] bool supports(Isa isa) const;
};

// Memory levels, ordered from the core outwards. Results files name them "L1", "L2", "L3", "DRAM".
enum class Level { L1, L2, L3, DRAM };

std::string_view to_string(Level level);
std::optional<Level> parse_level(std::string_view name);
std::span<const Level> all_levels();
// Cache levels only (L1, L2, L3): the ones a machine's facts report a capacity for.
std::span<const Level> cache_levels();

// Page sizes of memory the bandwidth kernels run on. Results files name them "2M" (2 MiB transparent huge
// pages asked for with madvise(MADV_HUGEPAGE): the main sweep) and "4K" (4 KiB pages, MADV_NOHUGEPAGE:
// what likwid-bench and STREAM get by default); a DRAM ceiling without the field means "2M" (files from
// before page sizes were recorded).
enum class PageSize { huge_2m, base_4k };

std::string_view to_string(PageSize pages);
std::optional<PageSize> parse_page_size(std::string_view name);

// Compute engines: the vector units (SSE/AVX/AVX-512) or matrix units (Intel AMX tiles). Results files
// name them "vector" and "matrix"; a file without the field means "vector" (files from before engines).
enum class Engine { vector, matrix };

std::string_view to_string(Engine engine);
std::optional<Engine> parse_engine(std::string_view name);
// The engine kernels of an ISA level run on: amx -> matrix, every other level -> vector.
Engine engine_of(Isa isa);

}  // namespace roofline
