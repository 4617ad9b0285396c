#pragma once
// The ranks of a run as the processes of one MPI job (`mpirun -n K particle-lab ...`): the
// transport of rank_transport.h over MPI's collectives (Open MPI from Debian). Built when CMake
// finds MPI (PLAB_HAS_MPI); mpi_job_size_from_environment and make_mpi_transport exist either way,
// so a build without it says why it cannot run K ranks instead of running the whole scene K times.
#include <memory>

#include "sim/ranks/rank_transport.h"

namespace plab::sim {

// The job's size when this process was started by an MPI launcher (its environment says so:
// Open MPI's OMPI_COMM_WORLD_SIZE, or PMI_SIZE of MPICH and Slurm), else 0.
int mpi_job_size_from_environment();

// Initialises MPI (once per process) and returns the job's transport; MPI is finalised when the
// transport goes. Throws plab::Error when this build has no MPI or MPI does not start.
std::unique_ptr<RankTransport> make_mpi_transport();

}  // namespace plab::sim
