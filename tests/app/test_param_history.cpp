// Undo and redo of parameter edits: one step per edit, a slider drag (edits of one parameter
// within a second) one step, another parameter or a pause a new one, redo forgotten by a new
// edit, the oldest steps dropped past the limit.
#include <gtest/gtest.h>

#include "app/viewer/param_history.h"
#include "sim/model/presets.h"

namespace plab::app {
namespace {

sim::Params with_spring(sim::Params p, float spring) {
    p.spring = spring;
    return p;
}

TEST(ParamHistory, UndoAndRedoWalkTheEditsBackAndForth) {
    const sim::Params p0 = sim::preset_params(sim::Preset::Classic);
    sim::Params p1 = with_spring(p0, 0.7f);
    sim::Params p2 = p1;
    p2.damping = 0.05f;
    ParamHistory h;
    EXPECT_FALSE(h.can_undo());
    EXPECT_FALSE(h.undo().has_value());
    h.record(p0, p1, 10.0);
    h.record(p1, p2, 10.2);  // another parameter: its own step, however soon
    EXPECT_EQ(h.steps(), 2u);
    EXPECT_TRUE(h.undo() == p1);
    EXPECT_TRUE(h.undo() == p0);
    EXPECT_FALSE(h.undo().has_value());
    EXPECT_TRUE(h.redo() == p1);
    EXPECT_TRUE(h.redo() == p2);
    EXPECT_FALSE(h.redo().has_value());
    EXPECT_EQ(changed_parameters(p0, p2), "spring, damping");
}

TEST(ParamHistory, ASliderDragIsOneStepAndAPauseStartsAnother) {
    const sim::Params p0 = sim::preset_params(sim::Preset::Classic);
    ParamHistory h;
    sim::Params last = p0;
    for (int i = 1; i <= 30; ++i) {  // a drag: 30 frames of 16 ms
        const sim::Params next = with_spring(p0, 0.5f + 0.01f * float(i));
        h.record(last, next, 5.0 + 0.016 * i);
        last = next;
    }
    EXPECT_EQ(h.steps(), 1u);
    const sim::Params later = with_spring(p0, 2.f);
    h.record(last, later, 5.0 + 0.016 * 30 + 1.5);  // the same slider after a pause
    EXPECT_EQ(h.steps(), 2u);
    EXPECT_TRUE(h.undo() == last);
    EXPECT_TRUE(h.undo() == p0) << "the drag is not one step";
}

TEST(ParamHistory, ANewEditForgetsRedoAndTheOldestStepsGo) {
    const sim::Params p0 = sim::preset_params(sim::Preset::Classic);
    ParamHistory h;
    h.record(p0, with_spring(p0, 1.f), 0.0);
    ASSERT_TRUE(h.undo().has_value());
    EXPECT_TRUE(h.can_redo());
    h.record(p0, with_spring(p0, 3.f), 5.0);
    EXPECT_FALSE(h.can_redo());
    h.clear();
    EXPECT_FALSE(h.can_undo());
    // Steps a second apart never merge; past the limit the oldest are dropped.
    sim::Params last = p0;
    for (std::size_t i = 0; i < ParamHistory::kMaxSteps + 10; ++i) {
        const sim::Params next = with_spring(p0, 1.f + float(i));
        h.record(last, next, 10.0 * double(i));
        last = next;
    }
    EXPECT_EQ(h.steps(), ParamHistory::kMaxSteps);
    h.record(last, last, 1e6);  // no change: no step
    EXPECT_EQ(h.steps(), ParamHistory::kMaxSteps);
}

}  // namespace
}  // namespace plab::app
