#pragma once
// The window app's options (particle-lab with no subcommand) and its run: checks everything it
// can (scene file, assignments, variants) before a window opens, then runs the frame loop.
#include <string>
#include <vector>

#include "app/lab/variant_flags.h"
#include "app/viewer/app_config.h"

namespace CLI {
class App;
}

namespace plab::app {

class WindowCommand {
  public:
    explicit WindowCommand(CLI::App& top);
    // Returns the exit code; throws plab::Error on bad options.
    int run();

  private:
    CLI::App& top_;
    AppConfig config_;
    std::string backend_ = "auto", color_ = "speed", look_ = "data", vsync_ = "on", scene_;
    bool no_panel_ = false;
    std::string panel_tab_;
    std::vector<std::string> save_every_;  // --save-every SECONDS DIR
    VariantFlags variants_;
};

}  // namespace plab::app
