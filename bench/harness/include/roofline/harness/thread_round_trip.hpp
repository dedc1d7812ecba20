// Where the host put our threads, measured beside the work (issue 59): the round trip of one cache line between
// OpenMP threads 0 and 1, pinned by the caller. On a shared 2-vCPU guest the host moves the vCPUs between placements
// within seconds, and the shared-memory figures follow the placement, not the code: on the development Zen 4 guest
// the round trip was 160-200 ns while two threads' memcpy moved 20-28 GB/s of DRAM, and 560-620 ns (the vCPUs on two
// memory systems) while it moved 27-38 GB/s (200 samples 1.7 s apart, the placement held for 5-15 s). Paired rounds
// compare such a figure only between runs whose threads were as far apart (compare_gate.hpp).
//
// Why our code cannot move it, as the libc canaries: a store and a load of one std::atomic<int> per half trip,
// compiled with the harness's flags (no ISA flags), no kernel of ours, no IsaFeatures. The binding can (a build that
// pins its threads elsewhere moves it in every run): the gate treats a move in most rounds as the build's.
#pragma once

namespace roofline {

// Round trips per sample and samples: the median sample's time per round trip is the figure (2000 round trips of
// 0.2-0.6 us: 0.4-1.2 ms a sample).
inline constexpr int kThreadRoundTrips = 2000;
inline constexpr int kThreadRoundTripSamples = 5;

// The median over kThreadRoundTripSamples samples of one round trip's time between OpenMP threads 0 and 1 of a team
// of `threads` (>= 2; the others wait), in ns. 0 when `threads` < 2, when the team has fewer than 2 threads, or when
// a sample took longer than a second (a thread not scheduled: no figure rather than a wait).
double measure_thread_round_trip_ns(int threads);

}  // namespace roofline
