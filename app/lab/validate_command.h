#pragma once
// `particle-lab validate CASE`: its options and its run (exit 0 pass, 2 fail).
#include <string>

#include "app/lab/validate.h"

namespace CLI {
class App;
}

namespace plab::app {

class ValidateCommand {
  public:
    explicit ValidateCommand(CLI::App& parent);
    bool chosen() const;
    int run();

  private:
    CLI::App* command_;
    ValidateConfig config_;
    std::string backend_ = "auto";
    std::string out_ = "validation";
};

}  // namespace plab::app
