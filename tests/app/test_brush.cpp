// The window's brush without a window: the ray finds the first particle, a stroke's point
// falls back to the ray's nearest point to the domain's centre, erase is a sink box around it
// and spray an emitter that owes one face; applied to a run (Run::apply_brush) erase takes
// particles away and spray adds a face's worth, the run staying finite.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/resting_block.h"
#include "app/viewer/brush.h"
#include "sim/engine/emission.h"
#include "sim/run/run.h"

namespace plab::app {
namespace {

TEST(Brush, TheRayMeetsTheNearestParticleWithinTheRadius) {
    const std::vector<sim::Float4> pos = {{0.f, 0.f, -5.f, 0.f},
                                          {0.05f, 0.f, -2.f, 0.f},
                                          {0.5f, 0.f, -1.f, 0.f},
                                          {0.f, 0.f, 3.f, 0.f}};
    const glm::vec3 origin(0.f), dir(0.f, 0.f, -1.f);
    const auto hit = first_on_ray(pos, origin, dir, 0.1f);
    ASSERT_TRUE(hit.has_value());
    EXPECT_FLOAT_EQ(hit->z, -2.f);  // not the one off the ray, not the one behind the eye
    EXPECT_FALSE(first_on_ray(pos, origin, glm::vec3(1.f, 0.f, 0.f), 0.1f).has_value());
    const sim::Domain d{{-1.f, -1.f, -1.f}, {1.f, 1.f, 1.f}};
    const glm::vec3 miss = stroke_point(std::nullopt, glm::vec3(0.2f, 0.f, 5.f), dir, d);
    EXPECT_NEAR(miss.x, 0.2f, 1e-6f);
    EXPECT_NEAR(miss.z, 0.f, 1e-6f);
}

TEST(Brush, EraseIsASinkAndSprayOwesOneFace) {
    const sim::Params p = sim::preset_params(sim::Preset::Classic);
    const sim::Domain d{{-1.f, -1.f, -1.f}, {1.f, 1.f, 1.f}};
    const glm::vec3 at(0.1f, 0.2f, 0.f), dir(0.f, -1.f, 0.f);
    const sim::Sources erase = brush_stroke(BrushMode::Erase, at, dir, 0.1f, 0.01f, p, d, 100, 7.0);
    ASSERT_EQ(erase.sinks.size(), 1u);
    EXPECT_TRUE(erase.emitters.empty());
    EXPECT_NEAR(erase.sinks[0].min.x, 0.0f, 1e-6f);
    EXPECT_NEAR(erase.sinks[0].max.y, 0.3f, 1e-6f);
    const sim::Sources spray = brush_stroke(BrushMode::Spray, at, dir, 0.1f, 0.01f, p, d, 100, 7.0);
    ASSERT_EQ(spray.emitters.size(), 1u);
    const sim::Emitter& e = spray.emitters[0];
    const float spacing = sim::emission_spacing(p);
    const std::size_t face = sim::emitter_face(e, spacing).size();
    ASSERT_GT(face, 3u);
    EXPECT_EQ(sim::emitter_owed(e, sim::emitter_rate(e, spacing, face), 7.0), double(face));
    EXPECT_EQ(spray.max_particles, 100 + face);
    EXPECT_TRUE(brush_stroke(BrushMode::Off, at, dir, 0.1f, 0.01f, p, d, 100, 7.0).empty());
}

TEST(Brush, StrokesOnARunEraseAndSpray) {
    sim::Run run(test::resting_block());
    const std::size_t n = run.particle_count();
    const sim::Params& p = run.params();
    const glm::vec3 down(0.f, -1.f, 0.f);
    const sim::SourceStep erased = run.apply_brush(brush_stroke(
        BrushMode::Erase, {0.f, -0.72f, 0.f}, down, 0.1f, 0.f, p, run.domain(), n, run.time()));
    EXPECT_GT(erased.sunk, 10u);
    EXPECT_EQ(run.particle_count(), n - erased.sunk);
    const std::size_t before = run.particle_count();
    const sim::SourceStep sprayed =
        run.apply_brush(brush_stroke(BrushMode::Spray, {0.f, 0.5f, 0.f}, down, 0.1f, 0.01f, p,
                                     run.domain(), before, run.time()));
    EXPECT_GT(sprayed.emitted, 3u);
    EXPECT_EQ(run.particle_count(), before + sprayed.emitted);
    for (int i = 0; i < 50; ++i) run.step();
    EXPECT_EQ(run.simulator().stats(run.params()).non_finite, 0u);
}

}  // namespace
}  // namespace plab::app
