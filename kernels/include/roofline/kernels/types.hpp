// Vocabulary shared by every kernel: numeric precisions and instruction-set levels. The kernels know
// nothing of how the CPU was detected; the harness (bench/) detects the features and passes them in.
#pragma once

#include <optional>
#include <string_view>

namespace roofline {

enum class Precision { fp64, fp32, bf16, fp16, int8 };

// Names as they appear in results files: "fp64", "fp32", "bf16", "fp16", "int8".
std::string_view to_string(Precision p);
std::optional<Precision> parse_precision(std::string_view name);
// Bytes of one element of this precision (int8 -> 1, bf16 -> 2, ...).
int element_bytes(Precision p);
// True for integer precisions, whose rates are OP/s rather than FLOP/s.
bool is_integer(Precision p);

// Instruction-set levels, ordered: a cap of `avx2` allows scalar, sse and avx2 kernels.
// avx_vnni is the 256-bit VEX-encoded VNNI of Alder Lake / Zen 5 and sits beside avx2; amx (the tile
// matrix unit of Sapphire Rapids and later) is the top level, above avx512.
enum class Isa { scalar, sse, avx2, avx_vnni, avx512, amx };

std::string_view to_string(Isa isa);
std::optional<Isa> parse_isa(std::string_view name);
// The cap order used by --max-isa: scalar < sse < avx2 == avx_vnni < avx512 < amx.
int isa_rank(Isa isa);
// Vector width in bits a kernel of this ISA uses (scalar -> 64, sse -> 128, avx2/avx_vnni -> 256, avx512 -> 512;
// amx -> 8192, one 1 KiB tile register).
int vector_bits(Isa isa);

// The unit a compute ceiling is measured on: the vector units (scalar, SSE, AVX*, AVX-512) or a matrix unit
// (AMX tiles). A precision has one ceiling per engine; results files without the field mean vector.
enum class Engine { vector, matrix };
std::string_view to_string(Engine e);
std::optional<Engine> parse_engine(std::string_view name);
// amx -> matrix, every other ISA level -> vector.
Engine engine_of(Isa isa);

// CPU features a kernel may need. Filled by bench/ from cpuid (and xgetbv for OS support).
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
  // The highest ISA level kernels may use (--max-isa); features above it read as absent.
  Isa max_isa = Isa::amx;

  // Features left after a --max-isa cap: everything above the cap is switched off.
  [[nodiscard]] IsaFeatures capped(Isa max_isa) const;
  // Whether kernels of this ISA level can run (e.g. avx512 needs F+BW+VL+DQ, avx2 needs AVX2+FMA, amx needs
  // AMX-TILE, which bench/ sets only when the OS granted the tile state and a trial instruction ran).
  [[nodiscard]] bool supports(Isa isa) const;
};

}  // namespace roofline
