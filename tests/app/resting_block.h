#pragma once
// The window tools' tests' scene: a block of classic beads resting on the floor of a 2 m box
// (no collider), on the CPU, one dt a step.
#include "sim/io/scene_file.h"
#include "sim/run/run.h"

namespace plab::app::test {

inline sim::RunStart resting_block() {
    sim::RunStart s;
    s.backend = sim::Backend::Cpu;
    s.single_dt = true;
    s.request.scene_file = sim::parse_scene_file(R"({"name": "block", "preset": "classic",
      "params": {"collider_radius": 0}, "domain": {"min": [-1, -1, -1], "max": [1, 1, 1]},
      "blocks": [{"min": [-0.3, -1, -0.3], "max": [0.3, -0.7, 0.3], "spacing": 0.0313}]})",
                                                 "block.json");
    return s;
}

}  // namespace plab::app::test
