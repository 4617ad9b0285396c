// The part of mpi_transport.h every build has: whether MPI launched this process, and the
// refusal of a build without MPI.
#include <cstdlib>
#include <string>

#include "sim/core/error.h"
#include "sim/ranks/mpi_transport.h"

namespace plab::sim {

int mpi_job_size_from_environment() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
        const char* v = std::getenv(name);
        if (v == nullptr || *v == '\0') continue;
        char* end = nullptr;
        const long n = std::strtol(v, &end, 10);
        if (*end == '\0' && n > 0 && n < 1'000'000) return static_cast<int>(n);
    }
    return 0;
}

#if !PLAB_HAS_MPI
std::unique_ptr<RankTransport> make_mpi_transport() {
    throw Error(
        "this build has no MPI (libopenmpi-dev was not found when it was configured): started "
        "by mpirun, each process would run the whole scene. Install libopenmpi-dev "
        "(./scripts/setup.sh) and rebuild");
}
#endif

}  // namespace plab::sim
