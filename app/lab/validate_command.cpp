#include "app/lab/validate_command.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <iostream>

namespace plab::app {

ValidateCommand::ValidateCommand(CLI::App& parent)
    : command_(parent.add_subcommand(
          "validate", "Run an SPH validation case and write its data for plotting")) {
    CLI::App& c = *command_;
    ValidateConfig& v = config_;
    c.add_option("case", v.which, "dam-break or hydrostatic")->required();
    c.add_option("--backend", backend_, "auto, cpu or cuda")->capture_default_str();
    c.add_option("--resolution", v.resolution,
                 "Particles across the column width (dam break) or the tank")
        ->capture_default_str();
    c.add_option("--depth", v.depth, "Dam break: particle layers across the tank")
        ->capture_default_str();
    c.add_option("--settle", v.settle,
                 "Hydrostatic: seconds to settle before measuring (0: about ten sloshing "
                 "periods)")
        ->capture_default_str();
    c.add_option("--out", out_, "Folder for the case's CSV")->capture_default_str();
}

bool ValidateCommand::chosen() const { return command_->parsed(); }

int ValidateCommand::run() {
    config_.backend = sim::parse_backend(backend_);
    config_.out = out_;
    const bool pass =
        run_validation(config_, std::cout, isatty(STDERR_FILENO) ? &std::cerr : nullptr);
    return pass ? 0 : 2;
}

}  // namespace plab::app
