#include "app/lab/rank_export.h"

#include <chrono>
#include <memory>
#include <ostream>

#include "app/lab/bench_run.h"
#include "app/lab/export_series.h"
#include "app/lab/rank_run.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/model/sim_time.h"
#include "sim/run/divergence.h"

namespace plab::app {

void run_rank_export(const BenchConfig& bench, const ExportConfig& config,
                     sim::RankTransport& transport, std::ostream& out, std::ostream& progress) {
    using Clock = std::chrono::steady_clock;
    PLAB_REQUIRE(!config.folder.empty(), "--export needs a folder");
    const ExportPlan plan = plan_export(config.every, config.duration,
                                        sim::step_seconds(bench_recipe(bench).params.dt));
    // Rank 0 alone writes; its folder is checked before the scene is built.
    std::unique_ptr<ExportSeries> series;
    if (transport.rank() == 0)
        series = std::make_unique<ExportSeries>(config.folder, ExportSeries::Mode::Fresh);
    RankRun ranks(bench, transport);
    const sim::Params& params = ranks.params();
    if (ranks.root()) {
        out << "particle-lab bench --export over " << transport.size() << " ranks ("
            << transport.name() << ")\n";
        ranks.describe(out);
        out << "  frames       " << plan.frames() << ", t = 0 to "
            << sim::format_numbers("%.6g s", plan.time(plan.frames() - 1))
            << ", gathered on rank 0 into " << series->folder().string() << "\n"
            << std::flush;
    }
    const auto start = Clock::now();
    sim::Simulator& whole = ranks.bench().simulator();  // rank 0's: the gathered state
    FrameSource source;
    source.step = [&] { ranks.step(); };
    source.gather = [&] { return ranks.gather(); };
    source.divergence = [&] { return sim::divergence_reason(whole.stats(params), params); };
    source.snapshot = [&] { return whole.download(); };
    write_export_frames(plan, series.get(), source, params, progress);
    if (!ranks.root()) return;
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    out << "  wrote        " << plan.frames() << " frames (frame_NNNNNN.vtk and .csv) and "
        << kSeriesFileName << " in " << series->folder().string()
        << sim::format_numbers(" (wall %.2f s)\n", wall);
}

}  // namespace plab::app
