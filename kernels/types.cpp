// Names and properties of precisions and ISA levels, and the --max-isa cap.
#include "roofline/kernels/types.hpp"

#include <array>
#include <utility>

namespace roofline {
namespace {
constexpr std::array<std::pair<Precision, std::string_view>, 5> kPrecisionNames{{
    {Precision::fp64, "fp64"},
    {Precision::fp32, "fp32"},
    {Precision::bf16, "bf16"},
    {Precision::fp16, "fp16"},
    {Precision::int8, "int8"},
}};
constexpr std::array<std::pair<Isa, std::string_view>, 6> kIsaNames{{
    {Isa::scalar, "scalar"},
    {Isa::sse, "sse"},
    {Isa::avx2, "avx2"},
    {Isa::avx_vnni, "avx_vnni"},
    {Isa::avx512, "avx512"},
    {Isa::amx, "amx"},
}};
constexpr std::array<std::pair<Engine, std::string_view>, 2> kEngineNames{{
    {Engine::vector, "vector"},
    {Engine::matrix, "matrix"},
}};
}  // namespace

std::string_view to_string(Precision p) {
  for (const auto& [value, name] : kPrecisionNames) {
    if (value == p) return name;
  }
  return "unknown";
}

std::optional<Precision> parse_precision(std::string_view name) {
  for (const auto& [value, n] : kPrecisionNames) {
    if (n == name) return value;
  }
  return std::nullopt;
}

int element_bytes(Precision p) {
  switch (p) {
    case Precision::fp64: return 8;
    case Precision::fp32: return 4;
    case Precision::bf16:
    case Precision::fp16: return 2;
    case Precision::int8: return 1;
  }
  return 0;
}

bool is_integer(Precision p) { return p == Precision::int8; }

std::string_view to_string(Isa isa) {
  for (const auto& [value, name] : kIsaNames) {
    if (value == isa) return name;
  }
  return "unknown";
}

std::optional<Isa> parse_isa(std::string_view name) {
  for (const auto& [value, n] : kIsaNames) {
    if (n == name) return value;
  }
  return std::nullopt;
}

int isa_rank(Isa isa) {
  switch (isa) {
    case Isa::scalar: return 0;
    case Isa::sse: return 1;
    case Isa::avx2:
    case Isa::avx_vnni: return 2;
    case Isa::avx512: return 3;
    case Isa::amx: return 4;
  }
  return 0;
}

int vector_bits(Isa isa) {
  switch (isa) {
    case Isa::scalar: return 64;
    case Isa::sse: return 128;
    case Isa::avx2:
    case Isa::avx_vnni: return 256;
    case Isa::avx512: return 512;
    case Isa::amx: return 8192;
  }
  return 64;
}

std::string_view to_string(Engine e) {
  for (const auto& [value, name] : kEngineNames) {
    if (value == e) return name;
  }
  return "unknown";
}

std::optional<Engine> parse_engine(std::string_view name) {
  for (const auto& [value, n] : kEngineNames) {
    if (n == name) return value;
  }
  return std::nullopt;
}

Engine engine_of(Isa isa) { return isa == Isa::amx ? Engine::matrix : Engine::vector; }

IsaFeatures IsaFeatures::capped(Isa max_isa) const {
  IsaFeatures f = *this;
  const int rank = isa_rank(max_isa);
  if (rank < 4) f.amx_tile = f.amx_bf16 = f.amx_int8 = f.amx_fp16 = false;
  if (rank < 3) {
    f.avx512f = f.avx512dq = f.avx512bw = f.avx512vl = false;
    f.avx512_vnni = f.avx512_bf16 = f.avx512_fp16 = false;
  }
  if (rank < 2) {
    f.avx = f.avx2 = f.fma = f.f16c = f.avx_vnni = false;
  }
  if (rank < 1) {
    // SSE2 is part of x86-64 itself (the compiler uses it for scalar code); a "scalar" cap only stops the
    // kernels from choosing vector code, through max_isa below.
    f.sse4_2 = false;
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
  }
  return false;
}

}  // namespace roofline
