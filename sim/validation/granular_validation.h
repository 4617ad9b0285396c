#pragma once
// The granular validation cases with the frictional contact law, shared by the tests (reduced
// size, CPU) and `particle-lab validate` (any size, any backend): set-ups and measurements
// only, the thresholds live with the callers.
//
// Column collapse (Lajeunesse, Monnier & Homsy, Phys. Fluids 17, 103302 (2005), quasi-2D
// glass beads): a column L0 long and H0 high (a = H0/L0) settles behind a gate at x = L0 in a
// narrow channel, the gate goes, and the deposit's front stops at L∞; the normalised runout
// (L∞ − L0)/L0 follows about 1.8·a for a < 3 and 2.3·a^(2/3) above.
// Lifted cylinder: beads settle in a square box on the floor, the cylinder inscribed in it is
// kept (the others are taken away), the cylinder goes, and the pile's flank is fitted for its
// angle.
// Heap: the reference's piling test, a quasi-2D heap poured through a slot into a narrow
// channel, both flanks fitted as seen through the front wall.
#include <cstddef>
#include <functional>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"

namespace plab::sim {

// Lajeunesse et al.'s fit of the quasi-2D runout: 1.8·a below a = 3, 2.3·a^(2/3) above.
double lajeunesse_runout(double a);

// A granular case: a frictional preset's parameters (glass-beads or sand-like; substeps set so
// one Simulator::step call is about 5 ms) and the particles' start.
struct GranularCase {
    Params params;
    InitialState init;
    double l0 = 0, h0 = 0;  // m: column length and height; cylinder radius and height
    double width = 0;       // m: the channel's width (column collapse)
    // A rough floor (lifted cylinder): one layer of beads on the floor, glued in place
    // (Params::glued_below), empty for a smooth floor.
    std::vector<Float4> floor;
    // Seeds the rough floor's offsets and the poured beads' jitter: another seed, another pile
    // of the same case.
    uint32_t seed = 0;
    // Heap: the beads poured (the case starts from the rough floor alone, init.pos empty).
    std::size_t beads = 0;
};

// A column of aspect ratio `a` with `resolution` bead diameters across its smaller side, in a
// channel `channel` diameters wide; the domain runs far enough in x for the reference runout
// with room to spare. Not yet settled: run_column_collapse settles it behind the gate first.
GranularCase column_collapse_case(double a, int resolution, int channel,
                                  Preset preset = Preset::GlassBeads);

// The glass-bead pile the angle-of-repose case reproduces: Sunday, Murdoch, Tardivel, Schwartz
// & Michel, MNRAS 498, 1062 (2020), soda-lime glass beads of 1 mm poured from a hopper into a
// heap in a narrow channel (HeapShape), measured 25.2 ± 0.8° (six heaps), and the DEM
// coefficients their simulation reproduced it with: sliding friction 0.16 bead on bead and
// 0.45 bead on wall (the channel's plates; the floor is lined with fixed beads), rolling
// resistance 0.09 as a torque of at most μ_r·R·F_n with R the bead's radius (the reference's
// code measures the lever from the bead's centre to the contact; ours, dem_friction.h, too).
// Its beads measured 1 ± 0.2 mm: radii spread ±20% (Params::radius_spread).
struct ReposeReference {
    double angle_deg = 25.2, spread_deg = 0.8;
    float friction = 0.16f, wall_friction = 0.45f, rolling_friction = 0.09f;
    float radius_spread = 0.2f;
    const char* source =
        "Sunday, Murdoch, Tardivel, Schwartz & Michel, MNRAS 498, 1062 (2020): glass beads of "
        "1 +- 0.2 mm, repose angle 25.2 +- 0.8 deg; DEM mu_s 0.16 (bead), 0.45 (wall), mu_r "
        "0.09";
};
inline constexpr ReposeReference kReposeReference{};

// A cylinder `resolution` diameters in radius and `height_ratio` radii high in the middle of a
// floor wide enough for a pile at 15°; `init` holds the square block around it, which
// run_lifted_cylinder settles and cuts. With the glass-beads preset the friction coefficients
// are the reference's (kReposeReference); the sand-like preset keeps its own. `rough_floor`
// lays a layer of glued beads over the whole floor, one per diameter squared, each up to 0.3 d
// off its square-lattice site (no regular template for the pile to crystallise on), as the
// reference's simulation lined its base. `seed` (GranularCase::seed) picks the floor's offsets
// and a poured pile's jitter.
GranularCase lifted_cylinder_case(int resolution, double height_ratio,
                                  Preset preset = Preset::GlassBeads, bool rough_floor = true,
                                  uint32_t seed = 0);

// The reference's piling test in bead diameters d, as the Project Chrono GPU demo that
// reproduces it sets it up (the paper's own tables are not at hand here): beads run out of a
// hopper through a slot 13 d wide, across the whole depth, 56 d above the floor, into a
// channel 177 d wide and 18 d deep between a front and a back plate (bead on plate: the
// reference's 0.45), and heap up on a floor lined with fixed beads; 49,000 beads. The angle
// the reference measured is this heap's, both flanks fitted in side views, not a cone's.
struct HeapShape {
    double width = 177, depth = 18, slot = 13, drop = 56;  // d
    double beads = 49000;
};
inline constexpr HeapShape kReferenceHeap{};

// The heap `depth` beads deep across the channel (18: the reference's size); its other lengths
// scale with the depth and its bead count with the depth cubed. Coefficients and rough floor
// as in lifted_cylinder_case (glass beads take the reference's; `seed` picks the floor's
// offsets and the pour's jitter). The domain is centred on the slot in x and z; `width` holds
// the channel's depth, `l0` the slot's width and `h0` its height above the floor (m).
GranularCase heap_case(int depth, Preset preset = Preset::GlassBeads, uint32_t seed = 0);

// Called after every Simulator::step call; an exception from it ends the run.
using GranularHook = std::function<void()>;

// Where the deposit ends along x (m, from the domain's x minimum): the end of the run of
// one-diameter slices, from the back wall on, that hold at least half a layer of beads across
// the channel (beads that rolled off ahead of the deposit are not its front).
double deposit_front(const Snapshot& s, const Params& p, const Domain& d);

struct CollapseResult {
    double a = 0;           // the settled column's aspect ratio H0/L0
    double h0 = 0, l0 = 0;  // m, after settling
    double front = 0;       // m, L∞ measured from the back wall
    double runout = 0;      // (L∞ − L0)/L0
    double t_stop = 0;      // s after the release when the deposit came to rest (or stopped)
    bool came_to_rest = false;
    std::size_t non_finite = 0;
    std::size_t particles = 0;
};

// Settles the column behind the gate, releases it, runs until every bead is slower than
// 5% of √(g·d) (or for at most `max_time` s) and measures the runout.
CollapseResult run_column_collapse(Simulator& sim, const GranularCase& c, double max_time,
                                   const GranularHook& after_step = {});

// The pile's surface: the highest bead top in rings one diameter wide around the axis.
struct PileProfile {
    std::vector<double> r, h;  // m: ring centre, surface height (0 where the ring is empty)
};
PileProfile pile_profile(const Snapshot& s, const Params& p, const Domain& d);

// A straight line h = h0 − r·tan θ fitted to the flank: the rings whose height lies between
// `lo` and `hi` of the pile's top (leaving out the rounded top and the thin toe).
struct FlankFit {
    double angle_deg = 0, top = 0;
    int rings = 0;
};
FlankFit fit_flank(const PileProfile& prof, double lo, double hi);

struct PileResult {
    PileProfile profile;
    FlankFit fit;
    double t_stop = 0;
    bool came_to_rest = false;
    std::size_t non_finite = 0;
    std::size_t particles = 0;
};

// Settles the block, cuts the cylinder, releases it and runs until every bead is slower than
// 5% of √(g·d) (or for at most `max_time` s), then measures the pile.
PileResult run_lifted_cylinder(Simulator& sim, const GranularCase& c, double max_time,
                               const GranularHook& after_step = {});

// Pours a pile grain by grain instead, as from a funnel over the axis: every `batch_time` s a
// patch of 5×5 beads (spacing 1.1 d) is placed at rest two diameters above the highest bead
// near the axis, until the pile holds as many beads as the case's cylinder would (about
// π/4 of its settled box); the state, contact memory included, carries on across the batches.
// Then runs until at rest (at most `max_time` s after the last batch) and measures the pile.
PileResult run_poured_pile(Simulator& sim, const GranularCase& c, double max_time,
                           double batch_time = 0.025, const GranularHook& after_step = {});

// The heap's surface as seen through the channel's front wall: the highest bead top in each
// column one diameter wide along x, on either side of the slot's axis (x = 0), `r` the
// column's distance from it.
struct HeapProfile {
    PileProfile left, right;
};
HeapProfile heap_profile(const Snapshot& s, const Params& p, const Domain& d);

// The heap's angle (the two flanks' mean) at a time after the last batch (s).
struct HeapAngleAt {
    double t = 0, angle_deg = 0;
};

struct HeapResult {
    HeapProfile profile;
    FlankFit left, right;  // each flank between 20% and 80% of the top
    double angle_deg = 0;  // the two flanks' mean
    // The angle right after the last batch and every 0.5 s after it while the heap runs to
    // rest: a heap that keeps slumping shows here.
    std::vector<HeapAngleAt> relaxation;
    double t_stop = 0;  // s after the last batch
    bool came_to_rest = false;
    std::size_t non_finite = 0;
    std::size_t particles = 0;
};

// Pours the heap (heap_case) as from the reference's hopper: every batch, a block of beads
// filling the slot's footprint across the channel, 4 layers deep (spacing 1.1 d, at rest, the
// lowest layer at the slot's height, or two diameters above the highest bead under the slot
// once the heap reaches that), the next batch once the block has fallen clear of where it
// started; until `c.beads`. Then runs until at rest (at most `max_time` s), sampling the angle
// every 0.5 s, and measures both flanks.
HeapResult run_poured_heap(Simulator& sim, const GranularCase& c, double max_time,
                           const GranularHook& after_step = {});

}  // namespace plab::sim
