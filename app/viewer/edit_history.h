#pragma once
// Undo and redo of the window's edits (Ctrl+Z / Ctrl+Y, the Parameters tab's buttons): the
// parameters, the scene's bodies and its emitters and sinks, in the order they were made. A
// slider or a body drag sends an edit every frame; edits of the same kind (the same parameters,
// the bodies, the sources) that follow each other within kMergeSeconds are one step, so one
// undo takes back the whole drag.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/geometry/body.h"
#include "sim/model/params.h"
#include "sim/model/sources.h"

namespace plab::app {

// What an undo puts back.
struct SceneEdits {
    sim::Params params;
    std::vector<sim::Body> bodies;
    sim::Sources sources;
};

// The kind of an edit, which says what an undo or redo of it must apply again.
enum class EditKind { Params, Bodies, Sources };

class EditHistory {
  public:
    static constexpr double kMergeSeconds = 1.0;
    static constexpr std::size_t kMaxSteps = 200;  // the oldest are forgotten past this

    // An edit of `kind` that took the scene from `before` to `after` at `now` (s, any clock);
    // `what` names it ("dt", "the bodies"), and edits of one kind and name merge. Forgets what
    // could be redone.
    void record(EditKind kind, const std::string& what, SceneEdits before, SceneEdits after,
                double now);
    // The parameter edit from `before` to `after`, named by the parameters it changes (nothing
    // when none changes).
    void record_params(const sim::Params& before, const sim::Params& after,
                       const std::vector<sim::Body>& bodies, const sim::Sources& sources,
                       double now);

    struct Change {
        SceneEdits state;  // the scene to put back
        EditKind kind;
        std::string what;
    };
    // The state before the last edit (nullopt when there is none); redo gives it back.
    std::optional<Change> undo();
    std::optional<Change> redo();
    bool can_undo() const { return !done_.empty(); }
    bool can_redo() const { return !undone_.empty(); }
    std::size_t steps() const { return done_.size(); }
    // A new scene, preset or checkpoint: its state is not the one the steps led from.
    void clear();

  private:
    struct Step {
        EditKind kind;
        std::string what;
        SceneEdits before, after;
        double last = 0;  // when the step last grew
    };
    std::vector<Step> done_, undone_;
};

// The names of the parameters that differ between `a` and `b`, joined by ", " ("" if none).
std::string changed_parameters(const sim::Params& a, const sim::Params& b);

}  // namespace plab::app
