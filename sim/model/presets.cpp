#include "sim/model/presets.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/error.h"
#include "sim/core/input_limits.h"
#include "sim/model/dem_theory.h"
#include "sim/model/sph_constants.h"

namespace plab::sim {
namespace {

// Smallest n with n³ ≥ count: the side of the initial lattice cube, in particles. The cube
// root is within one of n, so each loop runs at most twice; counts are at most kMaxParticles
// (preset_scene), so n³ stays far below 2^64.
uint64_t cube_side(std::size_t count) {
    PLAB_REQUIRE(count <= kMaxParticles, "a preset scene of " + std::to_string(count) +
                                             " particles is more than the limit of " +
                                             std::to_string(kMaxParticles));
    auto n = static_cast<uint64_t>(std::llround(std::cbrt(static_cast<double>(count))));
    while (n * n * n < count) ++n;
    while (n > 1 && (n - 1) * (n - 1) * (n - 1) >= count) --n;
    return std::max<uint64_t>(n, 1);
}

// The sample's box is [-1, 1]³ and its 262,144 particles start as a 64³ cube that fills it.
// Larger runs keep that height, so the pile stays as deep as the sample's, and grow the box in
// x and z only: a slab of n × layers × n particles. (A cube of 4M particles piles 162 deep,
// more than the sample's soft spring holds at dt = 0.5: it blew up.)
Scene classic_scene(std::size_t count, const Params& p) {
    const float spacing = 2.f * p.radius;
    constexpr float kSampleHeight = 2.f;  // m: the sample's box
    const auto layers =
        std::max<uint64_t>(1, static_cast<uint64_t>(std::floor(kSampleHeight / spacing + 1e-4f)));
    const uint64_t n = cube_side(count);
    Scene s;
    s.name = preset_name(Preset::Classic);
    ParticleBlock b;
    if (n <= layers) {
        // Up to the sample's size: its cube in the corner of its box.
        const float cube = static_cast<float>(n) * spacing;
        const float half = std::max(1.f, 0.5f * cube);
        s.domain = {{-half, -half, -half}, {half, half, half}};
        b.min = s.domain.min;
        b.max = b.min + Vec3{cube, cube, cube};
    } else {
        // Smallest n × n footprint whose `layers` hold the count.
        const auto per_layer = (static_cast<uint64_t>(count) + layers - 1) / layers;
        auto side = static_cast<uint64_t>(std::ceil(std::sqrt(static_cast<double>(per_layer))));
        while (side * side < per_layer) ++side;
        const float width = static_cast<float>(side) * spacing;
        const float height = static_cast<float>(layers) * spacing;
        const float half = std::max(1.f, 0.5f * width);
        const float half_y = std::max(1.f, 0.5f * height);
        s.domain = {{-half, -half_y, -half}, {half, half_y, half}};
        b.min = s.domain.min;
        b.max = b.min + Vec3{width, height, width};
    }
    b.spacing = spacing;
    b.jitter = 0.01f * p.radius;  // as in the sample
    s.blocks.push_back(b);
    return s;
}

Scene granular_scene(Preset preset, std::size_t count, const Params& p) {
    const float spacing = 2.1f * p.radius;  // a small gap so the block starts without overlap
    const float side = static_cast<float>(cube_side(count)) * spacing;
    const float width = std::max(0.1f, 2.f * side);
    const float height = std::max(0.1f, 2.5f * side);
    Scene s;
    s.name = preset_name(preset);
    s.domain = {{0.f, 0.f, 0.f}, {width, height, width}};
    ParticleBlock b;
    const float x0 = 0.5f * (width - side);
    b.min = {x0, height - side, x0};
    b.max = b.min + Vec3{side, side, side};
    b.spacing = spacing;
    b.jitter = 0.04f * p.radius;
    s.blocks.push_back(b);
    return s;
}

// Column a × 2a × a (x, y, z) against the x = 0 wall of a 5a × 2.5a × a tank, on the cubic
// lattice of the particle spacing; N = 2 n³ particles fill it with n = a / spacing.
Scene water_scene(std::size_t count, const Params& p) {
    const float spacing = 2.f * p.radius;
    const uint64_t n = cube_side(count / 2 + count % 2);  // smallest n with 2 n³ ≥ count
    const float a = static_cast<float>(n) * spacing;
    Scene s;
    s.name = preset_name(Preset::Water);
    s.domain = {{0.f, 0.f, 0.f}, {5.f * a, 2.5f * a, a}};
    ParticleBlock b;
    b.min = {0.f, 0.f, 0.f};
    b.max = {a, 2.f * a, a};
    b.spacing = spacing;
    s.blocks.push_back(b);
    return s;
}

Params water_params() {
    Params p;
    p.model = Model::Sph;
    p.radius = 0.005f;  // m: 1 cm spacing
    p.rest_density = 1000.f;
    p.sound_speed = 60.f;
    p.smoothing = 1.2f;
    p.viscosity = 0.02f;
    p.xsph = 0.f;
    p.gravity_x = 0.f;
    p.gravity_y = -9.81f;
    p.gravity_z = 0.f;
    p.global_damping = 1.f;
    p.boundary_damping = 0.f;  // the wall terms do the work; the clamp only stops
    p.collider_radius = 0.f;
    p.collider_x = p.collider_y = p.collider_z = 0.f;
    p.dt = sph_max_dt(p, 0.1f * p.sound_speed);  // room for flow up to a tenth of c
    p.substeps = 20;
    p.mass = sph_constants(p).mass;  // shown for reference; SPH derives it
    // The neighbour lists' skin that ran the dam break's first second fastest (H200, lists in
    // groups of four, ms a step at 263,022 / 1,048,576): 0.05 0.244 / 0.784, 0.1 0.271 /
    // 0.866, 0.15 0.301 / 0.970, 0.2 0.334 / 1.084; a build costs less than the entries a
    // thicker skin adds to both passes (docs/benchmarks.md).
    p.skin = 0.05f;
    return p;
}

// 1 cm beads of `density` (kg/m³) in SI units with the classic contact law: k = 5000 N/m (an
// overlap m g / k of 0.026% of a diameter per layer of glass beads above), the dashpot for
// restitution `e`, dt = t_c/20.
Params bead_params(double density, double e) {
    Params p;
    p.radius = 0.005f;  // m
    p.mass = static_cast<float>(density * 4.0 / 3.0 * M_PI * std::pow(p.radius, 3.0));
    p.spring = 5000.f;  // N/m
    p.damping = static_cast<float>(damping_for_restitution(e, p.spring, p.mass));
    p.shear = 0.5f * p.damping;
    p.attraction = 0.f;
    p.dt = static_cast<float>(stable_dt(p.spring, p.mass));
    p.substeps = 20;
    p.gravity_x = 0.f;
    p.gravity_y = -9.81f;
    p.gravity_z = 0.f;
    p.global_damping = 1.f;
    p.boundary_damping = -0.5f;
    p.collider_radius = 0.f;  // placed by the app
    p.collider_x = p.collider_y = p.collider_z = 0.f;
    return p;
}

// The frictional law's coefficients (dem_friction.h) of a preset.
struct FrictionValues {
    float friction, rolling_friction, tangential_stiffness;
    float wall_friction;  // the presets' walls are as rough as their grains
};

// Glass beads: μ_s = 0.4 (glass-on-glass sliding friction is quoted from about 0.1 in binary
// collisions of clean beads, Foerster et al., Phys. Fluids 6, 1108 (1994), to 0.5 in bead
// packings; 0.4 is the middle of the 0.2-0.5 used for glass beads in DEM), μ_r = 0.02 (smooth
// spheres roll almost freely; Ai et al., Powder Technol. 206, 269 (2011); the torque limit is
// μ_r·R·F_n with the bead's radius R, dem_friction.h), k_t/k_n = 2/7 (the ratio that gives
// tangential and normal oscillations of a sphere the same period; Mindlin's 2(1-ν)/(2-ν) is
// 0.86-0.89 for glass's ν of 0.2-0.25).
constexpr FrictionValues kGlassBeads{0.4f, 0.02f, 2.f / 7.f, 0.4f};
// Sand-like: μ_s = 0.6 (quartz sand 0.5-0.7) and μ_r = 0.3, the rolling resistance with which
// spheres pile and shear like angular grains (Wensrich & Katterfeld, Powder Technol. 217, 409
// (2012): μ_r of 0.1-0.5 for the shapes they compared).
constexpr FrictionValues kSand{0.6f, 0.3f, 2.f / 7.f, 0.6f};

Params frictional_params(Params p, const FrictionValues& v) {
    p.contact = static_cast<int>(ContactLaw::Frictional);
    p.friction = v.friction;
    p.rolling_friction = v.rolling_friction;
    p.wall_friction = v.wall_friction;
    p.tangential_stiffness = v.tangential_stiffness;
    // The neighbour lists' skin that ran these piles fastest (H200, 1M beads at rest, glass /
    // sand, ms a step): 0.1 0.475 / 0.374, 0.2 0.401 / 0.370, 0.3 0.403 / 0.374, 0.4 0.405 /
    // 0.377 (the grid every step 0.512 / 0.477); right after the start too (docs/benchmarks.md).
    p.skin = 0.2f;
    return p;
}

constexpr EnumName<Preset> kPresetNames[] = {{Preset::Classic, "classic"},
                                             {Preset::Granular, "granular"},
                                             {Preset::Water, "water"},
                                             {Preset::GlassBeads, "glass-beads"},
                                             {Preset::Sand, "sand-like"}};

}  // namespace

std::span<const EnumName<Preset>> preset_names() { return kPresetNames; }

Preset parse_preset(std::string_view name) {
    if (const std::optional<Preset> preset = find_enum(preset_names(), name)) return *preset;
    throw Error("unknown preset '" + std::string(name) +
                "'; known presets: " + enum_choices(preset_names(), ", "));
}

std::string_view preset_name(Preset preset) { return enum_name(preset_names(), preset); }

Params preset_params(Preset preset) {
    switch (preset) {
        case Preset::Water:
            return water_params();
        case Preset::Granular:
            return bead_params(2500.0, 0.5);  // glass
        case Preset::GlassBeads:
            return frictional_params(bead_params(2500.0, 0.5), kGlassBeads);
        case Preset::Sand:
            return frictional_params(bead_params(2650.0, 0.4), kSand);  // quartz
        case Preset::Classic:
        default:
            return {};  // the struct's defaults are the classic preset
    }
}

Scene preset_scene(Preset preset, std::size_t count, const Params& params) {
    validate(params);
    PLAB_REQUIRE(count <= kMaxParticles,
                 "preset " + std::string(preset_name(preset)) + ": " + std::to_string(count) +
                     " particles are more than the limit of " + std::to_string(kMaxParticles));
    switch (preset) {
        case Preset::Granular:
        case Preset::GlassBeads:
        case Preset::Sand:
            return granular_scene(preset, count, params);
        case Preset::Water:
            return water_scene(count, params);
        case Preset::Classic:
        default:
            return classic_scene(count, params);
    }
}

}  // namespace plab::sim
