#pragma once
// Scene files: JSON that names a preset, overrides parameters (validated against the
// parameter table), and either lists particle blocks in a domain or asks for the preset's own
// scene at a given size. Unknown keys are errors, and every error names the file and the key.
//
//   {
//     "name": "granular_pile",
//     "description": "free text",
//     "model": "dem",
//     "preset": "granular",
//     "params": {"spring": 4000, "collider_radius": 0},
//     "domain": {"min": [0, 0, 0], "max": [0.5, 0.5, 0.5]},
//     "blocks": [{"shape": "box", "min": [...], "max": [...], "spacing": 0.0105,
//                 "jitter": 0.0002, "velocity": [0, 0, 0]}],
//     "particles": 20000,
//     "camera": {"target": [0.25, 0.1, 0.25], "distance": 1.2, "yaw": 30, "pitch": 25}
//   }
//
// "geometry" (optional) lists bodies the particles meet (sim/geometry/body.h), each one of
//     {"type": "mesh", "file": "funnel.stl"}   (STL or OBJ, relative to the scene file)
//     {"type": "box", "min": [...], "max": [...]}
//     {"type": "cylinder", "center": [...], "axis": [...], "radius": R, "length": L}
//     {"type": "plane", "point": [...], "normal": [...]}
// with optional "scale" (a number or one per axis), "rotate" (degrees about x, then y, then z),
// "translate" (m), "inside" (true: particles live inside it; needs a closed surface),
// "friction" (μ_s, else wall_friction) and "motion": {"spin_axis", "spin_center", "spin_rpm",
// "velocity"}. Each body must reach into the domain.
//
// "emitters" (optional) pour particles in (sim/model/sources.h, sim/engine/emission.h), each
//     {"shape": "disc" | "rect", "center": [...], "normal": [...], "size": D | [W, H],
//      "speed": m/s, "rate": particles/s | "flow": m³/s, "start": s, "stop": s}
// (shape disc, start 0, no stop and the rate a full face per spacing travelled by default);
// "sinks" (optional) take the particles that enter them: [{"min": [...], "max": [...]}];
// "max_particles" caps the count and is needed with emitters. Without a sink, the emitters'
// particles over their windows must fit in it.
//
// Without "blocks" (and "domain") the preset's own scene is built for "particles" particles.
// With blocks, "particles" is optional and defaults to everything the blocks can place.
// "camera" (optional) is where the app's orbit camera starts: the point it looks at (m), its
// distance from it (m), yaw (degrees, 0 looks along −z) and pitch (degrees, positive looks
// down); without it the app frames the domain.
//
// Limits (sim/core/input_limits.h), each refused with the file and the key: the file is a regular
// file of at most 16 MiB (not a directory, device or FIFO) holding JSON nested at most 64
// deep; every number fits a double (1e999 does not) and every coordinate, spacing, jitter,
// velocity and camera value fits a float (magnitude at most 3.4e38); "particles" is a whole
// number from 0 to 2147483647; at most 4096 blocks, each inside the domain with at most 2^24
// lattice points along an axis; the grid of the domain at the radius has at most 2^28 cells.
// Parameters are checked against their range as written, before rounding to float. A
// parameter of the other model (a DEM "spring" in a water scene) is kept but has no effect;
// the run warns about it (sim/model/run_checks.h), as it does about overlapping blocks and a dt
// above the stable limit.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/geometry/body.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"
#include "sim/model/sources.h"

namespace plab::sim {

struct SceneCamera {
    Vec3 target;          // m
    float distance = 1;   // m, > 0
    float yaw_deg = 0;    // degrees
    float pitch_deg = 0;  // degrees, in (−89, 89)
};

struct SceneFile {
    std::string name;
    std::string description;
    Preset preset = Preset::Classic;
    Params params;  // the preset's, with the file's overrides
    Scene scene;    // domain and blocks, ready for build_initial_state
    std::size_t particles = 0;
    bool has_own_blocks = false;  // false: `scene` is the preset's, built for `particles`
    std::optional<SceneCamera> camera;
    std::vector<std::string> param_keys;  // the parameters "params" sets, in file order
    std::vector<Body> bodies;             // "geometry", in file order
    Sources sources;                      // "emitters", "sinks", "max_particles"
};

// Throws plab::Error "<source>: <key>: <problem>" (or "<source>:<line>:<column>: <key>:
// invalid JSON at byte <n>: <parser's reason>" for a JSON syntax or number-range error).
SceneFile parse_scene_file(std::string_view json_text, const std::string& source);

// Reads and parses a file; a missing, unreadable, oversized or irregular file (a directory,
// /dev/zero, a FIFO) is a plab::Error naming it, raised before anything is read.
SceneFile load_scene_file(const std::filesystem::path& path);

}  // namespace plab::sim
