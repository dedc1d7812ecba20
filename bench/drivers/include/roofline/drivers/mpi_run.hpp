// `roofline run --mpi`: every MPI rank measures its node with the normal run and rank 0 gathers them into
// one fleet file (fleet_file.hpp). The driver owns only the MPI side: phases separated by barriers, ranks
// that share a host (MPI_Comm_split_type) measuring in turns, no MPI traffic while anyone measures (the
// waiting ranks sleep on a non-blocking barrier instead of spinning on a core), then lengths gathered and
// MPI_Gatherv of every rank's entry. What a run measures and writes stays in the CLI's hooks.
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

namespace roofline {

struct FleetDocument;  // the fleet file, typed (analysis/fleet's fleet_file.hpp)

struct MpiRunHooks {
  // Every rank, before anything is measured: parses flags and checks the machine. Throws InputError; the
  // lowest failing rank's message is the one printed, and every rank exits 2.
  std::function<void()> prepare;
  // Rank 0 only, before measuring: checks that the fleet file and report can be written (InputError).
  std::function<void()> check_outputs;
  // Every rank, in its turn: measures and returns its results file. `mpi` is recorded in its context
  // (rank, world_size, host_rank, host_ranks). An exception becomes the rank's error in the fleet file.
  std::function<nlohmann::json(const nlohmann::json& mpi)> measure;
  // Rank 0 only: writes the fleet file and report and prints; returns the exit code every rank returns.
  std::function<int(const FleetDocument& fleet)> finish;
};

// Whether this build has MPI.
bool mpi_built();

// Runs the hooks under MPI (MPI_Init .. MPI_Finalize) and returns the exit code. Without MPI in the build,
// throws InputError saying how to get it.
int run_under_mpi(const MpiRunHooks& hooks);

}  // namespace roofline
