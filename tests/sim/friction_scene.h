#pragma once
// A frictional scene both checkpoint tests use (tests/sim/test_checkpoint_friction.cpp on the
// CPU, tests/gpu/test_cuda_checkpoint.cpp on CUDA): the sand-like preset's block closed up and
// set down on the floor, so that it touches from the first step and slumps (contacts open,
// close, slide and roll), and the frictional arrays of a record as bytes, by name.
#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "sim/engine/initial_state.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"
#include "sim/physics/friction_record.h"

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

// block_on_the_floor with `thrown` of its top beads thrown up and sideways (1.5 and 1 m/s):
// they pass half the lists' skin a few at a time and land among beads that did not list them
// (the lists' strays, sim/physics/list_strays.h).
inline InitialState block_with_thrown_beads(const Params& p, std::size_t n, int thrown) {
    InitialState init = block_on_the_floor(p, n);
    std::vector<std::size_t> by_height(n);
    for (std::size_t i = 0; i < n; ++i) by_height[i] = i;
    std::sort(by_height.begin(), by_height.end(),
              [&](std::size_t a, std::size_t b) { return init.pos[a].y > init.pos[b].y; });
    for (int k = 0; k < thrown && std::size_t(7 * k) < n; ++k)
        init.vel[by_height[std::size_t(7 * k)]] = {1.f, 1.5f, 0.f, 0.f};
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
