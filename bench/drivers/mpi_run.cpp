// The MPI driver of `roofline run --mpi` (see mpi_run.hpp). Phases, each ended by a barrier:
//   1. prepare: every rank parses its flags and machine; rank 0 checks its outputs. One failure stops all.
//   2. measure: ranks on the same host (MPI_Comm_split_type SHARED) take turns, hosts measure at once.
//      Nobody sends anything while measuring; a waiting rank sleeps on MPI_Ibarrier + MPI_Test instead of
//      MPI_Barrier, whose busy polling would take a core from the rank measuring beside it.
//   3. gather: each rank's entry (results or error) as JSON text, lengths first, then MPI_Gatherv to rank 0.
//   4. finish: rank 0 writes the fleet file and report; its exit code is broadcast so every rank agrees.
#include "roofline/drivers/mpi_run.hpp"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "roofline/fleet/fleet_file.hpp"
#include "roofline/common/errors.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// MPI_Init_thread .. MPI_Finalize around the whole run, also when a phase throws. FUNNELED: only the main
// thread calls MPI; the OpenMP threads of the kernels never do.
class MpiSession {
 public:
  MpiSession() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// A barrier that waits without spinning (see the file comment).
void quiet_barrier(MPI_Comm comm) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm, &request);
  int done = 0;
  while (true) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done != 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string processor_name() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, static_cast<std::size_t>(length));
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

FleetLauncher launcher_facts(int world, int hosts) {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string lib(library, static_cast<std::size_t>(length));
  if (const auto end = lib.find_first_of(std::string("\n\0", 2)); end != std::string::npos) lib.resize(end);
  const std::string slurm_job = env_or_empty("SLURM_JOB_ID");
  const std::string launched_by = !env_or_empty("SLURM_STEP_ID").empty() ? "srun"
                                  : !env_or_empty("OMPI_COMM_WORLD_SIZE").empty() ? "mpirun"
                                                                                  : "unknown";
  FleetLauncher l{lib, world, hosts, launched_by, std::nullopt};
  if (!slurm_job.empty()) l.slurm_job_id = slurm_job;
  return l;
}

// Phase 3: every rank's entry to rank 0, which gets them all (others get an empty vector).
std::vector<FleetEntry> gather_entries(const FleetEntry& entry, int rank, int world) {
  std::string payload = to_json(entry).dump();
  if (payload.size() > static_cast<std::size_t>(INT_MAX / 2)) {
    payload = to_json(fleet_entry_failed(entry.rank, entry.node, "results too large to gather")).dump();
  }
  int length = static_cast<int>(payload.size());
  std::vector<int> lengths(rank == 0 ? world : 0), offsets(rank == 0 ? world : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  long long total = 0;
  for (int i = 0; i < static_cast<int>(lengths.size()); ++i) {
    offsets[i] = static_cast<int>(total);
    total += lengths[i];
  }
  // Gatherv's offsets are ints: a fleet over 2 GiB cannot be gathered in one call; every rank learns it.
  int fits = total <= INT_MAX ? 1 : 0;
  MPI_Bcast(&fits, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (fits == 0) throw std::runtime_error("the gathered results exceed 2 GiB: run fewer ranks per fleet file");
  std::vector<char> all(static_cast<std::size_t>(total));
  MPI_Gatherv(payload.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  // Each entry read back through the fleet file's reader (its results through the typed model's, which writes
  // them back as they were).
  std::vector<FleetEntry> entries;
  for (int i = 0; i < static_cast<int>(lengths.size()); ++i) {
    const json text = json::parse(all.begin() + offsets[i], all.begin() + offsets[i] + lengths[i]);
    entries.push_back(read_fleet_entry(text, "the gathered entries", static_cast<std::size_t>(i)));
  }
  return entries;
}

}  // namespace

bool mpi_built() { return true; }

int run_under_mpi(const MpiRunHooks& hooks) {
  const MpiSession session;
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const std::string node = processor_name();

  // Phase 1: the lowest failing rank says why; all exit 2 before anything is measured.
  std::string error;
  try {
    hooks.prepare();
    if (rank == 0) hooks.check_outputs();
  } catch (const std::exception& e) {
    error = e.what();
  }
  int mine = error.empty() ? world : rank, first_failed = world;
  MPI_Allreduce(&mine, &first_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_failed < world) {
    if (rank == first_failed) throw InputError(world > 1 ? fmt::format("rank {} ({}): {}", rank, node, error) : error);
    return kExitBadInput;
  }

  // Phase 2: turns per host.
  MPI_Comm host = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host);
  int host_rank = 0, host_ranks = 1, turns = 1, hosts = 1;
  MPI_Comm_rank(host, &host_rank);
  MPI_Comm_size(host, &host_ranks);
  MPI_Comm_free(&host);
  MPI_Allreduce(&host_ranks, &turns, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  int leader = host_rank == 0 ? 1 : 0;
  MPI_Allreduce(&leader, &hosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const json mpi = {{"rank", rank}, {"world_size", world}, {"host_rank", host_rank}, {"host_ranks", host_ranks}};
  FleetEntry entry;
  quiet_barrier(MPI_COMM_WORLD);
  for (int turn = 0; turn < turns; ++turn) {
    if (turn == host_rank) {
      try {
        // The rank's results through the typed model's reader, which the fleet file's entry writes back as they were.
        entry = fleet_entry_measured(rank, node, read_results(hooks.measure(mpi), fmt::format("rank {} ({})", rank, node)));
      } catch (const std::exception& e) {
        entry = fleet_entry_failed(rank, node, e.what());
      }
    }
    quiet_barrier(MPI_COMM_WORLD);
  }

  // Phases 3 and 4.
  std::vector<FleetEntry> entries = gather_entries(entry, rank, world);
  int code = kExitOk;
  std::exception_ptr failure;
  if (rank == 0) {
    try {
      code = hooks.finish(fleet_document(std::move(entries), launcher_facts(world, hosts)));
    } catch (const InputError&) {
      failure = std::current_exception();
      code = kExitBadInput;
    } catch (...) {
      failure = std::current_exception();
      code = kExitFailure;
    }
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (failure) std::rethrow_exception(failure);
  return code;
}

}  // namespace roofline
