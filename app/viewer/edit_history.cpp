#include "app/viewer/edit_history.h"

#include <utility>

namespace plab::app {

void EditHistory::record(EditKind kind, const std::string& what, SceneEdits before,
                         SceneEdits after, double now) {
    undone_.clear();
    if (!done_.empty()) {
        Step& last = done_.back();
        if (now - last.last < kMergeSeconds && last.kind == kind && last.what == what) {
            last.after = std::move(after);
            last.last = now;
            return;
        }
    }
    if (done_.size() == kMaxSteps) done_.erase(done_.begin());
    done_.push_back({kind, what, std::move(before), std::move(after), now});
}

void EditHistory::record_params(const sim::Params& before, const sim::Params& after,
                                const std::vector<sim::Body>& bodies, const sim::Sources& sources,
                                double now) {
    if (before == after) return;
    std::string what = changed_parameters(before, after);
    if (before.model != after.model) what += (what.empty() ? "" : ", ") + std::string("model");
    record(EditKind::Params, what, {before, bodies, sources}, {after, bodies, sources}, now);
}

std::optional<EditHistory::Change> EditHistory::undo() {
    if (done_.empty()) return std::nullopt;
    Step step = std::move(done_.back());
    done_.pop_back();
    Change back{step.before, step.kind, step.what};
    undone_.push_back(std::move(step));
    return back;
}

std::optional<EditHistory::Change> EditHistory::redo() {
    if (undone_.empty()) return std::nullopt;
    Step step = std::move(undone_.back());
    undone_.pop_back();
    Change again{step.after, step.kind, step.what};
    step.last = -1e300;  // a redone step never merges with the next edit
    done_.push_back(std::move(step));
    return again;
}

std::string changed_parameters(const sim::Params& a, const sim::Params& b) {
    std::string names;
    for (const sim::ParamInfo& info : sim::param_table())
        if (info.get(a) != info.get(b))
            names += (names.empty() ? "" : ", ") + std::string(info.name);
    return names;
}

void EditHistory::clear() {
    done_.clear();
    undone_.clear();
}

}  // namespace plab::app
