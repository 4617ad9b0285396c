#pragma once
// `particle-lab bench`: its options (the run, the variants from the table, timing, whole
// frames, sweeps, export) and what it runs once parsed: a sweep, an export or one benchmark.
#include <string>
#include <vector>

#include "app/lab/bench_config.h"
#include "app/lab/export_run.h"
#include "app/lab/variant_flags.h"
#include "app/lab/video_run.h"

namespace CLI {
class App;
}

namespace plab::app {

class BenchCommand {
  public:
    explicit BenchCommand(CLI::App& parent);
    bool chosen() const;
    // Returns the exit code; throws plab::Error on a bad combination of options.
    int run();

  private:
    // Under mpirun: this process's rank of the scene, timed (rank_bench.h) or exported
    // (rank_export.h); an error ends the job.
    int run_ranks(bool exporting);

    CLI::App* command_;
    BenchConfig config_;
    std::string backend_ = "auto";
    VariantFlags variants_;
    std::vector<std::string> sweeps_;
    std::string sweep_out_;
    ExportConfig export_;
    std::vector<std::string> save_every_;  // --save-every SECONDS DIR
    VideoConfig video_;                    // --video and its length and speed
};

}  // namespace plab::app
