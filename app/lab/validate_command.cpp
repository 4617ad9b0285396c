#include "app/lab/validate_command.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "app/lab/cli_checks.h"
#include "sim/core/error.h"

namespace plab::app {
namespace {

constexpr std::string_view kCases[] = {"dam-break",       "hydrostatic", "column-collapse",
                                       "angle-of-repose", "silo",        "drum"};

// The options that belong to some cases only, and the cases they belong to. Another case would
// ignore them and start a long run; it refuses them instead, naming the cases that own them.
struct CaseOption {
    const char* name;
    std::vector<std::string_view> cases;
};
const CaseOption kCaseOptions[] = {
    {"--aspect", {"column-collapse"}},
    {"--channel", {"column-collapse"}},
    {"--orifice", {"silo"}},
    {"--fill", {"silo"}},
    {"--open-time", {"silo"}},
    {"--pour", {"angle-of-repose"}},
    {"--heap", {"angle-of-repose"}},
    {"--piles", {"angle-of-repose"}},
    {"--rest-time", {"angle-of-repose"}},
    {"--spin-up", {"drum"}},
    {"--measure", {"drum"}},
    {"--set", {"drum"}},
    {"--preset", {"column-collapse", "angle-of-repose", "silo", "drum"}},
    {"--depth", {"dam-break"}},
    {"--settle", {"hydrostatic"}},
};

std::string case_list(const std::vector<std::string_view>& cases) {
    std::string s;
    for (std::size_t i = 0; i < cases.size(); ++i)
        s += std::string(i == 0                  ? ""
                         : i + 1 == cases.size() ? " and "
                                                 : ", ") +
             std::string(cases[i]);
    return s;
}

// Throws plab::Error for an unknown case, or an option given that belongs to another case.
void require_case_options(const CLI::App& c, const std::string& which) {
    const std::vector<std::string_view> all(std::begin(kCases), std::end(kCases));
    bool known = false;
    for (std::string_view k : kCases) known = known || k == which;
    PLAB_REQUIRE(known, "unknown validation case '" + which + "'; available: " + case_list(all));
    for (const CaseOption& o : kCaseOptions) {
        if (c.count(o.name) == 0) continue;
        bool owned = false;
        for (std::string_view k : o.cases) owned = owned || k == which;
        PLAB_REQUIRE(owned, "validate " + which + ": " + o.name + " is an option of " +
                                (o.cases.size() == 1 ? "the " : "the cases ") + case_list(o.cases) +
                                (o.cases.size() == 1 ? " case" : "") + ", not of " + which);
    }
}

}  // namespace

ValidateCommand::ValidateCommand(CLI::App& parent)
    : command_(parent.add_subcommand(
          "validate", "Run an SPH or granular validation case and write its data for plotting")) {
    CLI::App& c = *command_;
    ValidateConfig& v = config_;
    c.add_option("case", v.which,
                 "dam-break, hydrostatic, column-collapse, angle-of-repose, silo or drum")
        ->required();
    c.add_option("--backend", backend_, "auto, cpu or cuda")->capture_default_str();
    c.add_option(
         "--resolution", v.resolution,
         "Particles across the column width (dam break) or the tank (hydrostatic), "
         "default 40; beads across the column's smaller side (column-collapse, default "
         "6), the cylinder's radius (angle-of-repose, default 10; with --heap the channel's "
         "depth, default 9) or the silo's width "
         "(silo, default 14) or the drum's diameter (drum, default 24; 80: the reference's "
         "3 mm beads); 0: the default")
        ->capture_default_str();
    c.add_option("--aspect", v.aspects,
                 "Column-collapse: the aspect ratios H0/L0 to run (comma-separated)")
        ->delimiter(',')
        ->capture_default_str();
    c.add_option("--channel", v.channel, "Column-collapse: the channel's width in beads")
        ->capture_default_str();
    c.add_option("--orifice", v.orifices,
                 "Silo: the orifice diameters to run, in bead diameters (comma-separated)")
        ->delimiter(',')
        ->capture_default_str();
    c.add_option("--fill", v.fill, "Silo: the settled fill's height in bead diameters")
        ->capture_default_str();
    c.add_option("--open-time", v.open_time, "Silo: seconds each orifice stays open at most")
        ->capture_default_str();
    c.add_flag("--pour", v.pour,
               "Angle-of-repose: pour the pile grain by grain over the axis (as from a funnel) "
               "instead of lifting the settled cylinder at once");
    c.add_flag("--heap", v.heap,
               "Angle-of-repose: the reference's piling test, a quasi-2D heap poured through a "
               "slot into a channel; --resolution is the channel's depth in beads (18: the "
               "reference's size; default 9)");
    c.add_option("--piles", v.piles,
                 "Angle-of-repose: piles to run, each on its own floor and jitter; their mean "
                 "angle is judged")
        ->capture_default_str();
    c.add_option("--rest-time", v.rest_time,
                 "Angle-of-repose: simulated seconds a pile may take to come to rest before it "
                 "is measured as it stands")
        ->capture_default_str();
    c.add_option("--spin-up", v.spin_up,
                 "Drum: simulated seconds the drum turns before its surface is measured")
        ->capture_default_str();
    c.add_option("--measure", v.measure,
                 "Drum: simulated seconds over which the surface's angle is sampled (every "
                 "0.1 s)")
        ->capture_default_str();
    c.add_option("--set", v.assignments,
                 "Drum: override a contact coefficient of the scaled beads, name=value "
                 "(repeatable): friction, rolling_friction, wall_friction or "
                 "tangential_stiffness; the report then says the run is not the preset's");
    c.add_option("--preset", v.preset,
                 "Column-collapse, angle-of-repose, silo and drum: glass-beads or sand-like")
        ->capture_default_str();
    c.add_option("--depth", v.depth, "Dam break: particle layers across the tank")
        ->capture_default_str();
    c.add_option("--settle", v.settle,
                 "Hydrostatic: seconds to settle before measuring (0: about ten sloshing "
                 "periods)")
        ->capture_default_str();
    c.add_option("--out", out_, "Folder for the case's CSV")
        ->check(non_empty_check("folder"))
        ->capture_default_str();
}

bool ValidateCommand::chosen() const { return command_->parsed(); }

int ValidateCommand::run() {
    require_case_options(*command_, config_.which);
    config_.backend = sim::parse_backend(backend_);
    config_.out = out_;
    const bool pass =
        run_validation(config_, std::cout, isatty(STDERR_FILENO) ? &std::cerr : nullptr);
    return pass ? 0 : 2;
}

}  // namespace plab::app
