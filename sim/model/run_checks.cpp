#include "sim/model/run_checks.h"

#include <algorithm>
#include <cmath>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/model/dem_theory.h"
#include "sim/model/sph_constants.h"

namespace plab::sim {
namespace {

// A dt this close above a limit is the limit itself, rounded to float (the water preset and
// the validation cases set dt exactly at it).
constexpr double kDtSlack = 1e-5;

// A block spacing this far from the particle spacing is a mistake, not rounding.
constexpr double kSpacingSlack = 0.01;

// Pairs of overlapping blocks named one by one; more are counted.
constexpr std::size_t kNamedOverlaps = 5;

double speed_of(Vec3 v) {
    return std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
}

std::string block_name(std::size_t i) { return "blocks[" + std::to_string(i) + "]"; }

// Where a block's lattice points lie: the box they span and, for a sphere, its ball.
struct Region {
    Domain box;
    bool ball = false;
    Vec3 centre;
    float radius = 0;
    bool empty() const {
        return box.min.x > box.max.x || box.min.y > box.max.y || box.min.z > box.max.z;
    }
};

Region region_of(const ParticleBlock& b) {
    Region r;
    r.box = lattice_bounds(b);
    if (b.shape == BlockShape::Sphere) {
        const Vec3 half = (b.max - b.min) * 0.5f;
        r.ball = true;
        r.centre = (b.min + b.max) * 0.5f;
        r.radius = std::fmin(half.x, std::fmin(half.y, half.z));
    }
    return r;
}

// Distance from `p` to a box (0 inside it).
double box_distance(Vec3 p, const Domain& box) {
    auto axis = [](double v, double lo, double hi) { return std::max({lo - v, v - hi, 0.0}); };
    const double dx = axis(p.x, box.min.x, box.max.x), dy = axis(p.y, box.min.y, box.max.y),
                 dz = axis(p.z, box.min.z, box.max.z);
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// A lower bound on the distance between any point of `a` and any point of `b` (negative
// when two balls overlap).
double gap(const Region& a, const Region& b) {
    auto axis = [](double alo, double ahi, double blo, double bhi) {
        return std::max({blo - ahi, alo - bhi, 0.0});
    };
    const double gx = axis(a.box.min.x, a.box.max.x, b.box.min.x, b.box.max.x);
    const double gy = axis(a.box.min.y, a.box.max.y, b.box.min.y, b.box.max.y);
    const double gz = axis(a.box.min.z, a.box.max.z, b.box.min.z, b.box.max.z);
    double g = std::sqrt(gx * gx + gy * gy + gz * gz);
    if (a.ball && b.ball) {
        const Vec3 d = a.centre - b.centre;
        const double centres = std::sqrt(double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z);
        g = std::max(g, centres - a.radius - b.radius);
    } else if (a.ball) {
        g = std::max(g, box_distance(a.centre, b.box) - a.radius);
    } else if (b.ball) {
        g = std::max(g, box_distance(b.centre, a.box) - b.radius);
    }
    return g;
}

// Blocks whose lattices come closer than one particle radius: neighbouring blocks of the
// same spacing sit a whole spacing (two radii) apart, so this only catches real overlaps.
void overlapping_blocks(const Scene& scene, const Params& p, std::vector<RunWarning>& out) {
    std::vector<Region> regions;
    for (const ParticleBlock& b : scene.blocks) regions.push_back(region_of(b));
    std::size_t found = 0;
    for (std::size_t i = 0; i < regions.size(); ++i)
        for (std::size_t j = i + 1; j < regions.size(); ++j) {
            if (regions[i].empty() || regions[j].empty()) continue;
            const double g = gap(regions[i], regions[j]);
            if (!(g < p.radius)) continue;
            if (found++ < kNamedOverlaps)
                out.push_back(
                    {block_name(i) + " and " + block_name(j) +
                     format_numbers(" overlap: their lattice points come within %g m of each "
                                    "other (less than the particle radius, %g m), so particles "
                                    "start on top of each other and fly apart. Move or shrink "
                                    "one of them.",
                                    std::max(g, 0.0), p.radius)});
        }
    if (found > kNamedOverlaps)
        out.push_back({std::to_string(found - kNamedOverlaps) + " more pairs of blocks overlap."});
}

// A block's own lattice must not press its particles together either: DEM neighbours one
// spacing apart touch at one diameter, and SPH derives the particle mass from a lattice of
// spacing 2 radius, so another spacing starts the liquid compressed or stretched.
void block_spacings(const Scene& scene, const Params& p, std::vector<RunWarning>& out) {
    const double diameter = 2.0 * p.radius;
    for (std::size_t i = 0; i < scene.blocks.size(); ++i) {
        const double s = scene.blocks[i].spacing;
        if (p.model == Model::Dem && s < (1 - kSpacingSlack) * diameter)
            out.push_back(
                {block_name(i) +
                 format_numbers(": spacing %g m is less than a particle diameter (%g m), so "
                                "neighbours start pressed into each other and fly apart. Use a "
                                "spacing of at least %g m or a smaller radius.",
                                s, diameter, diameter)});
        if (p.model == Model::Sph && std::abs(s / diameter - 1) > kSpacingSlack)
            out.push_back(
                {block_name(i) +
                 format_numbers(": spacing %g m is not the particle spacing 2 x radius = %g m, "
                                "so the liquid starts at %.3g times its rest density and ",
                                s, diameter, std::pow(diameter / s, 3.0)) +
                 (s < diameter ? "bursts" : "collapses") + ". Set the spacing to 2 x radius."});
    }
}

// The advice for a dt above `limit`.
std::string lower_dt(const Params& p, double limit) {
    return format_numbers(
        " Lower dt to %.3g s or less and raise substeps (now %g) about %.3gx to keep the "
        "simulated time per frame.",
        limit, p.substeps, std::ceil(p.dt / limit));
}

void sph_dt(const Params& p, float start_speed, std::vector<RunWarning>& out) {
    const double limit = sph_max_dt(p, start_speed);
    // No limit left at an absurd start speed: start_speeds says what is wrong then.
    if (!(limit > 0) || !(p.dt > limit * (1 + kDtSlack))) return;
    const double courant = sph_courant_number(p, start_speed);
    const std::string why =
        courant > kSphCourant
            ? format_numbers("the CFL number is %.3g, above %g, at sound speed %g m/s", courant,
                             kSphCourant, p.sound_speed) +
                  format_numbers(" and start speed %g m/s", start_speed)
            : std::string("the body force limit 0.25 sqrt(h/|g|) binds");
    out.push_back(
        {format_numbers("dt = %g s is above the SPH stability limit %.3g s (", p.dt, limit) + why +
         "): the liquid will blow up." + lower_dt(p, limit)});
}

void dem_dt(const Params& p, std::vector<RunWarning>& out) {
    const double limit = dem_dt_limit(p);
    if (!(p.dt > limit * (1 + kDtSlack))) return;
    const double k = double(p.spring) + p.attraction;
    const std::string steps =
        k > 0 ? format_numbers("; a contact lasts %.3g steps", contact_time(k, 0.0, p.mass) / p.dt)
              : "";
    out.push_back(
        {format_numbers("dt = %g s is above the DEM contact limit %.3g s (sqrt(m/2k) for spring "
                        "+ attraction %g N/m and mass %g kg, and m/4c for the dashpots, ",
                        p.dt, limit, k, p.mass) +
         format_numbers("damping + shear %g N*s/m", p.damping + p.shear) + steps +
         "): contacts gain energy and the pack blows up." + lower_dt(p, limit)});
}

void start_speeds(const Scene& scene, const Params& p, std::vector<RunWarning>& out) {
    for (std::size_t i = 0; i < scene.blocks.size(); ++i) {
        const double speed = speed_of(scene.blocks[i].velocity);
        if (p.model == Model::Dem && speed * p.dt > 4.0 * p.radius)
            out.push_back(
                {block_name(i) + format_numbers(" starts at %g m/s, %g m per step: more than "
                                                "two diameters (%g m), so contacts are skipped "
                                                "from the first step. Lower dt or the velocity.",
                                                speed, speed * p.dt, 4.0 * p.radius)});
        if (p.model == Model::Sph && speed >= p.sound_speed)
            out.push_back(
                {block_name(i) +
                 format_numbers(" starts at %g m/s, at or above the speed of sound (%g m/s): "
                                "the liquid is no longer weakly compressible. Raise sound_speed "
                                "to about %g m/s (ten times the flow) and lower dt with it.",
                                speed, p.sound_speed, 10.0 * speed)});
    }
}

void other_model_params(const Params& p, const std::vector<AssignedParam>& assigned,
                        std::vector<RunWarning>& out) {
    std::vector<std::string> said;
    for (const AssignedParam& a : assigned) {
        const ParamInfo* info = find_param(a.name);
        if (!info || applies_to(info->models, p.model)) continue;
        if (std::find(said.begin(), said.end(), a.name) != said.end()) continue;
        said.push_back(a.name);
        const Model other = p.model == Model::Dem ? Model::Sph : Model::Dem;
        out.push_back({"parameter " + a.name + " (" + a.origin + ") applies to " +
                       std::string(model_name(other)) + " only; this run is " +
                       std::string(model_name(p.model)) + " and ignores it."});
    }
}

}  // namespace

double dem_dt_limit(const Params& p) {
    return dem_max_dt(p.spring, p.attraction, p.damping, p.shear, p.mass);
}

void require_plate_support(const Params& p) {
    const bool frictional = runs_frictional_law(p);
    const std::string run = p.model == Model::Sph ? "SPH" : "DEM with the classic contact law";
    PLAB_REQUIRE(!(p.glued_below > 0.f) || frictional,
                 format_numbers("glued_below = %g m glues the beads near the floor, which only "
                                "the frictional DEM contact law does; this run is ",
                                p.glued_below) +
                     run + ". Set contact=frictional or glued_below=0.");
    if (!(p.silo_floor > 0.f)) return;
    PLAB_REQUIRE(frictional,
                 format_numbers("silo_floor = %g m places a silo's floor plate, which only the "
                                "frictional DEM contact law has; this run is ",
                                p.silo_floor) +
                     (p.model == Model::Sph ? "SPH" : "DEM with the classic contact law") +
                     ". Set contact=frictional (or a frictional preset: glass-beads, "
                     "sand-like) or silo_floor=0.");
}

std::vector<RunWarning> check_run(const Scene& scene, const Params& params,
                                  const std::vector<AssignedParam>& assigned) {
    require_plate_support(params);
    std::vector<RunWarning> out;
    overlapping_blocks(scene, params, out);
    block_spacings(scene, params, out);
    double fastest = 0;  // m/s, in double: a float square of 1e20 m/s would overflow
    for (const ParticleBlock& b : scene.blocks) fastest = std::max(fastest, speed_of(b.velocity));
    const auto start_speed = static_cast<float>(std::min(fastest, 1e30));
    if (params.model == Model::Sph) {
        sph_dt(params, start_speed, out);
    } else {
        dem_dt(params, out);
    }
    start_speeds(scene, params, out);
    other_model_params(params, assigned, out);
    return out;
}

std::string warning_lines(const std::vector<RunWarning>& warnings, std::string_view prefix) {
    std::string s;
    for (const RunWarning& w : warnings) s += std::string(prefix) + w.text + "\n";
    return s;
}

}  // namespace plab::sim
