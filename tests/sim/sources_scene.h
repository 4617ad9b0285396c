#pragma once
// A scene file for the emitter tests (test_emission.cpp, the CUDA one): granular beads on a bed
// of 361 in a 0.2 × 0.3 × 0.2 m box, poured from a disc 0.25 m up, moving down at 1 m/s.
// `rate`: the emitter's rate and window fields; `more`: top-level fields after the emitters
// (", \"sinks\": [...]"); `max_particles`: 0 for none; `face`: the size and (optionally)
// centre fields.
#include <string>

namespace plab::sim::testing {

inline std::string pour_scene_json(const std::string& rate, const std::string& more,
                                   std::size_t max_particles,
                                   const std::string& face = "\"size\": 0.06") {
    const std::string center =
        face.find("center") == std::string::npos ? ", \"center\": [0.1, 0.25, 0.1]" : "";
    return R"({"name": "pour", "preset": "granular",
  "domain": {"min": [0, 0, 0], "max": [0.2, 0.3, 0.2]},
  "blocks": [{"min": [0, 0, 0], "max": [0.2, 0.0105, 0.2], "spacing": 0.0105}],
  "emitters": [{"shape": "disc", "normal": [0, -1, 0], "speed": 1, )" +
           face + center + ", " + rate + "}]" + more +
           (max_particles > 0 ? ", \"max_particles\": " + std::to_string(max_particles) : "") + "}";
}

}  // namespace plab::sim::testing
