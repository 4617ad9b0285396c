#pragma once
// One benchmark configuration set up and measured: the simulator, the preset's scene at the
// requested size, warm-up, the measured steps and (for CUDA graphs) a second pass with plain
// launches for the stage split. `particle-lab bench` prints it; `bench --sweep` tabulates it.
#include <memory>
#include <string>
#include <vector>

#include "app/lab/bench_config.h"
#include "sim/params.h"
#include "sim/run_recipe.h"
#include "sim/scene.h"
#include "sim/simulator.h"

namespace plab::app {

// The run a benchmark configuration asks for (sim/run_recipe.h), with substeps forced to 1 (a
// benchmark step is one dt). Throws plab::Error on a bad configuration.
sim::RunRecipe bench_recipe(const BenchConfig& config);

struct BenchResult {
    std::vector<sim::StageTimings> measured;  // the measured steps (graph totals with --graph)
    std::vector<sim::StageTimings> staged;    // the same steps with every stage timed
    double wall_ms = 0;                       // host clock over the measured steps
    std::string notes;        // why a requested option was not in effect (Simulator::option_notes)
    bool persistent = false;  // the measured steps ran as one persistent kernel each
    bool graph = false;       // the measured steps ran as one CUDA graph each
};

class BenchRun {
  public:
    // Validates `config`, makes the simulator and resets it with the scene. Throws plab::Error.
    explicit BenchRun(const BenchConfig& config);

    BenchResult measure(std::ostream* progress);

    sim::Simulator& simulator() { return *simulator_; }
    const sim::Params& params() const { return params_; }
    const std::string& label() const { return label_; }  // what scene ran (RunRecipe::label)
    const sim::InitialState& initial() const { return initial_; }
    // Why CUDA was not used under --backend auto ("" otherwise).
    const std::string& fallback() const { return fallback_; }
    bool cuda() const { return simulator_->backend() == sim::Backend::Cuda; }

  private:
    BenchConfig config_;
    sim::Params params_;
    std::string label_;
    std::string fallback_;
    std::unique_ptr<sim::Simulator> simulator_;
    sim::InitialState initial_;
};

// One field of every step, in order.
std::vector<double> timing_column(const std::vector<sim::StageTimings>& t,
                                  double sim::StageTimings::*field);

}  // namespace plab::app
