#pragma once
// The step variants on a command line, made from sim::variant_table(): `--graph[=on|off]` for a
// switch or an auto/off/on row (`--scatter-forces[=auto|off|on]`), `--block-size N` for a
// number, one per row. The spellings of earlier releases
// (`--block`, `--unsorted`, `--separate-integrate`, ...) still work and say what they are now.
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/variants.h"

namespace CLI {
class App;
}

namespace plab::app {

// A variant's command-line flag: "--" and its name with '-' for '_'.
std::string variant_flag(std::string_view variant_name);

class VariantFlags {
  public:
    // Adds every row's flag (and the old spellings) to `command`.
    explicit VariantFlags(CLI::App& command);

    // Sets what the command line gave over `options`; a note for each old spelling used goes
    // to `notes` (when not null). Throws plab::Error naming the variant and what it accepts.
    void apply(sim::SimulatorOptions& options, std::ostream* notes) const;

  private:
    std::vector<std::string> values_;   // per table row, "" when not given
    std::vector<std::string> renamed_;  // per old spelling, "" when not given
};

}  // namespace plab::app
