#pragma once
// The SPH validation cases, shared by the tests (reduced resolution, CPU) and
// `particle-lab validate` (full resolution on any backend): set-ups and measurements only,
// the thresholds live with the callers.
//
// Dam break (Martin & Moyce 1952, n² = 2): a column a wide and 2a high collapses along a
// tank; the surge front x (from the wall behind the column) is compared as Z = x/a against
// T = t √(2g/a).
// Hydrostatic tank: a layer of depth H at rest; after settling, p(y) should be ρ₀ g (H − y).
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/model/params.h"
#include "sim/model/scene.h"

namespace plab::sim {

// Martin & Moyce's measured (T, Z) points for the n² = 2 column.
struct SurgePoint {
    double t, z;
};
std::vector<SurgePoint> martin_moyce_points();

// Z at T by linear interpolation between the measured points (T inside their range).
double martin_moyce_front(double t);

struct SphCase {
    Params params;
    Scene scene;
    std::size_t particles = 0;
    double a = 0;  // m: dam-break column width; hydrostatic: water depth H
    // The box the liquid is held in: the domain, or the mesh tank of hydrostatic_mesh_case.
    Domain tank;
    std::shared_ptr<const SceneGeometry> geometry;  // null: none
};

// A column of `columns` particles wide (2 × columns high, `depth` deep) in a 5a-long tank,
// with the water preset's physics at 1 cm spacing and the sound speed set for this height.
SphCase dam_break_case(int columns, int depth);

// A tank `width` particles square filled `height` particles deep.
SphCase hydrostatic_case(int width, int height);
// The same tank as a box of triangles (`inside`) in a domain larger by the kernel's reach
// and a spacing on every side, so that only the mesh holds the liquid.
SphCase hydrostatic_mesh_case(int width, int height);

// Surge front: the largest x reached by liquid in contact with the floor (particles in the
// lowest two layers), plus half a spacing, measured from the domain's x minimum, in metres.
double surge_front(const Snapshot& s, const Params& p, const Domain& d);

// Pressure (from each particle's density) binned by height: mean pressure and density of
// the particles at least `margin` from every side wall, one bin per particle layer.
// `surface`: the free surface's height, the mean height of the top particle layer plus half
// a spacing (after settling the liquid is not on the starting lattice any more, and its
// summation density packs it about a spacing lower in a 0.8 m tank).
struct DepthProfile {
    std::vector<double> y, pressure, density;  // bin centre (m), Pa, kg/m³
    std::vector<std::size_t> count;
    double surface = 0;  // m
};
DepthProfile depth_profile(const Snapshot& s, const Params& p, const Domain& d, double margin);

// The dam break run: the surge front sampled every `every` of dimensionless time up to
// `until` (T = t √(2g/a); Z = front / a). The simulator is reset to the case.
struct FrontSample {
    double t, z;
};
// `after_step`, when given, is called after every step; an exception from it ends the run
// (the app stops an interrupted validation this way).
using StepHook = std::function<void()>;
std::vector<FrontSample> run_dam_break(Simulator& sim, const SphCase& c, double until, double every,
                                       const StepHook& after_step = {});

// The start delay ΔT in [0, max_delay] (steps of 0.01) that brings the simulated front
// closest to Martin & Moyce's points (T ≤ `until`), compared as Z_sim(T − ΔT) against Z(T);
// returns the delay and the worst relative error at it. (The measured column started slowly
// as its support was removed; a simulated one is released at once.)
struct DelayFit {
    double delay = 0, worst = 0;
};
DelayFit fit_start_delay(const std::vector<FrontSample>& front, double until, double max_delay);

// The hydrostatic law fitted to the profile's layers with y in [y_lo, y_hi]:
// `surface`: the height where p = ρ₀ g (surface − y) vanishes with the slope held at ρ₀ g
//   (the least-squares H for the law itself: the free surface the pressure field sees);
// `slope`: the free least-squares slope dp/dy, negated, in Pa/m (ρ₀ g for water at rest,
//   a little more where the weakly compressible liquid is compressed).
struct PressureFit {
    double surface = 0, slope = 0;
    int layers = 0;
};
PressureFit fit_pressure(const DepthProfile& prof, double y_lo, double y_hi, double rho0_g);

// The hydrostatic run: settle for `settle` seconds, then average the depth profile of
// `snapshots` snapshots `gap` seconds apart (single snapshots carry the acoustic noise of a
// weakly compressible liquid). The simulator is reset to the case. `after_step` as for
// run_dam_break.
DepthProfile run_hydrostatic(Simulator& sim, const SphCase& c, double settle, int snapshots,
                             double gap, const StepHook& after_step = {});

}  // namespace plab::sim
