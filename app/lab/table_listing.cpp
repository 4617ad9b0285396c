#include "app/lab/table_listing.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "app/lab/scene_dirs.h"
#include "app/lab/variant_flags.h"
#include "sim/core/format_numbers.h"
#include "sim/io/scene_file.h"
#include "sim/model/presets.h"
#include "sim/model/variants.h"

namespace plab::app {

namespace {

// `text` left-aligned in `width` columns (at least one space after it).
std::string pad(std::string_view text, std::size_t width) {
    std::string s(text);
    s.resize(std::max(width, s.size() + 1), ' ');
    return s;
}

}  // namespace

void print_param_table(std::ostream& out) {
    using sim::format_numbers;
    const sim::Params classic = sim::preset_params(sim::Preset::Classic);
    const sim::Params granular = sim::preset_params(sim::Preset::Granular);
    const sim::Params water = sim::preset_params(sim::Preset::Water);
    const sim::Params glass = sim::preset_params(sim::Preset::GlassBeads);
    const sim::Params sand = sim::preset_params(sim::Preset::Sand);
    out << pad("name", 18) << pad("unit", 9)
        << "      classic     granular        water  glass-beads    sand-like          min"
           "          max  help\n";
    for (const auto& p : sim::param_table()) {
        const char* only = p.models == sim::kDemOnly   ? " [DEM only]"
                           : p.models == sim::kSphOnly ? " [SPH only]"
                                                       : "";
        out << pad(p.name, 18) << pad(p.unit, 9)
            << format_numbers(" %12g %12g %12g %12g %12g %12g %12g  ", p.get(classic),
                              p.get(granular), p.get(water), p.get(glass), p.get(sand), p.min,
                              p.max)
            << p.help << only << (p.needs_reset ? " [needs reset]" : "") << "\n";
    }
}

void print_variant_table(std::ostream& out) {
    const sim::SimulatorOptions defaults;
    out << "step variants: --flag on the command line (switches and auto/off/on rows: --flag "
           "for on, or --flag=off), the name as --sweep key, variant.<name> in recordings\n";
    for (const auto& v : sim::variant_table()) {
        std::string values = v.is_switch() ? "on|off" : std::string(v.choice_rule);
        std::string where = v.backends == sim::kOnCuda ? "CUDA" : "CPU and CUDA";
        where += v.models == sim::kDemOnly ? ", DEM" : ", DEM and SPH";
        out << "  " << variant_flag(v.name) << " (" << v.name << ", default " << v.text(defaults)
            << "; " << values << "; " << where << ")\n      " << v.help << "\n";
    }
}

void print_scene_list(std::ostream& out) {
    const std::vector<std::string> files = list_scene_files(scene_dirs(program_scene_dir()));
    if (files.empty()) {
        out << "no scene files found\n";
        return;
    }
    out << "scene files in " << std::filesystem::path(files.front()).parent_path().string()
        << " (--scene PATH)\n";
    for (const std::string& f : files) {
        const sim::SceneFile scene = sim::load_scene_file(f);
        out << "  " << pad(std::filesystem::path(f).stem().string(), 18)
            << pad(sim::model_name(scene.params.model), 5) << f << "\n";
    }
}

TableListing::TableListing(CLI::App& top) {
    top.add_flag("--list-params", params_, "Print every simulation parameter and exit");
    top.add_flag("--list-variants", variants_, "Print every step variant and exit");
    top.add_flag("--list-scenes", scenes_, "Print the shipped scene files and exit");
}

int TableListing::run(std::ostream& out) const {
    if (params_) print_param_table(out);
    if (variants_) print_variant_table(out);
    if (scenes_) print_scene_list(out);
    return 0;
}

}  // namespace plab::app
