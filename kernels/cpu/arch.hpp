// The one seam between the CPU kernels and the architecture they are built for (issue 62): what differs between
// x86-64 and ARM64 is chosen here, once, by which of arch_x86_64.cpp or arch_arm64.cpp the build compiles
// (cmake/arch/<arch>.cmake, picked by CMAKE_SYSTEM_PROCESSOR in cmake/RooflineArch.cmake). Everything else in
// kernels/cpu is the same code for every architecture: the tables, the OpenMP wrappers, the validators.
// A new architecture (RISC-V vector) is one more arch_<arch>.cpp defining these functions and its cmake/arch file.
#pragma once

#include <cstddef>
#include <span>

#include "gemm_eigen_variant.hpp"
#include "peak_isa.hpp"
#include "quant_blocks.hpp"
#include "roofline/kernels/cpu/stream.hpp"

namespace roofline::arch {

// STREAM: the lowest vector ISA of the architecture (every CPU of it has the streaming-store loops), the ISA level whose loops run under `features`, the doubles one of its vectors holds, and the run.
Isa stream_baseline_isa();
Isa stream_isa(const IsaFeatures& features);
std::size_t stream_vector_doubles(const IsaFeatures& features);
double stream_run(Isa isa, StreamKernel kernel, const StreamArrays& arrays, int threads, int repeats,
                  double* thread_seconds);

// Compute peaks: the architecture's per-ISA tables of rows (peak_isa.hpp), gathered and sorted by peak.cpp.
std::span<const peak_isa::PeakRows* const> peak_row_tables();
// The bits of the scalable rows' registers (PeakVariant::scalable: SVE's vector length) on this CPU; 0 where it has
// none (x86-64, an ARM64 core without SVE).
int scalable_vector_bits();

// Dequant-dot: the architecture's ISA rows (the scalar kernels first).
std::span<const quant::QuantIsaRow> quant_isa_rows();

// Eigen: the copy compiled for the best ISA level `features` allow.
gemm_detail::EigenVariant eigen_variant(const IsaFeatures& features);

// The measured clock's chain, roofline::clock_chain (peak.hpp), is inline assembly: each arch file defines it too.

}  // namespace roofline::arch
