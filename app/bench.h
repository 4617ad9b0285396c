#pragma once
// `particle-lab bench`: a headless run of the simulation that prints the configuration, the
// device and per-stage device timings (medians over the measured steps).
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "sim/simulator.h"

namespace plab::app {

struct BenchConfig {
    sim::Backend backend = sim::Backend::Auto;
    std::string model;  // empty: the preset's or scene's; else checked against it
    std::string preset = "classic";
    std::size_t particles = 65536;
    bool particles_given = true;   // false: a --scene file's own count applies
    std::string scene;             // scene file (JSON); its preset and parameters replace
                                   // --preset, and --set applies over them
    int steps = 200;
    int warmup = 20;
    bool graph = false;
    int block_size = 256;
    int threads_per_particle = 0;  // 0 = automatic
    bool separate_integrate = false;  // CUDA: integrate as its own kernel (to time it alone)
    bool single_pass_forces = false;  // CUDA: no contact list (see SimulatorOptions)
    bool scatter_forces = false;      // each pair once, with atomics (see SimulatorOptions)
    bool double_state = false;        // positions and velocities in double (DEM, fused gather)
    bool persistent = false;          // CUDA: the step as one persistent cooperative kernel
    bool unsorted = false;            // no reorder: neighbours read through the cell index
    std::vector<std::string> assignments;  // --set name=value
    // off, or whole frames along a feed path: interop, host, pinned or pinned-async
    // (frame_bench.h)
    std::string render = "off";
    int width = 1280, height = 720;  // offscreen target of --render
};

// The --render values: off, interop, host, pinned, pinned-async.
inline constexpr const char* kRenderModes[] = {"off", "interop", "host", "pinned",
                                               "pinned-async"};
// Throws plab::Error naming the allowed values unless `mode` is one of kRenderModes.
void require_render_mode(std::string_view mode);

// Runs the benchmark and prints to `out` (progress goes to `progress` when not null).
// Throws plab::Error on bad configuration.
void run_bench(const BenchConfig& config, std::ostream& out, std::ostream* progress);

}  // namespace plab::app
