#include "app/lab/variant_flags.h"

#include <CLI/CLI.hpp>

#include <ostream>

namespace plab::app {
namespace {

// Spellings of earlier releases: the flag, the variant it sets and the value it means (a
// number flag takes the command line's value instead).
struct Renamed {
    const char* flag;
    std::string_view variant;
    const char* value;  // nullptr: the flag's own value
};
constexpr Renamed kRenamed[] = {
    {"--block", "block_size", nullptr},
    {"--separate-integrate", "fuse_integrate", "off"},
    {"--single-pass-forces", "contact_list", "off"},
    {"--unsorted", "sorted_memory", "off"},
    {"--persistent", "persistent_kernel", "on"},
    {"--double", "double_state", "on"},
};

std::string spelled(const Renamed& r) {
    return variant_flag(r.variant) + (r.value ? std::string("=") + r.value : " N");
}

}  // namespace

std::string variant_flag(std::string_view variant_name) {
    std::string flag = "--" + std::string(variant_name);
    for (char& c : flag)
        if (c == '_') c = '-';
    return flag;
}

VariantFlags::VariantFlags(CLI::App& command) {
    const auto table = sim::variant_table();
    values_.resize(table.size());
    renamed_.resize(std::size(kRenamed));
    const sim::SimulatorOptions defaults;
    for (std::size_t i = 0; i < table.size(); ++i) {
        const sim::VariantInfo& v = table[i];
        const std::string help = std::string(v.help) +
                                 (v.backends == sim::kOnCuda ? " [CUDA]" : "") +
                                 (v.models == sim::kDemOnly ? " [DEM]" : "");
        if (v.has_on()) {
            // `--graph` or `--scatter-forces` means on; `--graph=off` or `--scatter-forces=auto`
            // says another value.
            command.add_flag(variant_flag(v.name) + "{on}", values_[i],
                             help + " (" + (v.is_switch() ? "on|off" : std::string(v.choice_rule)) +
                                 ", default " + v.text(defaults) + ")");
        } else {
            command.add_option(
                variant_flag(v.name), values_[i],
                help + " (" + std::string(v.choice_rule) + ", default " + v.text(defaults) + ")");
        }
    }
    for (std::size_t i = 0; i < std::size(kRenamed); ++i) {
        const Renamed& r = kRenamed[i];
        const std::string help = "Renamed: " + spelled(r);
        if (r.value) {
            command.add_flag(std::string(r.flag) + "{" + r.value + "}", renamed_[i], help)
                ->group("Renamed");
        } else {
            command.add_option(r.flag, renamed_[i], help)->group("Renamed");
        }
    }
}

void VariantFlags::apply(sim::SimulatorOptions& options, std::ostream* notes) const {
    sim::SimulatorOptions o = options;
    const auto table = sim::variant_table();
    for (std::size_t i = 0; i < std::size(kRenamed); ++i) {
        if (renamed_[i].empty()) continue;
        const Renamed& r = kRenamed[i];
        if (notes) *notes << "note: " << r.flag << " is now " << spelled(r) << "\n";
        sim::find_variant(r.variant)->set(o, renamed_[i]);
    }
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (!values_[i].empty()) table[i].set(o, values_[i]);
    }
    options = o;
}

}  // namespace plab::app
