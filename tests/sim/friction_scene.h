#pragma once
// A frictional scene both checkpoint tests use (tests/sim/test_checkpoint_friction.cpp on the
// CPU, tests/gpu/test_cuda_checkpoint.cpp on CUDA): the sand-like preset's block closed up and
// set down on the floor, so that it touches from the first step and slumps (contacts open,
// close, slide and roll), and the frictional arrays of a record as bytes, by name.
#include <algorithm>
#include <cstddef>
#include <map>
#include <string>

#include "sim/friction_record.h"
#include "sim/presets.h"
#include "sim/scene.h"

namespace plab::sim::testing {

// The sand-like preset, one step per Simulator::step call.
inline Params sand() {
    Params p = preset_params(Preset::Sand);
    p.substeps = 1;
    return p;
}

inline InitialState block_on_the_floor(const Params& p, std::size_t n) {
    InitialState init = build_initial_state(preset_scene(Preset::Sand, n, p), p, n);
    // The lattice's 2.1 r spacing closed to 2 r, its lowest layer on the floor.
    Float4 low = init.pos[0];
    for (const Float4& q : init.pos)
        low = {std::min(low.x, q.x), std::min(low.y, q.y), std::min(low.z, q.z), 0.f};
    const float squeeze = 2.f / 2.1f;
    for (Float4& q : init.pos) {
        q.x = low.x + (q.x - low.x) * squeeze;
        q.y = init.domain.min.y + p.radius + (q.y - low.y) * squeeze;
        q.z = low.z + (q.z - low.z) * squeeze;
    }
    return init;
}

// Each array of a record as bytes, by name.
inline std::map<std::string, std::string> arrays_of(const FrictionRecord& f) {
    std::map<std::string, std::string> out;
    for_each_friction_array(f, [&](const char* name, const auto& v, std::size_t) {
        out[name] = std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0]));
    });
    return out;
}

}  // namespace plab::sim::testing
