#include "app/viewer/window_run.h"

namespace plab::app {

sim::RunStart window_start(const AppConfig& config) {
    sim::RunStart s;
    s.backend = config.backend;
    s.options = config.options;
    s.request = config.run;
    s.default_particles = kDefaultCpuParticles;
    s.cuda_default_particles = kDefaultCudaParticles;
    s.checkpoint = config.checkpoint;
    s.checkpoint_source = config.load;
    return s;
}

std::size_t default_particles(sim::Backend backend) {
    return backend == sim::Backend::Cuda ? kDefaultCudaParticles : kDefaultCpuParticles;
}

}  // namespace plab::app
