#pragma once
// Particle colours for rendering, shared by both backends: a speed ramp, a colour per
// particle id, a colour per grid cell (which shows the counting sort at work), for SPH the
// density and pressure ramps, and with the frictional contact law an angular-speed ramp.
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/enum_names.h"
#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/model/derived.h"
#include "sim/model/params.h"

namespace plab::sim {

enum class ColorMode { Speed, ParticleId, Cell, Density, Pressure, Spin };

struct RenderStyle {
    ColorMode color = ColorMode::Speed;
    float speed_scale = 1.f;  // m/s shown as the top of the speed ramp
    // Density: the ramp spans rest_density · (1 ± density_span), so the middle is at rest.
    float rest_density = 1000.f;  // kg/m³
    float density_span = 0.02f;
    // Pressure: Tait's p = B ((ρ/ρ₀)⁷ − 1), cut at 0, over [0, pressure_scale].
    float tait_b = 0.f;           // Pa, tait_b(params) (derived.h)
    float pressure_scale = 1e4f;  // Pa
    // Spin: |ω| over [0, spin_scale]. `spins`: the run's contact law has rotations (the
    // frictional law); without them Spin shows every particle kNoSpinColor, never a ramp.
    float spin_scale = 100.f;  // rad/s
    bool spins = false;
};

// speed, id, cell, density, pressure, spin (make_simulator.cpp).
std::span<const EnumName<ColorMode>> color_mode_names();
// Throws plab::Error naming the known modes.
ColorMode parse_color_mode(std::string_view name);
std::string_view color_mode_name(ColorMode mode);
// Why `mode` has nothing to show of a run with `params` ("" when it has): spin needs the
// frictional contact law (DEM with contact = frictional), the only one whose particles rotate.
// Such a run shows every particle no_spin_color(); front ends say why instead.
std::string color_mode_note(ColorMode mode, const Params& params);
// Whether a run with `params` has rotations to show (RenderStyle::spins).
inline bool has_rotation(const Params& p) { return runs_frictional_law(p); }

// The spin mode's colour where there is no rotation to show: a flat grey, off the ramp (whose
// bottom, blue, means "not rotating").
PLAB_HD inline Float4 no_spin_color() { return {0.5f, 0.5f, 0.5f, 1.f}; }

// Blue → cyan → green → yellow → red for t in [0, 1] (clamped; NaN maps to magenta so a
// diverging particle stands out).
PLAB_HD inline Float4 ramp(float t) {
    if (!(t == t)) return {1.f, 0.f, 1.f, 1.f};
    t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
    const float s = 4.f * t;
    if (s < 1.f) return {0.f, s, 1.f, 1.f};
    if (s < 2.f) return {0.f, 1.f, 2.f - s, 1.f};
    if (s < 3.f) return {s - 2.f, 1.f, 0.f, 1.f};
    return {1.f, 4.f - s, 0.f, 1.f};
}

// A well-spread, pleasant colour for any integer (golden-ratio hue walk, muted saturation).
PLAB_HD inline Float4 hashed_color(uint32_t key) {
    const float hue = static_cast<float>((key * 2654435761u) >> 8) * (1.f / 16777216.f);
    const float h = hue * 6.f;
    const int sector = static_cast<int>(h) % 6;
    const float f = h - static_cast<float>(static_cast<int>(h));
    const float lo = 0.25f, hi = 0.95f;
    const float up = lo + (hi - lo) * f, down = hi - (hi - lo) * f;
    switch (sector) {
        case 0:
            return {hi, up, lo, 1.f};
        case 1:
            return {down, hi, lo, 1.f};
        case 2:
            return {lo, hi, up, 1.f};
        case 3:
            return {lo, down, hi, 1.f};
        case 4:
            return {up, lo, hi, 1.f};
        default:
            return {hi, lo, down, 1.f};
    }
}

// `vel` carries the SPH density in w (0 for DEM, which shows as the bottom of the ramp).
// `omega`: angular velocities by particle id (rad/s), null before the frictional law first
// runs (then no particle rotates yet).
PLAB_HD inline Float4 particle_color(const RenderStyle& style, Float4 vel, uint32_t id,
                                     uint32_t cell, const Float4* omega = nullptr) {
    switch (style.color) {
        case ColorMode::Spin:
            if (!style.spins) return no_spin_color();
            return ramp(omega ? sqrtf(length_squared(xyz(omega[id]))) / style.spin_scale : 0.f);
        case ColorMode::ParticleId:
            return hashed_color(id);
        case ColorMode::Cell:
            return hashed_color(cell);
        case ColorMode::Density: {
            const float rel = vel.w / style.rest_density - 1.f;
            return ramp(0.5f + 0.5f * rel / style.density_span);
        }
        case ColorMode::Pressure:
            return ramp(tait_pressure(vel.w / style.rest_density, style.tait_b) /
                        style.pressure_scale);
        case ColorMode::Speed:
        default:
            return ramp(sqrtf(length_squared(xyz(vel))) / style.speed_scale);
    }
}

}  // namespace plab::sim
