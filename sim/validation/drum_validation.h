#pragma once
// The rotating drum case with the frictional contact law, shared by the tests (reduced size,
// CPU) and `particle-lab validate drum` (any size, any backend): set-up and measurement only,
// the thresholds live with the callers.
//
// Alizadeh, Dubé, Bertrand & Chaouki, AIChE J. 59, 1894 (2013) followed a tracer through a bed
// of 3 mm glass beads in a horizontal drum 0.24 m across and 0.36 m long (226,080 beads, about a
// third full) turning at 11.6 rev/min, the rolling regime (Froude number ω²R/g = 0.018): the
// bed rises with the wall and rolls down a flat free surface at the dynamic angle of repose,
// 27°. The drum's end walls turn with it, as in the experiment.
#include <cstddef>
#include <functional>
#include <vector>

#include "sim/core/vec.h"
#include "sim/engine/initial_state.h"
#include "sim/engine/simulator.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"

namespace plab::sim {

struct DrumReference {
    double diameter = 0.24, length = 0.36;  // m, inside
    double bead = 0.003;                    // m, diameter
    double beads = 226080;
    double rpm = 11.6;
    double angle_deg = 27.0;
    const char* source =
        "Alizadeh, Dube, Bertrand & Chaouki, AIChE J. 59, 1894 (2013): 226,080 glass beads of "
        "3 mm in a drum 0.24 m across and 0.36 m long at 11.6 rev/min, dynamic angle of repose "
        "27 deg";
};
inline constexpr DrumReference kDrumReference{};

// The reference's drum is 80 beads across and 120 long.
inline constexpr int kDrumReferenceResolution = 80;
// Fewer beads across and the lattice, a bead and a half inside every wall, cannot hold the
// case's share of beads; more and the case outgrows any one GPU.
inline constexpr int kDrumMinResolution = 16, kDrumMaxResolution = 400;

struct DrumCase {
    Params params;
    InitialState init;              // the beads at rest on a lattice, and the drum (geometry)
    double radius = 0, length = 0;  // m, inside
    Vec3 center;                    // m, the middle of the axis, which runs along z
    double rpm = 0;                 // right-handed about +z: the wall rises on the +x side
};

// The reference's drum, 0.24 m across, `resolution` bead diameters across (80: the reference's
// beads) and 1.5 times as long, filled with the reference's share of beads (226,080 at 80; the
// count scales with the beads' volume). The preset's beads are scaled to that diameter as
// similarity asks: the mass with the volume, the normal stiffness with the diameter squared
// (the bed then sinks by the same share of a diameter under its own weight), the dashpots so
// the restitution stays, dt the preset's t_c/20 for the new bead and the calls about 5 ms.
// The beads start at rest on a jittered lattice filling the drum from the bottom.
DrumCase drum_case(int resolution, Preset preset = Preset::GlassBeads,
                   double rpm = kDrumReference.rpm);

// The bed's free surface in the drum's cross-section (x across, y up, from the axis): in
// columns one bead wide over the middle of the drum (|x| ≤ R/2), the height below which all
// but half a layer of the column's beads lie (a bead or two thrown above the surface does not
// lift it), and the straight line fitted through them.
struct DrumSurface {
    std::vector<double> x, y;  // m from the axis: column centres, surface heights
    double angle_deg = 0;      // > 0 when the surface rises towards +x
};
// The beads within 2 diameters of an end wall are left out (they are not lying freely).
DrumSurface drum_surface(const Snapshot& s, const DrumCase& c);

struct DrumSample {
    double t = 0, angle_deg = 0;
};

struct DrumResult {
    std::vector<DrumSample> samples;
    double mean_deg = 0, spread_deg = 0;  // the samples' mean and standard deviation
    DrumSurface last;                     // at the last sample
    std::size_t non_finite = 0;
    std::size_t escaped = 0;  // beads outside the drum at the end (through its wall)
    double run_time = 0;      // s
};

// Called after every Simulator::step call; an exception from it ends the run.
using DrumHook = std::function<void()>;

// Runs the drum from its start for `spin_up` s, then measures the surface every `every` s for
// `measure` s.
DrumResult run_drum(Simulator& sim, const DrumCase& c, double spin_up, double measure, double every,
                    const DrumHook& after_step = {});

}  // namespace plab::sim
