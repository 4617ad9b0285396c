#pragma once
// `particle-lab bench --export DIR`: runs the scene for a span of simulated time and writes
// the particles every so often (export_series.h), instead of timing steps.
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "app/lab/bench_config.h"
#include "app/lab/export_series.h"
#include "sim/engine/simulator.h"
#include "sim/model/params.h"

namespace plab::app {

struct ExportConfig {
    std::string folder;     // where the frames go (created when missing)
    double every = 0.01;    // s of simulated time between frames
    double duration = 1.0;  // s of simulated time to run
};

// When the frames fall: frame k is written after steps[k] steps of dt, the step nearest to
// k × every (so within dt/2 of it; its files carry the exact time steps[k] × dt). Frame 0 is
// at t = 0, the last at the largest k × every ≤ duration.
struct ExportPlan {
    std::vector<long long> steps;
    double dt = 0;  // s

    std::size_t frames() const { return steps.size(); }
    double time(std::size_t k) const { return static_cast<double>(steps[k]) * dt; }
};

// Throws plab::Error, naming the flag, when `every` or `duration` is not a positive finite
// number, when `every` is shorter than one step (frames would repeat), longer than
// `duration` (only frame 0 would be written), or asks for more than a million frames.
ExportPlan plan_export(double every, double duration, double dt);

// Where the frames of an export come from: one simulator (run_export) or the ranks of a job
// (rank_export.h).
struct FrameSource {
    std::function<void()> step;  // one step of dt
    // Brings the state to the process that writes the frames; false on the others.
    std::function<bool()> gather;
    std::function<std::string()> divergence;  // after gather(): why it is no result, or ""
    std::function<sim::Snapshot()> snapshot;  // after gather(): the particles in id order
};

// Steps `source` to each frame of `plan` and, where gather() says so, checks the state and
// writes it into `series` (null on the processes that write nothing), a line per frame to
// `progress`. Throws as run_export: a diverged state or an unwritable frame (the frames before
// stay, listed), Interrupted between steps on SIGINT/SIGTERM.
void write_export_frames(const ExportPlan& plan, ExportSeries* series, const FrameSource& source,
                         const sim::Params& params, std::ostream& progress);

// Sets up the scene as `bench` asks (preset or scene file, --particles, --set, backend and
// variant switches), then runs it, writing each planned frame into config.folder. A line
// per frame goes to `progress` (frame k/n, simulated time, wall time), the configuration and
// where the files went to `out`. Throws plab::Error on a bad configuration or an unwritable
// folder (before any step), a file that cannot be written, or a simulation that diverges (the
// frames before stay, listed). On SIGINT/SIGTERM (interrupt.h) it stops between steps, lists
// every frame written and throws Interrupted naming them.
void run_export(const BenchConfig& bench, const ExportConfig& config, std::ostream& out,
                std::ostream& progress);

}  // namespace plab::app
