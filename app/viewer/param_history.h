#pragma once
// Undo and redo of parameter edits (Ctrl+Z / Ctrl+Y, the Parameters tab's buttons). A slider
// drag sends an edit every frame; edits of the same parameters that follow each other within
// kMergeSeconds are one step, so one undo takes back the whole drag.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/model/params.h"

namespace plab::app {

class ParamHistory {
  public:
    static constexpr double kMergeSeconds = 1.0;
    static constexpr std::size_t kMaxSteps = 200;  // the oldest are forgotten past this

    // An edit that took the parameters from `before` to `after` at `now` (s, any clock).
    // Forgets what could be redone.
    void record(const sim::Params& before, const sim::Params& after, double now);
    // The parameters before the last edit (nullopt when there is none); redo gives it back.
    std::optional<sim::Params> undo();
    std::optional<sim::Params> redo();
    bool can_undo() const { return !done_.empty(); }
    bool can_redo() const { return !undone_.empty(); }
    std::size_t steps() const { return done_.size(); }
    // A new scene, preset or checkpoint: its parameters are not the ones the steps led from.
    void clear();

  private:
    struct Step {
        sim::Params before, after;
        double last = 0;  // when the step last grew
    };
    std::vector<Step> done_, undone_;
};

// The names of the parameters that differ between `a` and `b`, joined by ", " ("" if none).
std::string changed_parameters(const sim::Params& a, const sim::Params& b);

}  // namespace plab::app
