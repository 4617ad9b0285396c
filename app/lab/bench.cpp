#include "app/lab/bench.h"

#include <cstdint>
#include <iomanip>
#include <ostream>
#include <string>

#include "app/lab/bench_run.h"
#include "app/lab/percentile.h"
#include "sim/core/enum_names.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/engine/initial_state.h"
#include "sim/physics/cluster_pairs.h"
#include "sim/physics/sph_kernel.h"
#include "sim/run/divergence.h"
#include "sim/run/make_simulator.h"
#if PLAB_HAS_RENDER
#include "app/lab/frame_bench.h"
#endif
#include "sim/model/presets.h"
#include "sim/model/run_checks.h"
#include "sim/model/scene.h"
#include "sim/run/neighbour_stats.h"

namespace plab::app {
namespace {

using sim::format_numbers;

void print_stage(std::ostream& out, const char* name, const std::vector<double>& ms) {
    out << percentile_row(name, ms, 16);
}

// Each stage's time against the least bytes it must move (sim/engine/stage_bytes.h) and the
// device's measured copy rate.
void print_roofline(std::ostream& out, BenchRun& run, const std::vector<sim::StageTimings>& staged,
                    const std::vector<sim::StageTimings>& measured, bool whole, bool valid) {
    // A diverged run's times are no result: nothing to place under a roof.
    if (!valid || staged.empty() || !staged.front().has_stages) return;
    sim::Simulator& s = run.simulator();
    const sim::MemoryRates rates = sim::measure_memory_rates(s.backend());
    const bool fused = staged.front().integrate_fused;
    const sim::StageBytes b =
        sim::stage_bytes(run.params(), s.effective_options().effective, s.particle_count(),
                         run.run().grid().num_cells(), fused);
    out << "\nroofline (copy rate " << sim::rate_text(rates.copy_bytes_per_s)
        << (rates.l2_bytes_per_s > 0 ? ", L2 " + sim::rate_text(rates.l2_bytes_per_s)
                                     : std::string())
        << ": " << rates.how << "; the least bytes a stage must move, a model)\n";
    auto row = [&](const char* name, double ms, double bytes) {
        const std::string cells = sim::roofline_cells(ms, bytes, rates);
        if (!cells.empty()) out << "  " << std::left << std::setw(18) << name << cells << "\n";
    };
    row("grid build", median(timing_column(staged, &sim::StageTimings::grid_ms)), b.grid);
    row("sort/reorder", median(timing_column(staged, &sim::StageTimings::reorder_ms)), b.reorder);
    row(fused ? "forces+integrate" : "forces",
        median(timing_column(staged, &sim::StageTimings::forces_ms)), b.forces);
    if (!fused)
        row("integrate", median(timing_column(staged, &sim::StageTimings::integrate_ms)),
            b.integrate);
    row("step (stages)", median(timing_column(staged, &sim::StageTimings::total_ms)), b.step());
    if (whole)
        row("step (one launch)", median(timing_column(measured, &sim::StageTimings::total_ms)),
            b.step());
}

}  // namespace

void require_render_mode(std::string_view mode) {
    for (std::string_view m : kRenderModes)
        if (mode == m) return;
    throw Error("--render takes " + sim::choice_list(kRenderModes) + ", not '" + std::string(mode) +
                "'");
}

bool run_bench(const BenchConfig& c, std::ostream& out, std::ostream* progress) {
    require_render_mode(c.render);
    PLAB_REQUIRE(c.screenshot.empty() || c.render != "off",
                 "--screenshot needs --render: it saves a rendered frame");
    if (c.render != "off") {
        PLAB_REQUIRE(c.save.empty() && c.save_every == 0,
                     "--save and --save-every go with a bench of steps, not --render");
#if PLAB_HAS_RENDER
        return run_frame_bench(c, out, progress);
#else
        throw Error("--render needs the renderer, and this build has none (PLAB_BUILD_RENDER=OFF)");
#endif
    }
    BenchRun run(c);
    sim::Simulator* simulator = &run.simulator();
    const sim::Params& params = run.params();
    const sim::GridSpec initial_grid = run.run().grid();
    const sim::Domain& domain = run.run().domain();
    const std::string& fallback = run.fallback();
    const bool cuda = run.cuda();
    const std::size_t particles = simulator->particle_count();

    const sim::Vec3 lo = domain.min, hi = domain.max;
    out << "Particle Lab bench\n";
    out << "  backend      " << sim::backend_name(simulator->backend()) << ": "
        << simulator->device_name() << "\n";
    if (!fallback.empty()) out << "  note         CUDA not used: " << fallback << "\n";
    out << "  model        " << sim::model_name(run.params().model) << ", " << run.label() << "\n";
    out << "  particles    " << particles << "\n";
    out << "  domain       " << format_numbers("[%g, %g] x ", lo.x, hi.x)
        << format_numbers("[%g, %g] x ", lo.y, hi.y) << format_numbers("[%g, %g] m", lo.z, hi.z)
        << ", grid " << initial_grid.dim_x << "x" << initial_grid.dim_y << "x" << initial_grid.dim_z
        << " = " << initial_grid.num_cells() << " cells of " << initial_grid.cell_size << " m\n";
    const sim::SimulatorOptions& variants = simulator->effective_options().effective;
    out << "  memory       "
        << (variants.sorted_memory
                ? "particles copied into cell order every step"
                : "particles left unsorted (neighbours read through the cell index)")
        << (variants.double_state ? "; positions and velocities in double precision" : "") << "\n";
    out << "  steps        " << c.steps << " measured after " << c.warmup << " warm-up, dt "
        << params.dt << " s, substeps forced to 1\n";
    out << sim::warning_lines(run.warnings(), "  WARNING      ");
    if (cuda) {
        out << format_numbers(
            "  GPU memory   %.1f MiB for the state and grid\n",
            sim::cuda_bytes_needed(particles, initial_grid.num_cells()) / 1048576.0);
        out << "  launch       " << simulator->launch_summary();
        out << "\n";
    }

    const BenchResult result = run.measure(progress);
    // The state the steps left, before build_grid below reorders it.
    if (!c.save.empty()) run.save(c.save);
    const std::vector<sim::StageTimings>& measured = result.measured;
    const std::vector<sim::StageTimings>& staged = result.staged;
    const double wall_ms = result.wall_ms;
    if (!result.notes.empty()) out << "  note         " << result.notes << "\n";
    out << "  window       " << result.window << "\n";
    if (result.lists.active) {
        const sim::NeighbourListStats& l = result.lists;
        out << "  lists        rebuilt " << l.builds << " times in " << l.steps << " measured steps"
            << (l.builds > 0 ? format_numbers(" (every %.1f steps)", double(l.steps) / l.builds)
                             : std::string(" (never)"))
            << format_numbers(", skin %g of the range, ", params.skin) << l.slots
            << " entries a particle";
        if (l.overflowed > 0) out << ", " << l.overflowed << " particles overflowed their list";
        if (l.steps > 0)
            out << format_numbers("; %.1f particles past half the skin a step",
                                  double(l.moved) / l.steps);
        if (l.strays > 0 && l.steps > 0 && l.repaired > 0)
            out << format_numbers("; %.1f strays repaired a step (%.1f particles redone)",
                                  double(l.strays) / l.steps, double(l.repaired) / l.steps);
        else if (l.strays > 0 && l.steps > 0)  // the frictional pass finds them itself
            out << format_numbers("; %.1f strays a step found in the force pass",
                                  double(l.strays) / l.steps);
        out << "\n";
        if (l.cluster_slots > 0 && run.simulator().particle_count() > 0)
            out << "  clusters     " << sim::kClusterSize << " particles a cluster, "
                << format_numbers(
                       "%.1f neighbour clusters a cluster and %.1f pair tests a "
                       "particle at the last build, ",
                       double(l.cluster_entries) * sim::kClusterSize /
                           double(run.simulator().particle_count()),
                       double(l.cluster_entries) * sim::kClusterSize * sim::kClusterSize /
                           double(run.simulator().particle_count()))
                << l.cluster_slots << " slots"
                << (l.cluster_overflowed > 0
                        ? ", " + std::to_string(l.cluster_overflowed) + " clusters overflowed"
                        : std::string())
                << "\n";
    }
    // Said before any number: timings of a blown-up state are not a result.
    const bool valid = result.invalid.empty();
    const char* mark = valid ? "" : "  [INVALID]";
    if (!valid && result.stopped_early) {
        out << "\n  INVALID      the run diverged " << result.invalid
            << "\n               Stopped there: no step was measured.\n";
        const sim::SimStats st = simulator->stats(params);
        out << "  final state   " << st.non_finite << " non-finite particles\n";
        out << "  DIVERGED      " << sim::divergence_reason(st, params) << "\n";
        return false;
    }
    if (!valid)
        out << "\n  INVALID      the run diverged " << result.invalid
            << "\n               The timings below are not a result.\n";
    const bool persistent = result.persistent;
    // Measured as one launch per step (graph or persistent kernel): stages come from plain
    // launches.
    const bool whole = result.graph || persistent;

    const char* clock = cuda ? "CUDA events" : "steady clock";
    out << "\nstage (" << clock << (whole ? ", plain launches" : "")
        << ")   median ms    p10 ms    p90 ms" << mark << "\n";
    print_stage(out, "grid build", timing_column(staged, &sim::StageTimings::grid_ms));
    print_stage(out, "sort/reorder", timing_column(staged, &sim::StageTimings::reorder_ms));
    const bool fused = !staged.empty() && staged.front().integrate_fused;
    print_stage(out, fused ? "forces+integrate" : "forces",
                timing_column(staged, &sim::StageTimings::forces_ms));
    if (!fused)
        print_stage(out, "integrate", timing_column(staged, &sim::StageTimings::integrate_ms));
    print_stage(out, "step (stages)", timing_column(staged, &sim::StageTimings::total_ms));
    if (persistent) {
        out << "\nstep as one persistent kernel (CUDA events)\n";
        print_stage(out, "step (persistent)",
                    timing_column(measured, &sim::StageTimings::total_ms));
        out << "  launch             " << simulator->launch_summary() << "\n";
    } else if (whole) {
        out << "\nstep as CUDA graph (CUDA events)\n";
        print_stage(out, "step (graph)", timing_column(measured, &sim::StageTimings::total_ms));
    }

    print_roofline(out, run, staged, measured, whole, valid);

    const double step_ms = median(timing_column(measured, &sim::StageTimings::total_ms));
    const double per_s = 1000.0 * result.steps / wall_ms;
    out << "\n";
    out << format_numbers("  median step   %.4f ms", step_ms) << " (" << clock << ")" << mark
        << "\n";
    out << format_numbers(
               "  throughput    %.1f steps/s, %.3g particle-steps/s (wall clock over the measured "
               "steps)",
               per_s, per_s * static_cast<double>(particles))
        << mark << "\n";

    const sim::SimStats st = simulator->stats(params);
    // The work the force pass did per particle on the final state (explains its time).
    const sim::GridSnapshot grid = simulator->build_grid();
    const sim::NeighbourStats ns = sim::neighbour_stats(simulator->download(), grid, initial_grid,
                                                        0.5f * sim::interaction_range(params));
    out << format_numbers(
               "  neighbours    %.1f candidates and %.2f in reach per particle (max %.0f",
               ns.mean_candidates, ns.mean_contacts, ns.max_candidates)
        << format_numbers(" candidates, fullest cell %.0f) on the final state\n", ns.max_per_cell);
    // Emitters and sinks change the count while the run goes on.
    const std::string count = simulator->particle_count() != particles
                                  ? std::to_string(simulator->particle_count()) + " particles, "
                                  : std::string();
    out << "  final state   " << count
        << format_numbers("max speed %.4g m/s, kinetic energy %.4g J, ", st.max_speed,
                          st.kinetic_energy)
        << st.non_finite << " non-finite particles\n";
    const sim::SourceProgress& src = run.run().source_progress();
    if (!src.emitted.empty() || src.sunk > 0) {
        std::uint64_t laid = 0;
        for (const std::uint64_t n : src.emitted) laid += n;
        out << "  sources       " << laid << " laid by " << src.emitted.size()
            << (src.emitted.size() == 1 ? " emitter, " : " emitters, ") << src.sunk
            << " taken by the sinks, " << src.blocked << " face points blocked, " << src.capped
            << " not laid (max_particles reached), since the scene began\n";
    }
    if (params.model == sim::Model::Sph)
        out << format_numbers("  liquid        density %.2f..%.2f kg/m³ (mean %.2f), ",
                              st.density_min, st.density_max, st.density_mean)
            << format_numbers("CFL number %.3f, dt limit %.3g s\n",
                              sim::sph_courant_number(params, st.max_speed),
                              sim::sph_max_dt(params, st.max_speed));
    const std::string why = sim::divergence_reason(st, params);
    if (!why.empty()) out << "  DIVERGED      " << why << "\n";
    return valid;
}

}  // namespace plab::app
