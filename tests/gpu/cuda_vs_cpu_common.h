#pragma once
// What the CUDA-against-CPU tests share: the fixture (skips where there is no CUDA device) and
// how far two runs of the same scene have drifted apart.
#include <memory>

#include "sim/engine/simulator.h"
#include "sim/model/presets.h"
#include "sim/run/make_simulator.h"
#include "support/cuda_skip.h"

namespace plab::sim {

class CudaVsCpu : public test::CudaTest {
  protected:
    std::unique_ptr<Simulator> cuda(SimulatorOptions o = {}) {
        return make_simulator(Backend::Cuda, nullptr, o);
    }
};

// How far two runs of the same scene have drifted apart.
struct Divergence {
    double max = 0, median = 0;  // per-particle position difference, m
    double centre_of_mass = 0;   // |Δ centre of mass|, m
    double energy = 0;           // relative difference of the kinetic energy
};

// Position differences particle by particle (each must be finite) and of the kinetic energy.
Divergence divergence(Simulator& a, Simulator& b, const Params& p);

// Runs `steps` steps of `preset` on both simulators from the same start (the second one's x
// coordinates moved by one ulp when `perturb`).
Divergence run_pair(Simulator& a, Simulator& b, Preset preset, std::size_t n, int steps,
                    bool perturb = false);

// Prints `d` and records it as the test's properties `key`_max, _median and _com.
void record(const char* key, const Divergence& d);

}  // namespace plab::sim
