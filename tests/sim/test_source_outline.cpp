// The emitters' and sinks' outlines the views draw (sim/engine/source_outline.h): a sink's 12
// box edges, a disc emitter's border on its face at its radius, square to its flow, and the
// arrow along the flow; a rectangle's four corners.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/engine/source_outline.h"

namespace plab::sim {
namespace {

TEST(SourceOutline, ASinkIsItsBoxsTwelveEdges) {
    Sources s;
    s.sinks.push_back({{0.f, 0.f, 0.f}, {1.f, 2.f, 3.f}});
    const std::vector<Vec3> ends = sink_outline_edges(s);
    ASSERT_EQ(ends.size(), 24u);
    float total = 0.f;
    for (std::size_t k = 0; k < ends.size(); k += 2)
        total += std::sqrt(length_squared(ends[k + 1] - ends[k]));
    EXPECT_NEAR(total, 4.f * (1.f + 2.f + 3.f), 1e-5f);
}

TEST(SourceOutline, AnEmittersBorderLiesOnItsFaceAndItsArrowAlongItsFlow) {
    Sources s;
    Emitter disc;
    disc.center = {1.f, 2.f, 3.f};
    disc.normal = {0.f, -2.f, 0.f};  // any length: the outline uses its direction
    disc.size = {0.4f, 0.f, 0.f};
    s.emitters.push_back(disc);
    const std::vector<Vec3> ends = emitter_outline_edges(s, 16);
    ASSERT_EQ(ends.size(), 2u * 16u + 2u);
    for (std::size_t k = 0; k + 2 < ends.size(); ++k) {
        const Vec3 d = ends[k] - disc.center;
        EXPECT_NEAR(d.y, 0.f, 1e-6f) << "off the face";
        EXPECT_NEAR(std::sqrt(length_squared(d)), 0.2f, 1e-5f) << "not at the radius";
    }
    EXPECT_NEAR(ends.back().y, 2.f - 0.2f, 1e-6f);  // the arrow points down the flow

    Emitter rect = disc;
    rect.shape = EmitterShape::Rect;
    rect.size = {0.4f, 0.2f, 0.f};
    s.emitters = {rect};
    const std::vector<Vec3> box = emitter_outline_edges(s);
    ASSERT_EQ(box.size(), 2u * 4u + 2u);
    float perimeter = 0.f;
    for (std::size_t k = 0; k < 8; k += 2)
        perimeter += std::sqrt(length_squared(box[k + 1] - box[k]));
    EXPECT_NEAR(perimeter, 2.f * (0.4f + 0.2f), 1e-5f);
}

}  // namespace
}  // namespace plab::sim
