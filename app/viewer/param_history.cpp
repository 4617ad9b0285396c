#include "app/viewer/param_history.h"

#include <utility>

namespace plab::app {
namespace {

// Whether the edits a→b and c→d change the same parameters (a drag of one slider, not a
// move to another slider).
bool same_parameters(const sim::Params& a, const sim::Params& b, const sim::Params& c,
                     const sim::Params& d) {
    if ((a.model != b.model) != (c.model != d.model)) return false;
    for (const sim::ParamInfo& info : sim::param_table())
        if ((info.get(a) != info.get(b)) != (info.get(c) != info.get(d))) return false;
    return true;
}

}  // namespace

void ParamHistory::record(const sim::Params& before, const sim::Params& after, double now) {
    if (before == after) return;
    undone_.clear();
    if (!done_.empty()) {
        Step& last = done_.back();
        if (now - last.last < kMergeSeconds && last.after == before &&
            same_parameters(last.before, last.after, before, after)) {
            last.after = after;
            last.last = now;
            return;
        }
    }
    if (done_.size() == kMaxSteps) done_.erase(done_.begin());
    done_.push_back({before, after, now});
}

std::optional<sim::Params> ParamHistory::undo() {
    if (done_.empty()) return std::nullopt;
    Step step = std::move(done_.back());
    done_.pop_back();
    const sim::Params before = step.before;
    undone_.push_back(std::move(step));
    return before;
}

std::optional<sim::Params> ParamHistory::redo() {
    if (undone_.empty()) return std::nullopt;
    Step step = std::move(undone_.back());
    undone_.pop_back();
    const sim::Params after = step.after;
    step.last = -1e300;  // a redone step never merges with the next edit
    done_.push_back(std::move(step));
    return after;
}

std::string changed_parameters(const sim::Params& a, const sim::Params& b) {
    std::string names;
    for (const sim::ParamInfo& info : sim::param_table())
        if (info.get(a) != info.get(b))
            names += (names.empty() ? "" : ", ") + std::string(info.name);
    return names;
}

void ParamHistory::clear() {
    done_.clear();
    undone_.clear();
}

}  // namespace plab::app
