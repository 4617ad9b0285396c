#pragma once
// The silo discharge case with the frictional contact law, shared by the tests (reduced size,
// CPU) and `particle-lab validate silo` (any size, any backend): set-up and measurements only,
// the thresholds live with the callers.
//
// A square silo whose floor is a plate with a circular orifice of diameter D in its middle
// (sim/geometry/orifice_plate.h) holds a fill of beads of diameter d; the fill settles with the
// orifice closed, the orifice opens and the beads drain into the catch basin below the plate (the
// domain's own floor). Beverloo, Leniger & van de Velde, Chem. Eng. Sci. 15, 260 (1961): the
// mass flow rate of a circular orifice is W = C ρ_b √g (D − k d)^(5/2), with ρ_b the fill's
// bulk density, C ≈ 0.58 (0.5–0.65 in experiments) and k ≈ 1.5, and it does not depend on the
// fill's height while the fill stands well above the orifice.
#include <cstddef>
#include <functional>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"

namespace plab::sim {

// Beverloo's law: W (kg/s) for the coefficient `c`, bulk density `rho_b` (kg/m³), orifice `D`
// and bead diameter `d` (m), shape constant `k` and gravity `g` (m/s²); 0 when D ≤ k d.
double beverloo_flow(double c, double rho_b, double D, double d, double k = 1.5, double g = 9.81);

// Beverloo's law fitted to the flows of several orifices as Beverloo et al. fitted theirs:
// W^(2/5) = (C ρ_b √g)^(2/5) (D − k d) is a straight line in D.
struct BeverlooFit {
    // C with k = 1.5: least squares of W^(2/5) against (D − 1.5 d) through the origin.
    double c = 0;
    // The largest |W / W_law − 1| of an orifice against the law with that C.
    double worst = 0;
    // C and k both fitted (the line's slope and intercept); 0 with fewer than two orifices.
    double c_free = 0, k_free = 0;
};
// `orifices` (m) and `flows` (kg/s) pair up; orifices not wider than 1.5 d are left out.
BeverlooFit fit_beverloo(const std::vector<double>& orifices, const std::vector<double>& flows,
                         double rho_b, double d, double g = 9.81);

// A silo: a frictional preset's parameters (glass-beads or sand-like; substeps set so one
// Simulator::step call is about 5 ms) with the plate in place and the orifice closed, and the
// fill's start on a loose lattice above the plate.
struct SiloCase {
    Params params;
    InitialState init;
    double width = 0;  // m, the side of the silo's square cross-section
    double floor = 0;  // m, the plate's height above the domain's floor (the basin's depth)
};

// A silo `width_beads` bead diameters across, filled about `fill_beads` diameters high once
// settled; the basin below the plate holds the whole fill.
SiloCase silo_case(int width_beads, int fill_beads, Preset preset = Preset::GlassBeads);

// Called after every Simulator::step call; an exception from it ends the run.
using SiloHook = std::function<void()>;

// The fill settled with the orifice closed, which every orifice then drains.
struct SiloFill {
    std::vector<Float4> pos;  // by id, m
    double bulk_density = 0;  // kg/m³, ρ_b away from the walls, the plate and the surface
    double height = 0;        // m, the mean height: the fill's mass over ρ_b and cross-section
    double settle_time = 0;   // s
    bool settled = false;     // came to rest (every bead slower than 5% of √(g·d))
    std::size_t non_finite = 0;
};

// Settles the fill with the orifice closed: until at rest, at most 1 + 3√(h/g) s for the
// lattice's height h; then measures it.
SiloFill settle_silo(Simulator& sim, const SiloCase& c, const SiloHook& after_step = {});

// One sample of the discharge: time since the orifice opened, mass below the plate, and the
// fill's mean height above the plate (the mass left above it over ρ_b and the cross-section).
struct SiloSample {
    double t = 0, discharged = 0, fill = 0;  // s, kg, m
};

// The flow rate fitted (least squares, mass against time) over the samples whose fill lies in
// [fill_lo, fill_hi].
struct SiloWindow {
    double fill_lo = 0, fill_hi = 0;  // m
    double flow = 0;                  // kg/s
    int samples = 0;
};

// The samples after `skip` s (the start of the flow) whose fill is at least `fill_min`, split
// into `windows` windows of equal fill height over the heights they reach, each fitted for its
// flow rate; `flow` over all of them, and `spread` the largest |W_window / W − 1| (1 for a
// window with fewer than 3 samples).
struct SiloFit {
    double flow = 0, spread = 0;
    std::vector<SiloWindow> windows;  // highest fill first
};
SiloFit fit_silo_flow(const std::vector<SiloSample>& series, double skip, double fill_min,
                      int windows);

struct SiloResult {
    double orifice = 0;  // m, D
    SiloFit fit;         // 3 windows of the fill above one orifice diameter
    // C = W / (ρ_b √g (D − 1.5 d)^(5/2)), Beverloo's coefficient of the fitted flow.
    double coefficient = 0;
    double run_time = 0;   // s the orifice was open
    bool stalled = false;  // the flow stopped (an arch formed) before the fill ran low
    std::vector<SiloSample> series;
    std::size_t discharged = 0, non_finite = 0;
};

// Restarts from the settled fill, opens an orifice `orifice_beads` bead diameters wide (0, the
// plate closed, up to the silo's width less 4 beads) and records the discharge every 0.01 s until
// the fill's mean height is below `stop_fill` orifice diameters, no bead has passed for 0.5 s, or
// `max_time` s have passed; then fits the flow.
SiloResult discharge_silo(Simulator& sim, const SiloCase& c, const SiloFill& fill,
                          double orifice_beads, double max_time, double stop_fill = 0.7,
                          const SiloHook& after_step = {});

}  // namespace plab::sim
