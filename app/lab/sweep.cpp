#include "app/lab/sweep.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>
#include <system_error>

#include "app/lab/bench_run.h"
#include "app/lab/csv.h"
#include "app/lab/interrupt.h"
#include "app/lab/output_file.h"
#include "app/lab/percentile.h"
#if PLAB_HAS_RENDER
#include "app/lab/frame_bench.h"
#endif
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"
#include "sim/model/presets.h"
#include "sim/model/variants.h"

namespace plab::app {
namespace {

using sim::format_numbers;

// The keys that are not a variant or a parameter: what runs and how it is drawn.
constexpr const char* kRunKeys[] = {"particles", "backend", "preset", "render"};

// Spellings of earlier releases, still accepted.
constexpr std::pair<std::string_view, std::string_view> kRenamedKeys[] = {{"block", "block_size"},
                                                                          {"use_graph", "graph"}};

std::string known_keys() {
    std::string s;
    for (const char* k : kRunKeys) s += std::string(s.empty() ? "" : ", ") + k;
    for (const auto& v : sim::variant_table()) s += ", " + std::string(v.name);
    return s + " and any parameter of `particle-lab --list-params`";
}

bool is_param(std::string_view key) { return sim::find_param(key) != nullptr; }

// Sets `key` = `value` on `c`; throws plab::Error on a bad value.
void apply(BenchConfig& c, const std::string& key, const std::string& v) {
    if (key == "particles") {
        c.particles = sim::parse_count(v, "--sweep " + key, 1, sim::kMaxParticles);
    } else if (key == "backend") {
        c.backend = sim::parse_backend(v);
    } else if (key == "preset") {
        sim::parse_preset(v);
        c.preset = v;
    } else if (key == "render") {
        require_render_mode(v);
        c.render = v;
    } else if (const sim::VariantInfo* variant = sim::find_variant(key)) {
        try {
            variant->set(c.options, v);
        } catch (const Error& e) {
            throw Error(std::string("--sweep ") + e.what());
        }
    } else {
        // A parameter: checked against its range now, applied after the base --set values.
        sim::Params check;
        sim::set_param(check, key, v);
        c.assignments.push_back(key + "=" + v);
    }
}

struct Row {
    std::vector<std::pair<std::string, std::string>> settings;
    std::string backend, device, preset;
    std::size_t particles = 0;
    sim::SimulatorOptions options;  // the variants asked for (one column each)
    std::string render = "off";
    std::vector<std::string> param_values;  // per swept parameter
    std::vector<double> stats;              // per stat column
    double steps_per_s = 0;
    // With render != off: per frame part its median, p10 and p90, then the pipelined frame
    // ms and FPS. Empty otherwise.
    std::vector<double> frame_stats;
    std::string window, window_kind;  // what part of the run was measured (BenchResult)
    // Why this point's timings are not a result (its run diverged); its timing cells are then
    // left empty. "" when valid.
    std::string invalid;
};

struct Stage {
    const char* name;
    double sim::StageTimings::*field;
    bool from_measured;  // the step total comes from the measured (graph) run
};
constexpr Stage kStages[] = {
    {"step_ms", &sim::StageTimings::total_ms, true},
    {"grid_ms", &sim::StageTimings::grid_ms, false},
    {"reorder_ms", &sim::StageTimings::reorder_ms, false},
    {"forces_ms", &sim::StageTimings::forces_ms, false},
    {"integrate_ms", &sim::StageTimings::integrate_ms, false},
};

// Columns of the whole-frame measurement (frame_bench.h), present when a point renders:
// for each part _median, _p10 and _p90 over the serial frames, then these two. splat_ms is
// the CUDA renderer's clear + splat + resolve (device; 0 with the GL sprites, whose whole
// draw is draw_ms).
constexpr const char* kFrameParts[] = {"export_ms", "feed_ms", "draw_ms", "splat_ms",
                                       "frame_serial_ms"};
constexpr const char* kFrameTotals[] = {"frame_pipelined_ms", "fps"};
constexpr std::size_t kFrameStats = 3 * std::size(kFrameParts) + std::size(kFrameTotals);

bool renders(const BenchConfig& c) { return c.render != "off"; }

// Six significant digits: timings are not more precise than that.
std::string short_number(double v) {
    if (!std::isfinite(v)) return "";
    return format_numbers("%.6g", v);
}

std::string fixed(double v) { return format_numbers("%.4f", v); }

// `frames`: the sweep renders somewhere, so the frame columns are written (empty in rows
// that do not render).
std::string sweep_csv(const std::vector<std::string>& params, const std::vector<Row>& rows,
                      bool frames) {
    std::ostringstream out;
    out << "backend,device,preset,particles";
    for (const auto& v : sim::variant_table()) out << "," << v.name;
    out << ",render,valid,invalid_reason,window";
    for (const auto& p : params) out << "," << p;
    for (const auto& s : kStages)
        out << "," << s.name << "_median," << s.name << "_p10," << s.name << "_p90";
    out << ",steps_per_s";
    if (frames) {
        for (const char* part : kFrameParts)
            out << "," << part << "_median," << part << "_p10," << part << "_p90";
        for (const char* total : kFrameTotals) out << "," << total;
    }
    out << "\n";
    for (const Row& r : rows) {
        out << r.backend << "," << csv_field(r.device) << "," << r.preset << "," << r.particles;
        for (const auto& v : sim::variant_table()) out << "," << v.text(r.options);
        out << "," << r.render << "," << (r.invalid.empty() ? "yes" : "no") << ","
            << csv_field(r.invalid) << "," << r.window_kind;
        for (const auto& v : r.param_values) out << "," << csv_field(v);
        for (double v : r.stats) out << "," << short_number(v);
        out << "," << short_number(r.steps_per_s);
        if (frames) {
            for (std::size_t i = 0; i < kFrameStats; ++i)
                out << "," << (r.frame_stats.empty() ? "" : short_number(r.frame_stats[i]));
        }
        out << "\n";
    }
    return out.str();
}

std::string sweep_markdown(const BenchConfig& base, const std::vector<SweepAxis>& axes,
                           const std::vector<Row>& rows, std::size_t total, bool frames) {
    std::ostringstream out;
    out << "# Particle Lab sweep\n\n";
    out << rows.size() << " of " << total << " configurations, each measured over the window "
        << "its window column names (" << base.window << ": " << base.steps << " steps after "
        << base.warmup << " warm-up for start and settled; settled first "
        << "waits for the pile to come to rest; flow covers every step of its first "
        << format_numbers("%g", base.flow_time) << " s). Times are device times "
        << "in ms, medians over the measured steps (p10–p90 of the step beside it); steps/s is "
        << "the host clock over the measured steps.";
    if (frames)
        out << " Where render is not off, the same number of whole frames (step, export along "
            << "the render path, draw into a " << base.width << "x" << base.height
            << " offscreen target) follows, medians over serial frames: export (device: "
            << "kernel, plus the copy to the host on the host paths), feed (host clock: "
            << "export, copy and upload or map/unmap), draw (GL timer: the sprites, or the "
            << "CUDA renderer's composite and the lines), splat (device: the CUDA renderer's "
            << "clear, splat and resolve; 0 with the GL sprites), frame (host clock, "
            << "finished); FPS comes from pipelined frames (host clock).";
    out << "\n\n|";
    for (const auto& a : axes) out << " " << a.key << " |";
    out << " backend | step ms | p10–p90 | grid | reorder | forces | integrate | steps/s |";
    if (frames) out << " export | feed | draw | splat | frame | FPS |";
    out << "\n|";
    const std::size_t columns = axes.size() + 8 + (frames ? 6 : 0);
    for (std::size_t i = 0; i < columns; ++i) out << (i <= axes.size() ? " --- |" : " ---: |");
    out << "\n";
    for (const Row& r : rows) {
        out << "|";
        for (const auto& s : r.settings) out << " " << s.second << " |";
        if (!r.invalid.empty()) {
            // No number of a diverged run reaches the table.
            out << " " << r.backend << " | INVALID: the run diverged |";
            for (std::size_t i = 0; i < 6 + (frames ? 6 : 0); ++i) out << " – |";
            out << "\n";
            continue;
        }
        out << " " << r.backend << " | " << fixed(r.stats[0]) << " | " << fixed(r.stats[1]) << "–"
            << fixed(r.stats[2]) << " |";
        for (std::size_t s = 1; s < std::size(kStages); ++s)
            out << " " << fixed(r.stats[3 * s]) << " |";
        out << " " << format_numbers("%.1f", r.steps_per_s) << " |";
        if (frames && r.frame_stats.empty()) out << " – | – | – | – | – | – |";
        if (frames && !r.frame_stats.empty()) {
            for (std::size_t part = 0; part < std::size(kFrameParts); ++part)
                out << " " << fixed(r.frame_stats[3 * part]) << " |";
            out << " " << format_numbers("%.1f", r.frame_stats.back()) << " |";
        }
        out << "\n";
    }
    out << "\nWindows:";
    for (const Row& r : rows) {
        out << "\n-";
        for (const auto& s : r.settings) out << " " << s.first << "=" << s.second;
        out << ": " << (r.window.empty() ? "-" : r.window);
    }
    out << "\n";
    std::vector<std::string> devices;
    for (const Row& r : rows) {
        bool seen = false;
        for (const auto& d : devices) seen = seen || d == r.device;
        if (!seen) devices.push_back(r.device);
    }
    out << "\nDevices:";
    for (const auto& d : devices) out << "\n- " << d;
    out << "\n";
    std::size_t invalid = 0;
    for (const Row& r : rows) invalid += !r.invalid.empty();
    if (invalid > 0) {
        out << "\nINVALID (" << invalid << " of " << rows.size()
            << " points: the run diverged, their timings are not results):";
        for (const Row& r : rows) {
            if (r.invalid.empty()) continue;
            out << "\n-";
            for (const auto& s : r.settings) out << " " << s.first << "=" << s.second;
            out << ": " << r.invalid;
        }
        out << "\n";
    }
    return out.str();
}

}  // namespace

SweepAxis parse_sweep_axis(std::string_view text) {
    const std::size_t eq = text.find('=');
    PLAB_REQUIRE(eq != std::string_view::npos && eq > 0 && eq + 1 < text.size(),
                 "--sweep takes key=v1,v2,..., not '" + std::string(text) + "'");
    SweepAxis axis;
    axis.key = std::string(text.substr(0, eq));
    // Recordings write the variants as variant.<name>.
    if (axis.key.starts_with("variant.")) axis.key.erase(0, 8);
    for (const auto& [old, now] : kRenamedKeys)
        if (axis.key == old) axis.key = now;
    bool known = is_param(axis.key) || sim::find_variant(axis.key) != nullptr;
    for (const char* k : kRunKeys) known = known || axis.key == k;
    PLAB_REQUIRE(known, "--sweep: unknown key '" + axis.key + "'; known: " + known_keys());
    std::string_view rest = text.substr(eq + 1);
    while (true) {
        const std::size_t comma = rest.find(',');
        const std::string v(rest.substr(0, comma));
        PLAB_REQUIRE(!v.empty(),
                     "--sweep " + axis.key + ": empty value in '" + std::string(text) + "'");
        // Checked before the duplicate search, which compares every pair.
        PLAB_REQUIRE(axis.values.size() < kMaxSweepPoints,
                     "--sweep " + axis.key + ": more than " + std::to_string(kMaxSweepPoints) +
                         " values; a sweep runs at most " + std::to_string(kMaxSweepPoints) +
                         " points");
        for (const auto& seen : axis.values)
            PLAB_REQUIRE(seen != v, "--sweep " + axis.key + ": '" + v + "' appears twice");
        axis.values.push_back(v);
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    return axis;
}

std::vector<SweepPoint> expand_sweep(const BenchConfig& base, const std::vector<SweepAxis>& axes) {
    PLAB_REQUIRE(!axes.empty(), "a sweep needs at least one --sweep key=v1,v2,...");
    for (std::size_t i = 0; i < axes.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            PLAB_REQUIRE(axes[i].key != axes[j].key,
                         "--sweep " + axes[i].key + " is given twice; list its values once");
    // Counted before any point is made: the product of a few long lists is large.
    std::size_t total = 1;
    std::string sizes;
    for (const auto& axis : axes) {
        sizes += (sizes.empty() ? "" : " x ") + std::to_string(axis.values.size());
        total = axis.values.size() > kMaxSweepPoints / total ? kMaxSweepPoints + 1
                                                             : total * axis.values.size();
    }
    PLAB_REQUIRE(total <= kMaxSweepPoints, "--sweep: " + sizes + " values make more than " +
                                               std::to_string(kMaxSweepPoints) +
                                               " points, the most one sweep runs");
    std::vector<SweepPoint> points(1, SweepPoint{base, {}});
    for (const auto& axis : axes) {
        std::vector<SweepPoint> next;
        for (const auto& p : points)
            for (const auto& v : axis.values) {
                SweepPoint q = p;
                apply(q.config, axis.key, v);
                q.settings.emplace_back(axis.key, v);
                next.push_back(std::move(q));
            }
        points = std::move(next);
    }
    return points;
}

bool run_sweep(const BenchConfig& base, const std::vector<std::string>& sweeps,
               const std::filesystem::path& out_dir, std::ostream& out, std::ostream& progress,
               std::ostream* step_progress) {
    PLAB_REQUIRE(!out_dir.empty(), "--sweep needs --out DIR for sweep.csv and sweep.md");
    require_render_mode(base.render);
    std::vector<SweepAxis> axes;
    for (const auto& s : sweeps) axes.push_back(parse_sweep_axis(s));
    const std::vector<SweepPoint> points = expand_sweep(base, axes);
    bool frames = false;
    for (const auto& p : points) frames = frames || renders(p.config);
#if !PLAB_HAS_RENDER
    PLAB_REQUIRE(!frames,
                 "--render needs the renderer, and this build has none "
                 "(PLAB_BUILD_RENDER=OFF)");
#endif

    make_folder(out_dir);
    const std::filesystem::path csv_path = out_dir / "sweep.csv";
    const std::filesystem::path md_path = out_dir / "sweep.md";
    // Both files are rewritten after every point; one that cannot be fails before the first.
    require_writable(csv_path);
    require_writable(md_path);

    std::vector<std::string> params;
    for (const auto& a : axes)
        if (is_param(a.key)) params.push_back(a.key);

    std::vector<Row> rows;
    // What a sweep that stops early leaves: the rows finished before it.
    const auto kept = [&] {
        if (rows.empty()) return std::string("no point was finished, nothing was written");
        return std::to_string(rows.size()) + " of " + std::to_string(points.size()) +
               " points finished; their rows are in " + csv_path.string() + " and " +
               md_path.string();
    };
    for (std::size_t i = 0; i < points.size(); ++i) {
        const SweepPoint& p = points[i];
        std::string label = "[" + std::to_string(i + 1) + "/" + std::to_string(points.size()) + "]";
        for (const auto& [k, v] : p.settings) label += " " + k + "=" + v;
        throw_if_interrupted("before " + label + ": " + kept());
        progress << label << "\n" << std::flush;

        Row r;
        try {
            BenchRun run(p.config);
            progress << sim::warning_lines(run.warnings(), "  WARNING ") << std::flush;
            const BenchResult result = run.measure(step_progress);
            r.settings = p.settings;
            r.backend = std::string(sim::backend_name(run.simulator().backend()));
            r.device = run.simulator().device_name();
            r.preset = p.config.preset;
            r.particles = p.config.particles;
            r.options = p.config.options;
            r.render = p.config.render;
            for (const auto& name : params)
                for (const auto& [k, v] : p.settings)
                    if (k == name) r.param_values.push_back(v);
            for (const Stage& s : kStages) {
                const auto v =
                    timing_column(s.from_measured ? result.measured : result.staged, s.field);
                r.stats.push_back(median(v));
                r.stats.push_back(percentile(v, 0.1));
                r.stats.push_back(percentile(v, 0.9));
            }
            r.steps_per_s = 1000.0 * result.steps / result.wall_ms;
            r.window = result.window;
            r.window_kind =
                std::string(window_name(resolve_window(p.config.window, run.params().model)));
            r.invalid = result.invalid;
#if PLAB_HAS_RENDER
            // Whole frames of the same simulator, after its steps were measured alone.
            if (renders(p.config)) {
                const FrameBenchResult frames_result = measure_frames(run, p.config, step_progress);
                for (double FrameSample::*part :
                     {&FrameSample::export_gpu_ms, &FrameSample::feed_cpu_ms,
                      &FrameSample::draw_gpu_ms, &FrameSample::renderer_ms,
                      &FrameSample::frame_cpu_ms}) {
                    const auto v = frame_column(frames_result, part);
                    r.frame_stats.push_back(median(v));
                    r.frame_stats.push_back(percentile(v, 0.1));
                    r.frame_stats.push_back(percentile(v, 0.9));
                }
                r.frame_stats.push_back(frames_result.pipelined_ms);
                r.frame_stats.push_back(1000.0 / frames_result.pipelined_ms);
                if (r.invalid.empty()) r.invalid = frames_result.invalid;
            }
#endif
            if (!r.invalid.empty()) {
                const double none = std::numeric_limits<double>::quiet_NaN();
                for (double& v : r.stats) v = none;
                for (double& v : r.frame_stats) v = none;
                r.steps_per_s = none;
                progress << "  INVALID: the run diverged " << r.invalid << "\n" << std::flush;
            }
        } catch (const Interrupted& e) {
            throw Interrupted(std::string(e.what()) + " of " + label + ": " + kept());
        } catch (const std::exception& e) {
            throw Error(
                label + ": " + e.what() +
                (rows.empty() ? "" : " (the finished rows are in " + csv_path.string() + ")"));
        }
        rows.push_back(std::move(r));
        write_whole_file(csv_path, sweep_csv(params, rows, frames));
        write_whole_file(md_path, sweep_markdown(base, axes, rows, points.size(), frames));
    }
    out << sweep_markdown(base, axes, rows, points.size(), frames);
    out << "\nwrote " << csv_path.string() << " and " << md_path.string() << "\n";
    for (const Row& r : rows)
        if (!r.invalid.empty()) return false;
    return true;
}

}  // namespace plab::app
