// The stand-in for bench/drivers/mpi_run.cpp in a build without MPI: `roofline run --mpi` says how to get it.
#include "roofline/drivers/mpi_run.hpp"

#include "roofline/common/errors.hpp"

namespace roofline {

bool mpi_built() { return false; }

int run_under_mpi(const MpiRunHooks&) {
  throw InputError("--mpi: this roofline was built without MPI; install Open MPI (Debian 'libopenmpi-dev openmpi-bin', "
                   "or scripts/install-deps) and rebuild (cmake -DROOFLINE_WITH_MPI=ON)");
}

}  // namespace roofline
