// particle-lab: one binary, four commands. With no subcommand it opens the window app on the
// default scene (app/viewer/window_command.h); `bench` runs the simulation headless and times
// it, `validate` runs a validation case (app/lab/); `--list-params` and `--list-variants` print
// the two tables every surface is built from. Each command owns its options; main dispatches.
#include <CLI/CLI.hpp>

#include <iostream>

#include "app/lab/bench_command.h"
#include "app/lab/interrupt.h"
#include "app/lab/table_listing.h"
#include "app/lab/validate_command.h"
#if PLAB_HAS_WINDOW
#include "app/viewer/window_command.h"
#endif
#include "sim/core/error.h"

int main(int argc, char** argv) {
    CLI::App cli{"Particle Lab: an interactive, measurable GPU particle simulator"};
    cli.set_version_flag("--version", std::string("particle-lab ") + PLAB_VERSION);
    plab::app::TableListing tables(cli);
#if PLAB_HAS_WINDOW
    plab::app::WindowCommand window(cli);
#endif
    plab::app::BenchCommand bench(cli);
    plab::app::ValidateCommand validate(cli);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e);
    }

    try {
        if (tables.chosen()) return tables.run(std::cout);
        // SIGINT and SIGTERM end a run cleanly: its loops finish what they write, say what was
        // kept and exit with 128 + the signal (app/lab/interrupt.h).
        const plab::app::InterruptHandler on_signals;
        if (bench.chosen()) return bench.run();
        if (validate.chosen()) return validate.run();
#if PLAB_HAS_WINDOW
        return window.run();
#else
        throw plab::Error(
            "this build has no window app (configured without the renderer); "
            "`particle-lab bench` runs headless");
#endif
    } catch (const plab::app::Interrupted& e) {
        std::cerr << "particle-lab: " << e.what() << "\n";
        return e.exit_code();
    } catch (const std::exception& e) {
        // Without the source location unless PLAB_ERROR_LOCATIONS=1 (sim/core/error.h).
        std::cerr << "particle-lab: error: " << plab::error_report(e) << "\n";
        return 1;
    }
}
