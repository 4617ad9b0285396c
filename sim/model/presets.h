#pragma once
// Parameter presets and the scenes that go with them.
//
// classic  — the parameters and units of NVIDIA's CUDA "particles" sample: radius 1/64 in a
//            [-1,1]³ box, dt 0.5, starting from a jittered cubic lattice in a corner. The sample
//            adds the contact force to the velocity once per step (Δv = F); we integrate
//            Δv = F·dt/m, so the preset sets m = dt = 0.5 to move identically. When N is more
//            than the box holds (64³ = 262,144) the box keeps its height and grows in x and z
//            (a slab 64 layers deep), so the pile is as deep as the sample's at every size and
//            its per-particle parameters hold; a deeper pile blows up at dt = 0.5.
// water    — SPH liquid (model sph), SI units: 1 cm particle spacing, rest density 1000 kg/m³,
//            speed of sound 60 m/s (≥ 10× the surge front of a column up to ~1.5 m high),
//            dt at the CFL limit. Its scene is a dam break: a column a wide and 2a high (and a
//            deep) at one end of a tank 5a long, sized for the particle count.
// granular — SI units: 5 mm glass beads (2500 kg/m³), k = 5000 N/m, restitution 0.5, falling
//            under 9.81 m/s² into a box; dt = t_c/20 (dem_theory.h: stable_dt).
// glass-beads — the granular preset's beads and scene with the frictional contact law
//            (dem_friction.h): μ_s 0.4, μ_r 0.02, k_t/k_n 2/7 (values and sources in
//            presets.cpp). They pile at an angle of repose where granular's creep flat.
// sand-like — frictional, 2650 kg/m³, restitution 0.4, μ_s 0.6 and rolling resistance μ_r
//            0.3 standing in for angular grains; same size, stiffness and scene as glass-beads.
#include <cstddef>
#include <string_view>

#include "sim/core/enum_names.h"
#include "sim/model/params.h"
#include "sim/model/scene.h"

namespace plab::sim {

// New presets go at the end: recordings and the panel keep the older ones' numbers.
enum class Preset { Classic, Granular, Water, GlassBeads, Sand };

// classic, granular, water, glass-beads, sand-like (the order of the enum, which the panel's combo
// follows).
std::span<const EnumName<Preset>> preset_names();
// Throws plab::Error naming the known presets.
Preset parse_preset(std::string_view name);
std::string_view preset_name(Preset preset);

Params preset_params(Preset preset);

// The preset's scene sized for `count` particles.
Scene preset_scene(Preset preset, std::size_t count, const Params& params);

}  // namespace plab::sim
