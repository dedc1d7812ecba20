// Names and properties of precisions, ISA levels, memory levels and engines, and the --max-isa cap.
#include "roofline/common/vocabulary.hpp"

#include <array>

#include "roofline/common/name_table.hpp"

namespace roofline {
namespace {
constexpr NameTable<Precision, 8> kPrecisionNames{{{Precision::fp64, "fp64"}, {Precision::fp32, "fp32"},
                                                   {Precision::bf16, "bf16"}, {Precision::fp16, "fp16"},
                                                   {Precision::int8, "int8"}, {Precision::tf32, "tf32"},
                                                   {Precision::fp8, "fp8"}, {Precision::int32, "int32"}}};
constexpr NameTable<Isa, 8> kIsaNames{{{Isa::scalar, "scalar"}, {Isa::sse, "sse"}, {Isa::avx2, "avx2"},
                                        {Isa::avx_vnni, "avx_vnni"}, {Isa::avx512, "avx512"}, {Isa::amx, "amx"},
                                        {Isa::neon, "neon"}, {Isa::sve, "sve"}}};
constexpr std::array<Precision, 8> kPrecisions{Precision::fp64, Precision::fp32, Precision::tf32, Precision::bf16,
                                               Precision::fp16, Precision::fp8,  Precision::int32, Precision::int8};
constexpr NameTable<Level, 4> kLevelNames{{{Level::L1, "L1"}, {Level::L2, "L2"}, {Level::L3, "L3"}, {Level::DRAM, "DRAM"}}};
constexpr std::array<Level, 4> kLevels{Level::L1, Level::L2, Level::L3, Level::DRAM};
constexpr NameTable<PageSize, 2> kPageSizeNames{{{PageSize::huge_2m, "2M"}, {PageSize::base_4k, "4K"}}};
constexpr NameTable<Engine, 2> kEngineNames{{{Engine::vector, "vector"}, {Engine::matrix, "matrix"}}};
}  // namespace

std::string_view to_string(Precision p) { return name_of(kPrecisionNames, p); }
std::optional<Precision> parse_precision(std::string_view name) { return value_of(kPrecisionNames, name); }
std::span<const Precision> all_precisions() { return kPrecisions; }

int element_bytes(Precision p) {
  switch (p) {
    case Precision::fp64: return 8;
    case Precision::fp32:
    case Precision::tf32:
    case Precision::int32: return 4;
    case Precision::bf16:
    case Precision::fp16: return 2;
    case Precision::int8:
    case Precision::fp8: return 1;
  }
  return 0;
}

std::string_view rate_unit(Precision p) { return is_integer(p) ? "OP/s" : "FLOP/s"; }

std::string_view to_string(Isa isa) { return name_of(kIsaNames, isa); }
std::optional<Isa> parse_isa(std::string_view name) { return value_of(kIsaNames, name); }

std::string_view to_string(Level level) { return name_of(kLevelNames, level); }
std::optional<Level> parse_level(std::string_view name) { return value_of(kLevelNames, name); }
std::span<const Level> all_levels() { return kLevels; }

std::string_view to_string(PageSize pages) { return name_of(kPageSizeNames, pages); }
std::optional<PageSize> parse_page_size(std::string_view name) { return value_of(kPageSizeNames, name); }
std::span<const Level> cache_levels() { return std::span<const Level>(kLevels).first(3); }

std::string_view to_string(Engine engine) { return name_of(kEngineNames, engine); }
std::optional<Engine> parse_engine(std::string_view name) { return value_of(kEngineNames, name); }

int isa_rank(Isa isa) {
  switch (isa) {
    case Isa::scalar: return 0;
    case Isa::sse:
    case Isa::neon: return 1;
    case Isa::avx2:
    case Isa::avx_vnni: return 2;
    case Isa::avx512:
    case Isa::sve: return 3;
    case Isa::amx: return 4;
  }
  return 0;
}

int vector_bits(Isa isa) {
  switch (isa) {
    case Isa::scalar: return 64;
    case Isa::sse:
    case Isa::neon:
    case Isa::sve: return 128;
    case Isa::avx2:
    case Isa::avx_vnni: return 256;
    case Isa::avx512: return 512;
    case Isa::amx: return 8192;
  }
  return 64;
}

Engine engine_of(Isa isa) { return isa == Isa::amx ? Engine::matrix : Engine::vector; }

IsaFeatures IsaFeatures::capped(Isa max_isa) const {
  IsaFeatures f = *this;
  const int rank = isa_rank(max_isa);
  if (rank < 4) f.amx_tile = f.amx_bf16 = f.amx_int8 = f.amx_fp16 = false;
  if (rank < 3) {
    f.avx512f = f.avx512dq = f.avx512bw = f.avx512vl = false;
    f.avx512_vnni = f.avx512_bf16 = f.avx512_fp16 = false;
    f.sve = false;
  }
  if (rank < 2) {
    f.avx = f.avx2 = f.fma = f.f16c = f.avx_vnni = false;
  }
  if (rank < 1) {
    // SSE2 is part of x86-64 itself (the compiler uses it for scalar code); a "scalar" cap only stops the
    // kernels from choosing vector code, through max_isa below.
    f.sse4_2 = false;
    f.neon = f.neon_dotprod = f.neon_fp16 = f.neon_i8mm = f.neon_bf16 = false;
  }
  if (isa_rank(max_isa) < isa_rank(f.max_isa)) f.max_isa = max_isa;
  return f;
}

bool IsaFeatures::supports(Isa isa) const {
  if (isa_rank(isa) > isa_rank(max_isa)) return false;
  switch (isa) {
    case Isa::scalar: return true;
    case Isa::sse: return sse2;
    case Isa::avx2: return avx2 && fma;
    case Isa::avx_vnni: return avx2 && avx_vnni;
    case Isa::avx512: return avx512f && avx512dq && avx512bw && avx512vl;
    case Isa::amx: return amx_tile;
    case Isa::neon: return neon;
    case Isa::sve: return sve;
  }
  return false;
}

}  // namespace roofline
