#pragma once
// One benchmark configuration set up and measured: the simulator, the preset's scene at the
// requested size, warm-up, the measured steps and (for CUDA graphs) a second pass with plain
// launches for the stage split. `particle-lab bench` prints it; `bench --sweep` tabulates it.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/lab/bench_config.h"
#include "sim/core/enum_names.h"
#include "sim/engine/simulator.h"
#include "sim/model/params.h"
#include "sim/model/scene.h"
#include "sim/run/run.h"
#include "sim/run/run_recipe.h"

namespace plab::app {

// The run a benchmark configuration asks for (sim/run/run_recipe.h), with substeps forced to 1 (a
// benchmark step is one dt). Throws plab::Error on a bad configuration.
sim::RunRecipe bench_recipe(const BenchConfig& config);

// The part of a run a benchmark measures.
enum class BenchWindow { Start, Settled, Flow };
// config.window resolved for `model` ("auto": settled for DEM, flow for SPH). Throws
// plab::Error naming the allowed values.
BenchWindow resolve_window(const std::string& window, sim::Model model);
std::string_view window_name(BenchWindow window);
// The window names (without "auto"), one table for parse, print and the CLI check.
std::span<const sim::EnumName<BenchWindow>> window_names();

// A settled pile: the kinetic energy down to this share of its peak since the start, or no
// longer falling over kSettlePlateau checks; checked every kSettleCheck steps, for at most
// kSettleLimit steps (BenchRun::settle).
inline constexpr double kSettledShare = 0.02;
inline constexpr int kSettleCheck = 250;
inline constexpr std::size_t kSettlePlateau = 8;
inline constexpr int kSettleLimit = 100'000;

struct BenchResult {
    std::vector<sim::StageTimings> measured;  // the measured steps (graph totals with --graph)
    std::vector<sim::StageTimings> staged;    // the same steps with every stage timed
    double wall_ms = 0;                       // host clock over the measured steps
    std::string notes;        // why a requested option was not in effect (Simulator::option_notes)
    bool persistent = false;  // the measured steps ran as one persistent kernel each
    bool graph = false;       // the measured steps ran as one CUDA graph each
    int steps = 0;            // measured steps (the flow window sets them from its time)
    // Which part of the run was measured, in words ("the settled pile, after 3000 steps
    // (t = 1500 s), kinetic energy 1.8% of its peak").
    std::string window;
    // Why these timings are not a result: the divergence guard's reason (sim/run/divergence.h) on
    // the state after the warm-up, the measured steps or the stage pass; "" when valid.
    std::string invalid;
    // It diverged before the measured steps, which were then not run (measured is empty).
    bool stopped_early = false;
    // The neighbour lists over the measured steps (Simulator::list_stats; inactive without).
    sim::NeighbourListStats lists;
};

// The divergence guard on `simulator`'s state now: "" when sound, else why not (and when).
std::string invalid_state(sim::Simulator& simulator, const sim::Params& params, const char* when);

// What `config` asks of sim::Run: its request or checkpoint, backend and variants, each step
// one dt. Throws plab::Error on a bad count or an unreadable checkpoint.
sim::RunStart bench_start(const BenchConfig& config);

class BenchRun {
  public:
    // Validates `config`, makes the simulator and starts the scene. Throws plab::Error.
    explicit BenchRun(const BenchConfig& config);

    // Measures the configured window (resolve_window): settles the pile first when it is the
    // settled one; the flow window measures every step of config.flow_time simulated seconds.
    BenchResult measure(std::ostream* progress);

    sim::Run& run() { return run_; }
    sim::Simulator& simulator() { return run_.simulator(); }
    const sim::Params& params() const { return run_.params(); }
    const std::string& label() const { return run_.label(); }  // what scene ran
    // What the start-up checks found suspicious (sim/model/run_checks.h), for the report.
    const std::vector<sim::RunWarning>& warnings() const { return run_.warnings(); }
    // Why CUDA was not used under --backend auto ("" otherwise).
    const std::string& fallback() const { return run_.fallback(); }
    bool cuda() const { return run_.backend() == sim::Backend::Cuda; }

    // Steps run and simulated seconds since the scene started (a loaded checkpoint's count
    // included).
    std::uint64_t steps_run() const { return run_.steps(); }
    double sim_time() const { return run_.time(); }
    // Writes a checkpoint of the state now (sim/io/checkpoint.h). Throws plab::Error.
    void save(const std::string& path);

  private:
    std::string settle(std::ostream* progress);
    static BenchResult stopped(BenchResult r);
    // Runs `steps` steps, counting them (and writing --save-every's checkpoints), then waits
    // and returns their device timings.
    std::vector<sim::StageTimings> advance(int steps, std::ostream* progress, const char* label);
    void restart();  // back to where the run started, the step count with it

    BenchConfig config_;
    sim::Run run_;
    double next_save_ = 0;  // s, simulated time of the next --save-every file
};

// One field of every step, in order.
std::vector<double> timing_column(const std::vector<sim::StageTimings>& t,
                                  double sim::StageTimings::*field);

}  // namespace plab::app
