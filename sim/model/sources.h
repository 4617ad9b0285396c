#pragma once
// Where particles enter and leave a scene: emitters lay new particles on a face (a disc or a
// rectangle) moving out of it along its normal, sinks take away the particles that enter their
// box, and max_particles caps the count. sim/engine/emission.h places and removes them;
// sim::Run applies them between steps.
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/vec.h"

namespace plab::sim {

enum class EmitterShape { Disc, Rect };

struct Emitter {
    EmitterShape shape = EmitterShape::Disc;
    Vec3 center;
    Vec3 normal{0.f, -1.f, 0.f};  // the way new particles move; unit length once checked
    // Disc: size.x is the diameter. Rect: size.x along the face's first axis (normal × z, or
    // normal × x when the normal is along z), size.y along the second. m.
    Vec3 size;
    float speed = 1.f;  // m/s, along the normal
    // Particles a second; 0 while `flow` (m³/s, the volume of the particles' lattice cells)
    // stands for it, or, when both are 0, a full face every time the last one has moved a
    // spacing away (the rate the speed fills).
    double rate = 0, flow = 0;
    double start = 0;                                       // s
    double stop = std::numeric_limits<double>::infinity();  // s
};

struct Sink {
    Vec3 min, max;  // m: a particle whose centre lies inside leaves the run
};

struct Sources {
    std::vector<Emitter> emitters;
    std::vector<Sink> sinks;
    std::size_t max_particles = 0;  // with emitters: the most a run holds (its capacity)

    bool empty() const { return emitters.empty() && sinks.empty(); }
};

}  // namespace plab::sim
