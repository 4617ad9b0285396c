// Undo and redo of the window's edits: one step per edit, a slider drag (edits of one parameter
// within a second) one step, another parameter or a pause a new one, redo forgotten by a new
// edit, the oldest steps dropped past the limit; body and source edits in the same order as the
// parameters', a body drag one step, each undo saying what it puts back.
#include <gtest/gtest.h>

#include "app/viewer/edit_history.h"
#include "sim/model/presets.h"

namespace plab::app {
namespace {

sim::Params with_spring(sim::Params p, float spring) {
    p.spring = spring;
    return p;
}

TEST(EditHistory, UndoAndRedoWalkTheEditsBackAndForth) {
    const sim::Params p0 = sim::preset_params(sim::Preset::Classic);
    sim::Params p1 = with_spring(p0, 0.7f);
    sim::Params p2 = p1;
    p2.damping = 0.05f;
    EditHistory h;
    EXPECT_FALSE(h.can_undo());
    EXPECT_FALSE(h.undo().has_value());
    h.record_params(p0, p1, {}, {}, 10.0);
    h.record_params(p1, p2, {}, {}, 10.2);  // another parameter: its own step, however soon
    EXPECT_EQ(h.steps(), 2u);
    EXPECT_TRUE(h.undo()->state.params == p1);
    EXPECT_TRUE(h.undo()->state.params == p0);
    EXPECT_FALSE(h.undo().has_value());
    EXPECT_TRUE(h.redo()->state.params == p1);
    EXPECT_TRUE(h.redo()->state.params == p2);
    EXPECT_FALSE(h.redo().has_value());
    EXPECT_EQ(changed_parameters(p0, p2), "spring, damping");
}

TEST(EditHistory, ASliderDragIsOneStepAndAPauseStartsAnother) {
    const sim::Params p0 = sim::preset_params(sim::Preset::Classic);
    EditHistory h;
    sim::Params last = p0;
    for (int i = 1; i <= 30; ++i) {  // a drag: 30 frames of 16 ms
        const sim::Params next = with_spring(p0, 0.5f + 0.01f * float(i));
        h.record_params(last, next, {}, {}, 5.0 + 0.016 * i);
        last = next;
    }
    EXPECT_EQ(h.steps(), 1u);
    const sim::Params later = with_spring(p0, 2.f);
    h.record_params(last, later, {}, {}, 5.0 + 0.016 * 30 + 1.5);  // the same slider after a pause
    EXPECT_EQ(h.steps(), 2u);
    EXPECT_TRUE(h.undo()->state.params == last);
    EXPECT_TRUE(h.undo()->state.params == p0) << "the drag is not one step";
}

TEST(EditHistory, ANewEditForgetsRedoAndTheOldestStepsGo) {
    const sim::Params p0 = sim::preset_params(sim::Preset::Classic);
    EditHistory h;
    h.record_params(p0, with_spring(p0, 1.f), {}, {}, 0.0);
    ASSERT_TRUE(h.undo().has_value());
    EXPECT_TRUE(h.can_redo());
    h.record_params(p0, with_spring(p0, 3.f), {}, {}, 5.0);
    EXPECT_FALSE(h.can_redo());
    h.clear();
    EXPECT_FALSE(h.can_undo());
    // Steps a second apart never merge; past the limit the oldest are dropped.
    sim::Params last = p0;
    for (std::size_t i = 0; i < EditHistory::kMaxSteps + 10; ++i) {
        const sim::Params next = with_spring(p0, 1.f + float(i));
        h.record_params(last, next, {}, {}, 10.0 * double(i));
        last = next;
    }
    EXPECT_EQ(h.steps(), EditHistory::kMaxSteps);
    h.record_params(last, last, {}, {}, 1e6);  // no change: no step
    EXPECT_EQ(h.steps(), EditHistory::kMaxSteps);
}

sim::Body box_at(float x) {
    sim::Body b;
    b.box_min = {x, 0.f, 0.f};
    b.box_max = {x + 0.1f, 0.1f, 0.1f};
    return b;
}

TEST(EditHistory, BodyAndSourceEditsUndoInTheOrderTheyWereMade) {
    const sim::Params p = sim::preset_params(sim::Preset::Classic);
    EditHistory h;
    const SceneEdits empty{p, {}, {}};
    SceneEdits one_box{p, {box_at(0.f)}, {}};
    h.record(EditKind::Bodies, "the bodies", empty, one_box, 1.0);
    // An Alt+drag: the box moves every frame for half a second, one step.
    SceneEdits moved = one_box;
    for (int i = 1; i <= 30; ++i) {
        SceneEdits next = moved;
        next.bodies[0].translate.x = 0.01f * float(i);
        h.record(EditKind::Bodies, "the bodies", moved, next, 3.0 + 0.016 * i);
        moved = next;
    }
    SceneEdits poured = moved;
    poured.sources.max_particles = 1000;
    h.record(EditKind::Sources, "the sources", moved, poured, 3.6);
    h.record_params(p, with_spring(p, 2.f), poured.bodies, poured.sources, 3.7);
    EXPECT_EQ(h.steps(), 4u);

    auto back = h.undo();  // the spring
    ASSERT_TRUE(back);
    EXPECT_EQ(back->kind, EditKind::Params);
    EXPECT_EQ(back->what, "spring");
    EXPECT_EQ(back->state.sources.max_particles, 1000u) << "a parameter undo keeps the sources";
    back = h.undo();  // the emitter's capacity
    EXPECT_EQ(back->kind, EditKind::Sources);
    EXPECT_EQ(back->state.sources.max_particles, 0u);
    back = h.undo();  // the whole drag
    EXPECT_EQ(back->kind, EditKind::Bodies);
    EXPECT_EQ(back->state.bodies[0].translate.x, 0.f) << "the drag is not one step";
    back = h.undo();  // the box added
    EXPECT_TRUE(back->state.bodies.empty());
    EXPECT_FALSE(h.undo().has_value());
    const auto again = h.redo();
    ASSERT_TRUE(again);
    EXPECT_EQ(again->state.bodies.size(), 1u);
}

}  // namespace
}  // namespace plab::app
