// libFuzzer target: arbitrary bytes as a scene file. Parsing, the scene checks and the
// start-up validity checks must either accept the input or throw plab::Error; a crash, a
// sanitizer report (out of bounds, overflow, an out-of-range float-to-integer cast), a leak or a
// hang is a finding. Small scenes are also built, so the lattice and jitter code run too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/error.h"
#include "sim/engine/initial_state.h"
#include "sim/io/scene_file.h"
#include "sim/model/run_checks.h"
#include "sim/model/scene.h"

namespace {
// Building costs time linear in the particle count: keep each input fast.
constexpr std::size_t kBuildAtMost = 4096;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace plab::sim;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const SceneFile file = parse_scene_file(text, "fuzz.json");
        (void)check_run(file.scene, file.params);
        if (file.particles <= kBuildAtMost) {
            const InitialState state = build_initial_state(file.scene, file.params, file.particles);
            if (state.pos.size() != file.particles) __builtin_trap();
        }
    } catch (const plab::Error&) {
        // A refusal with a message is the expected answer to a bad file.
    }
    return 0;
}
