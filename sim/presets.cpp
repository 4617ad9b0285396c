#include "sim/presets.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/dem_theory.h"
#include "sim/error.h"
#include "sim/sph_kernel.h"

namespace plab::sim {
namespace {

// Smallest n with n³ ≥ count: the side of the initial lattice cube, in particles.
uint64_t cube_side(std::size_t count) {
    auto n = static_cast<uint64_t>(std::llround(std::cbrt(static_cast<double>(count))));
    while (n * n * n < count) ++n;
    while (n > 1 && (n - 1) * (n - 1) * (n - 1) >= count) --n;
    return std::max<uint64_t>(n, 1);
}

Scene classic_scene(std::size_t count, const Params& p) {
    const float spacing = 2.f * p.radius;
    const uint64_t n = cube_side(count);
    const float cube = static_cast<float>(n) * spacing;
    // The sample's box is [-1, 1]³; grow it (centred) only when the cube does not fit.
    const float half = std::max(1.f, 0.5f * cube);
    Scene s;
    s.name = preset_name(Preset::Classic);
    s.domain = {{-half, -half, -half}, {half, half, half}};
    ParticleBlock b;
    b.min = s.domain.min;
    b.max = b.min + Vec3{cube, cube, cube};
    b.spacing = spacing;
    b.jitter = 0.01f * p.radius;  // as in the sample
    s.blocks.push_back(b);
    return s;
}

Scene granular_scene(std::size_t count, const Params& p) {
    const float spacing = 2.1f * p.radius;  // a small gap so the block starts without overlap
    const float side = static_cast<float>(cube_side(count)) * spacing;
    const float width = std::max(0.1f, 2.f * side);
    const float height = std::max(0.1f, 2.5f * side);
    Scene s;
    s.name = preset_name(Preset::Granular);
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
    uint64_t n = 1;
    while (2 * n * n * n < count) ++n;
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
    return p;
}

constexpr EnumName<Preset> kPresetNames[] = {
    {Preset::Classic, "classic"}, {Preset::Granular, "granular"}, {Preset::Water, "water"}};

}  // namespace

std::span<const EnumName<Preset>> preset_names() { return kPresetNames; }

Preset parse_preset(std::string_view name) {
    if (const std::optional<Preset> preset = find_enum(preset_names(), name)) return *preset;
    throw Error("unknown preset '" + std::string(name) +
                "'; known presets: " + enum_choices(preset_names(), ", "));
}

std::string_view preset_name(Preset preset) { return enum_name(preset_names(), preset); }

Params preset_params(Preset preset) {
    Params p;  // the struct's defaults are the classic preset
    if (preset == Preset::Classic) return p;
    if (preset == Preset::Water) return water_params();

    p.radius = 0.005f;              // m
    const double density = 2500.0;  // kg/m³, glass
    p.mass = static_cast<float>(density * 4.0 / 3.0 * M_PI * std::pow(p.radius, 3.0));
    p.spring = 5000.f;  // N/m
    p.damping = static_cast<float>(damping_for_restitution(0.5, p.spring, p.mass));
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

Scene preset_scene(Preset preset, std::size_t count, const Params& params) {
    validate(params);
    switch (preset) {
        case Preset::Granular:
            return granular_scene(count, params);
        case Preset::Water:
            return water_scene(count, params);
        case Preset::Classic:
        default:
            return classic_scene(count, params);
    }
}

}  // namespace plab::sim
