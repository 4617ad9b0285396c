#include "sim/validation/granular_validation.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "sim/core/error.h"
#include "sim/model/bead_size.h"
#include "sim/validation/granular_runs.h"

namespace plab::sim {
namespace {

using granular::kG;
using granular::run_to_rest;

// The lattice the beads start on: a small gap and a jitter so the start is random enough to
// pack without the beads touching (2·1.1 r − 2·0.09 r > 2 r along each axis).
float lattice_spacing(const Params& p) { return 2.2f * p.radius; }
float lattice_jitter(const Params& p) { return 0.09f * p.radius; }

// A state to start from `pos` (id order) at rest in `domain`.
InitialState restart_state(const std::vector<Float4>& pos, const Domain& domain, const Params& p) {
    InitialState s;
    s.domain = domain;
    s.grid = scene_grid(domain, p);
    s.pos = pos;
    s.vel.assign(pos.size(), Float4{});
    return s;
}

// A bead of the rough floor (Params::glued_below).
bool glued(const Float4& q, const Params& p, const Domain& d) {
    return p.glued_below > 0.f && q.y < d.min.y + p.glued_below;
}

// The 99th percentile of the beads' tops: the settled column's height without a rattler.
double column_height(const Snapshot& s, const Params& p) {
    std::vector<float> y;
    for (const Float4& q : s.pos)
        if (std::isfinite(q.y)) y.push_back(q.y + bead_radius(q, p));
    if (y.empty()) return 0;
    std::sort(y.begin(), y.end());
    return y[y.size() * 99 / 100];
}

// The rough floor over [-hx, hx] × [-hz, hz]: one glued bead per diameter squared, touching
// the floor, each moved off its square-lattice site by up to kFloorJitter d in x and z. A
// regular layer is a template on which equal beads stack into a crystal (layers 0.71 d apart,
// flat terraces, a stepped flank: a poured pile grew that way on the exact lattice), which
// neither a real base nor a real pile has.
std::vector<Float4> glued_layer(float hx, float hz, const Params& p, uint32_t seed) {
    constexpr float kFloorJitter = 0.3f;
    const float d = 2.f * p.radius;
    std::mt19937 rng(7 + seed);
    std::uniform_real_distribution<float> shift(-kFloorJitter * d, kFloorJitter * d);
    const int across_x = static_cast<int>(std::floor(2.f * hx / d));
    const int across_z = static_cast<int>(std::floor(2.f * hz / d));
    std::vector<Float4> floor;
    for (int ix = 0; ix < across_x; ++ix)
        for (int iz = 0; iz < across_z; ++iz) {
            const float x = -hx + (ix + 0.5f) * d + shift(rng);
            const float z = -hz + (iz + 0.5f) * d + shift(rng);
            floor.push_back({std::clamp(x, -hx + p.radius, hx - p.radius), p.radius,
                             std::clamp(z, -hz + p.radius, hz - p.radius), 0.f});
        }
    return floor;
}

// The reference's coefficients for glass beads (kReposeReference); other presets keep theirs.
Params repose_params(Preset preset) {
    Params p = granular::case_params(preset, "angle-of-repose");
    if (preset == Preset::GlassBeads) {
        p.friction = kReposeReference.friction;
        p.wall_friction = kReposeReference.wall_friction;
        p.rolling_friction = kReposeReference.rolling_friction;
        p.radius_spread = kReposeReference.radius_spread;
    }
    return p;
}

}  // namespace

double lajeunesse_runout(double a) {
    PLAB_REQUIRE(a > 0, "the aspect ratio must be positive");
    return a < 3.0 ? 1.8 * a : 2.3 * std::pow(a, 2.0 / 3.0);
}

GranularCase column_collapse_case(double a, int resolution, int channel, Preset preset) {
    PLAB_REQUIRE(a >= 0.1 && a <= 50, "the aspect ratio must be in [0.1, 50]");
    PLAB_REQUIRE(resolution >= 2 && channel >= 1, "a column needs 2 beads across and a channel 1");
    GranularCase c;
    c.params = granular::case_params(preset, "column-collapse");
    const Params& p = c.params;
    const double s = lattice_spacing(p);
    // `resolution` beads across the smaller side, the other side the nearest whole number.
    const int across = a >= 1 ? resolution : static_cast<int>(std::lround(resolution / a));
    const int up = a >= 1 ? static_cast<int>(std::lround(resolution * a)) : resolution;
    c.l0 = across * s;
    c.h0 = up * s;
    c.width = channel * s;
    // Room for 1.5 times the reference runout and a few beads more.
    const double length = c.l0 * (1.0 + 1.5 * lajeunesse_runout(c.h0 / c.l0)) + 4 * s;
    Scene scene;
    scene.name = "column collapse";
    scene.domain = {
        {0.f, 0.f, 0.f},
        {static_cast<float>(length), static_cast<float>(c.h0 + s), static_cast<float>(c.width)}};
    ParticleBlock b;
    b.min = {0.f, 0.f, 0.f};
    b.max = {static_cast<float>(c.l0), static_cast<float>(c.h0), static_cast<float>(c.width)};
    b.spacing = static_cast<float>(s);
    b.jitter = lattice_jitter(p);
    scene.blocks.push_back(b);
    c.init = build_initial_state(scene, p, scene_capacity(scene));
    return c;
}

GranularCase lifted_cylinder_case(int resolution, double height_ratio, Preset preset,
                                  bool rough_floor, uint32_t seed) {
    PLAB_REQUIRE(resolution >= 2, "a cylinder needs 2 beads across its radius");
    PLAB_REQUIRE(height_ratio >= 0.1 && height_ratio <= 10, "height ratio must be in [0.1, 10]");
    GranularCase c;
    c.seed = seed;
    c.params = repose_params(preset);
    const Params& p = c.params;
    const double s = lattice_spacing(p);
    c.l0 = resolution * s;
    c.h0 = std::max(1L, std::lround(height_ratio * resolution)) * s;
    // A pile at 15° from the whole cylinder reaches the floor within R0 + H0/tan 15°.
    const double half = c.l0 + c.h0 / std::tan(15.0 * M_PI / 180.0) + 2 * s;
    Scene scene;
    scene.name = "lifted cylinder";
    const auto h = static_cast<float>(half);
    scene.domain = {{-h, 0.f, -h}, {h, static_cast<float>(c.h0 + s), h}};
    ParticleBlock b;
    const auto r0 = static_cast<float>(c.l0);
    b.min = {-r0, 0.f, -r0};
    b.max = {r0, static_cast<float>(c.h0), r0};
    b.spacing = static_cast<float>(s);
    b.jitter = lattice_jitter(p);
    const float d = 2.f * p.radius;
    if (rough_floor) {
        // The glued layer touches the floor; the lattice stands on it. A bead resting in a
        // hollow of the layer sits 0.71 d above the layer's centres, well above the glue line.
        c.params.glued_below = 1.5f * p.radius;
        b.min.y += d;
        b.max.y += d;
        scene.domain.max.y += d;
        c.floor = glued_layer(h, h, p, seed);
    }
    scene.blocks.push_back(b);
    // The square block the cylinder is cut from once it has settled (run_lifted_cylinder).
    c.init = build_initial_state(scene, c.params, scene_capacity(scene));
    return c;
}

double deposit_front(const Snapshot& s, const Params& p, const Domain& d) {
    // Beads per one-diameter slice of the channel: half a layer across its width counts as
    // deposit, fewer are beads that rolled off ahead of it.
    const double slice = 2.0 * p.radius;
    const double need = std::max(1.0, 0.5 * (d.max.z - d.min.z) / slice);
    const auto slices = static_cast<std::size_t>(std::ceil((d.max.x - d.min.x) / slice));
    std::vector<int> count(slices, 0);
    for (const Float4& q : s.pos) {
        if (!std::isfinite(q.x)) continue;
        const auto k = static_cast<std::size_t>(std::max(0.0, (q.x - d.min.x) / slice));
        if (k < slices) ++count[k];
    }
    std::size_t k = 0;
    while (k < slices && count[k] >= need) ++k;
    return k * slice;
}

CollapseResult run_column_collapse(Simulator& sim, const GranularCase& c, double max_time,
                                   const GranularHook& after_step) {
    const Params& p = c.params;
    CollapseResult r;
    r.particles = c.init.pos.size();
    // Settle behind the gate: the same channel ending at x = L0.
    Domain gated = c.init.domain;
    gated.max.x = static_cast<float>(c.l0);
    sim.reset(restart_state(c.init.pos, gated, p), p);
    run_to_rest(sim, p, 0.1, 1.0 + 3.0 * std::sqrt(c.h0 / kG), after_step);
    const Snapshot settled = sim.download();
    r.l0 = c.l0;
    r.h0 = column_height(settled, p);
    r.a = r.h0 / r.l0;
    // Release: the whole channel, the beads at rest where they settled.
    sim.reset(restart_state(settled.pos, c.init.domain, p), p);
    const auto [t, rest] = run_to_rest(sim, p, 0.2, max_time, after_step);
    r.t_stop = t;
    r.came_to_rest = rest;
    r.non_finite = sim.stats(p).non_finite;
    r.front = deposit_front(sim.download(), p, c.init.domain);
    r.runout = (r.front - r.l0) / r.l0;
    return r;
}

PileProfile pile_profile(const Snapshot& s, const Params& p, const Domain& d) {
    // Heights from the top of a rough floor's layer, whose beads are not the pile.
    const double base = d.min.y + (p.glued_below > 0.f ? 2.0 * p.radius : 0.0);
    const double ring = 2.0 * p.radius;
    const double reach = std::min(d.max.x - d.min.x, d.max.z - d.min.z) / 2;
    const double cx = 0.5 * (d.min.x + d.max.x), cz = 0.5 * (d.min.z + d.max.z);
    const auto rings = static_cast<std::size_t>(std::ceil(reach / ring));
    PileProfile prof;
    prof.r.resize(rings);
    prof.h.assign(rings, 0);
    for (std::size_t k = 0; k < rings; ++k) prof.r[k] = (k + 0.5) * ring;
    for (const Float4& q : s.pos) {
        if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) continue;
        if (glued(q, p, d)) continue;
        const double r = std::hypot(q.x - cx, q.z - cz);
        const auto k = static_cast<std::size_t>(r / ring);
        if (k < rings) prof.h[k] = std::max(prof.h[k], double(q.y) + p.radius - base);
    }
    return prof;
}

FlankFit fit_flank(const PileProfile& prof, double lo, double hi) {
    FlankFit f;
    f.top = prof.h.empty() ? 0 : *std::max_element(prof.h.begin(), prof.h.end());
    double n = 0, sr = 0, sh = 0, srr = 0, srh = 0;
    for (std::size_t k = 0; k < prof.r.size(); ++k) {
        if (prof.h[k] < lo * f.top || prof.h[k] > hi * f.top) continue;
        n += 1;
        sr += prof.r[k];
        sh += prof.h[k];
        srr += prof.r[k] * prof.r[k];
        srh += prof.r[k] * prof.h[k];
    }
    f.rings = static_cast<int>(n);
    const double den = n * srr - sr * sr;
    if (n < 2 || den <= 0) return f;
    const double slope = (n * srh - sr * sh) / den;
    f.angle_deg = std::atan(-slope) * 180.0 / M_PI;
    return f;
}

namespace {

// Runs the pile in `sim` to rest (at most `max_time` s) and measures it into `r`.
void finish_pile(Simulator& sim, const GranularCase& c, double max_time,
                 const GranularHook& after_step, PileResult& r) {
    const Params& p = c.params;
    const auto [t, rest] = run_to_rest(sim, p, 0.2, max_time, after_step);
    r.t_stop = t;
    r.came_to_rest = rest;
    r.non_finite = sim.stats(p).non_finite;
    r.profile = pile_profile(sim.download(), p, c.init.domain);
    r.fit = fit_flank(r.profile, 0.2, 0.8);
}

// A pour: every `batch_time` s a block of nx × nz beads, `layers` deep (spacing 1.1 × the
// largest bead's diameter, at rest, jittered), is placed around the vertical axis x = z = 0
// with its lowest layer at `release` (m, centres), or two diameters above the highest bead
// within `reach_x`, `reach_z` of the axis when that is higher; until `target` beads. Starts from
// the rough floor alone; the state, contact memory included, carries on across the batches. Returns
// the beads poured (fewer when a bead stopped being finite).
struct Pour {
    int nx = 5, nz = 5, layers = 1;
    float release = 0, reach_x = 0, reach_z = 0;  // m
    double batch_time = 0.025;                    // s
    std::size_t target = 0;
};

std::size_t pour(Simulator& sim, const GranularCase& c, const Pour& how,
                 const GranularHook& after_step) {
    const Params& p = c.params;
    PLAB_REQUIRE(how.batch_time > 0, "the pour needs a positive time between batches");
    // Beads of different sizes start as far apart as the largest two need.
    const float d = 2.f * p.radius, gap = 1.1f * interaction_range(p);
    std::mt19937 rng(11 + c.seed);
    std::uniform_real_distribution<float> jitter(-lattice_jitter(p), lattice_jitter(p));
    sim.reset(restart_state(c.floor, c.init.domain, p), p);
    const std::size_t glued = c.floor.size();
    const double step_time = granular::call_time(p);
    const int calls_per_batch =
        std::max(1, static_cast<int>(std::lround(how.batch_time / step_time)));
    const float highest =
        c.init.domain.max.y - 0.5f * interaction_range(p) - (how.layers - 1) * gap;
    std::size_t poured = 0;
    while (poured < how.target) {
        InitialState s = sim.capture_state();
        // The highest bead near the axis sets where the next block starts.
        float top = c.init.domain.min.y + (glued > 0 ? d : 0.f);
        for (const Float4& q : s.pos)
            if (std::isfinite(q.y) && std::abs(q.x) < how.reach_x && std::abs(q.z) < how.reach_z)
                top = std::max(top, q.y + bead_radius(q, p));
        const float y = std::min(std::max(how.release, top + 2 * d), highest);
        const std::size_t n = s.pos.size();
        std::size_t added = 0;
        for (int iy = 0; iy < how.layers; ++iy)
            for (int ix = 0; ix < how.nx && poured + added < how.target; ++ix)
                for (int iz = 0; iz < how.nz && poured + added < how.target; ++iz) {
                    const float x = (ix - 0.5f * (how.nx - 1)) * gap + jitter(rng);
                    const float z = (iz - 0.5f * (how.nz - 1)) * gap + jitter(rng);
                    const float size = bead_deviation(n + added, 5 + c.seed, p.radius_spread);
                    s.pos.push_back({x, y + iy * gap + jitter(rng), z, size});
                    s.vel.push_back({});
                    if (!s.order.empty()) s.order.push_back(static_cast<uint32_t>(n + added));
                    ++added;
                }
        // New ids at the end: no rotation, no remembered contact.
        if (!s.friction.empty())
            for_each_friction_array(s.friction, [&](const char*, auto& v, std::size_t k) {
                v.resize((n + added) * k);
            });
        poured += added;
        sim.reset(s, p);
        for (int k = 0; k < calls_per_batch; ++k) {
            sim.step(p);
            if (after_step) after_step();
        }
        if (sim.stats(p).non_finite > 0) break;
    }
    return poured;
}

}  // namespace

PileResult run_poured_pile(Simulator& sim, const GranularCase& c, double max_time,
                           double batch_time, const GranularHook& after_step) {
    const float d = 2.f * c.params.radius;
    Pour how;  // patches of 5×5 over the axis, just above the pile
    how.reach_x = how.reach_z = 3 * d;
    how.batch_time = batch_time;
    how.target = static_cast<std::size_t>(std::lround(M_PI / 4.0 * double(c.init.pos.size())));
    PileResult r;
    r.particles = pour(sim, c, how, after_step);
    finish_pile(sim, c, max_time, after_step, r);
    return r;
}

GranularCase heap_case(int depth, Preset preset, uint32_t seed) {
    PLAB_REQUIRE(depth >= 3 && depth <= 200, "a heap's channel must be 3 to 200 beads deep");
    GranularCase c;
    c.seed = seed;
    c.params = repose_params(preset);
    c.params.glued_below = 1.5f * c.params.radius;
    const Params& p = c.params;
    const double d = 2.0 * p.radius, scale = depth / kReferenceHeap.depth;
    c.width = depth * d;
    c.l0 = kReferenceHeap.slot * scale * d;
    c.h0 = kReferenceHeap.drop * scale * d;
    c.beads = static_cast<std::size_t>(std::lround(kReferenceHeap.beads * scale * scale * scale));
    const auto hx = static_cast<float>(0.5 * kReferenceHeap.width * scale * d);
    const auto hz = static_cast<float>(0.5 * c.width);
    // Above the floor's layer: the slot's height, a block of 4 layers and room to spare.
    const auto top = static_cast<float>(d + c.h0 + 6 * d);
    c.init = restart_state({}, Domain{{-hx, 0.f, -hz}, {hx, top, hz}}, p);
    c.floor = glued_layer(hx, hz, p, seed);
    return c;
}

HeapProfile heap_profile(const Snapshot& s, const Params& p, const Domain& d) {
    // Heights from the top of a rough floor's layer, whose beads are not the heap.
    const double base = d.min.y + (p.glued_below > 0.f ? 2.0 * p.radius : 0.0);
    const double column = 2.0 * p.radius;
    const double reach = std::max(-d.min.x, d.max.x);
    const auto columns = static_cast<std::size_t>(std::ceil(reach / column));
    HeapProfile prof;
    for (PileProfile* side : {&prof.left, &prof.right}) {
        side->r.resize(columns);
        side->h.assign(columns, 0);
        for (std::size_t k = 0; k < columns; ++k) side->r[k] = (k + 0.5) * column;
    }
    for (const Float4& q : s.pos) {
        if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) continue;
        if (glued(q, p, d)) continue;
        PileProfile& side = q.x < 0.f ? prof.left : prof.right;
        const auto k = static_cast<std::size_t>(std::abs(double(q.x)) / column);
        if (k < columns) side.h[k] = std::max(side.h[k], double(q.y + bead_radius(q, p)) - base);
    }
    return prof;
}

HeapResult run_poured_heap(Simulator& sim, const GranularCase& c, double max_time,
                           const GranularHook& after_step) {
    const Params& p = c.params;
    PLAB_REQUIRE(c.beads > 0 && c.width > 0 && c.l0 > 0, "not a heap case (sim::heap_case)");
    const float d = 2.f * p.radius, gap = 1.1f * interaction_range(p);
    Pour how;
    // The slot's footprint: as many beads as fit 1.1 d apart, within the slot's width and
    // clear of the front and back walls (with the jitter).
    const float jitter = lattice_jitter(p);
    how.nx = 1 + static_cast<int>(std::floor((c.l0 - d) / gap));
    how.nz = 1 + static_cast<int>(std::floor((c.width - d - 2 * jitter) / gap));
    how.layers = 4;
    how.release = static_cast<float>(c.init.domain.min.y + d + c.h0);
    how.reach_x = static_cast<float>(0.5 * c.l0);
    how.reach_z = static_cast<float>(c.width);
    // The block's top layer falls clear of where the next block's bottom layer starts.
    how.batch_time = std::sqrt(2.0 * how.layers * gap / granular::kG);
    how.target = c.beads;
    HeapResult r;
    r.particles = pour(sim, c, how, after_step);
    // Measures the heap as it stands into `r`.
    const auto measure = [&] {
        r.profile = heap_profile(sim.download(), p, c.init.domain);
        r.left = fit_flank(r.profile.left, 0.2, 0.8);
        r.right = fit_flank(r.profile.right, 0.2, 0.8);
        r.angle_deg = 0.5 * (r.left.angle_deg + r.right.angle_deg);
    };
    measure();
    r.relaxation.push_back({0.0, r.angle_deg});
    const double step_time = granular::call_time(p);
    const long sample_every = std::max(1L, std::lround(0.5 / step_time));
    long calls = 0;
    const auto [t, rest] = run_to_rest(sim, p, 0.2, max_time, [&] {
        if (after_step) after_step();
        if (++calls % sample_every != 0) return;
        measure();
        r.relaxation.push_back({double(calls) * step_time, r.angle_deg});
    });
    r.t_stop = t;
    r.came_to_rest = rest;
    r.non_finite = sim.stats(p).non_finite;
    measure();
    if (r.relaxation.back().t < t - 0.5 * step_time) r.relaxation.push_back({t, r.angle_deg});
    return r;
}

PileResult run_lifted_cylinder(Simulator& sim, const GranularCase& c, double max_time,
                               const GranularHook& after_step) {
    const Params& p = c.params;
    PileResult r;
    // Settle the beads in a square box around the cylinder: the loose lattice packs before
    // anything is released, as a poured and settled cylinder would be (on the part of the
    // rough floor inside the box, if there is one).
    Domain boxed = c.init.domain;
    const auto r0 = static_cast<float>(c.l0);
    boxed.min.x = boxed.min.z = -r0;
    boxed.max.x = boxed.max.z = r0;
    std::vector<Float4> start = c.init.pos;
    for (const Float4& q : c.floor)
        if (std::abs(q.x) <= r0 - p.radius && std::abs(q.z) <= r0 - p.radius) start.push_back(q);
    sim.reset(restart_state(start, boxed, p), p);
    run_to_rest(sim, p, 0.1, 1.0 + 3.0 * std::sqrt(c.h0 / kG), after_step);
    // The cylinder: the settled beads whose centre lies within R0 − r of the axis, at rest,
    // on the whole rough floor.
    const Snapshot settled = sim.download();
    const double inside = c.l0 - p.radius;
    std::vector<Float4> kept;
    for (const Float4& q : settled.pos)
        if (double(q.x) * q.x + double(q.z) * q.z <= inside * inside && !glued(q, p, boxed))
            kept.push_back(q);
    r.particles = kept.size();
    kept.insert(kept.end(), c.floor.begin(), c.floor.end());
    // Lifted: the beads stand free on the whole floor.
    sim.reset(restart_state(kept, c.init.domain, p), p);
    finish_pile(sim, c, max_time, after_step, r);
    return r;
}

}  // namespace plab::sim
