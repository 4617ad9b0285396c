// Block capacities by arithmetic: a sphere counted row by row gives exactly the particles that
// visiting every lattice point gives (the reference below, the placement of earlier releases),
// in the same order and bit for bit, and a finely spaced sphere is counted in milliseconds.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "sim/core/error.h"
#include "sim/core/input_limits.h"
#include "sim/engine/initial_state.h"
#include "sim/model/block_lattice.h"
#include "sim/model/params.h"
#include "sim/model/scene.h"

namespace plab::sim {
namespace {

// The old walk over every lattice point took minutes; the rows take about 0.1 s, several times
// that under the sanitizers.
#if defined(__SANITIZE_ADDRESS__)
constexpr auto kQuick = std::chrono::seconds(10);
#else
constexpr auto kQuick = std::chrono::seconds(1);
#endif

// Every lattice point of the block's bounding box, kept when inside the sphere: the float
// formulas of the placement, visited point by point.
std::vector<Vec3> walk(const ParticleBlock& b) {
    auto n = [&](float lo, float hi) {
        const double cells = std::floor((static_cast<double>(hi) - lo) / b.spacing + 1e-4);
        return cells > 0 ? static_cast<uint64_t>(cells) : uint64_t{0};
    };
    const uint64_t nx = n(b.min.x, b.max.x), ny = n(b.min.y, b.max.y), nz = n(b.min.z, b.max.z);
    const Vec3 c = (b.min + b.max) * 0.5f;
    const Vec3 half = (b.max - b.min) * 0.5f;
    const float r = std::fmin(half.x, std::fmin(half.y, half.z));
    std::vector<Vec3> points;
    for (uint64_t z = 0; z < nz; ++z)
        for (uint64_t y = 0; y < ny; ++y)
            for (uint64_t x = 0; x < nx; ++x) {
                const Vec3 p{b.min.x + b.spacing * (static_cast<float>(x) + 0.5f),
                             b.min.y + b.spacing * (static_cast<float>(y) + 0.5f),
                             b.min.z + b.spacing * (static_cast<float>(z) + 0.5f)};
                if (length_squared(p - c) <= r * r) points.push_back(p);
            }
    return points;
}

ParticleBlock sphere(Vec3 min, Vec3 max, float spacing) {
    ParticleBlock b;
    b.shape = BlockShape::Sphere;
    b.min = min;
    b.max = max;
    b.spacing = spacing;
    return b;
}

TEST(BlockLattice, SphereRowsPlaceExactlyTheWalkedPointsInOrder) {
    // Centred and off-centre, boxes that are not cubes (the sphere fits the smallest side),
    // spacings that do and do not divide the box, far from the origin, a lattice of one point.
    const std::vector<ParticleBlock> blocks = {
        sphere({-0.5f, -0.5f, -0.5f}, {0.5f, 0.5f, 0.5f}, 0.05f),
        sphere({0.2f, 0.4f, 0.2f}, {0.4f, 0.6f, 0.4f}, 0.01f),
        sphere({0.f, 0.f, 0.f}, {1.f, 0.37f, 0.6f}, 0.013f),
        sphere({-3.1f, 2.f, 7.f}, {-2.f, 3.3f, 8.05f}, 0.0217f),
        sphere({1000.f, 1000.f, 1000.f}, {1000.5f, 1000.5f, 1000.5f}, 0.007f),
        sphere({0.f, 0.f, 0.f}, {0.1f, 0.1f, 0.1f}, 0.1f),
        sphere({0.f, 0.f, 0.f}, {0.1f, 0.1f, 0.1f}, 0.3f),
    };
    for (std::size_t k = 0; k < blocks.size(); ++k) {
        const ParticleBlock& b = blocks[k];
        const std::vector<Vec3> want = walk(b);
        EXPECT_EQ(block_capacity(b, kMaxParticles), want.size()) << "block " << k;

        Scene scene;
        scene.domain = {b.min, b.max};
        scene.blocks = {b};
        EXPECT_EQ(scene_capacity(scene), want.size()) << "block " << k;
        Params p;
        p.radius = b.spacing / 2;  // touching neighbours, as the presets place them
        const InitialState s = build_initial_state(scene, p, want.size());
        ASSERT_EQ(s.pos.size(), want.size()) << "block " << k;
        for (std::size_t i = 0; i < want.size(); ++i) {
            ASSERT_EQ(s.pos[i].x, want[i].x) << "block " << k << ", particle " << i;
            ASSERT_EQ(s.pos[i].y, want[i].y) << "block " << k << ", particle " << i;
            ASSERT_EQ(s.pos[i].z, want[i].z) << "block " << k << ", particle " << i;
        }
    }
}

TEST(BlockLattice, RowsStopWhenAskedAndCountsSaturate) {
    const ParticleBlock b = sphere({0.f, 0.f, 0.f}, {1.f, 1.f, 1.f}, 0.05f);
    const std::size_t all = walk(b).size();
    EXPECT_EQ(block_capacity(b, 100), 100u);
    EXPECT_EQ(block_capacity(b, all), all);
    EXPECT_EQ(block_capacity(b, all + 1), all);
    Scene scene;
    scene.domain = {b.min, b.max};
    scene.blocks = {b};
    Params p;
    p.radius = 0.025f;
    // Placing a prefix gives the walk's first points.
    EXPECT_EQ(build_initial_state(scene, p, 7).pos.size(), 7u);
}

TEST(BlockLattice, FineSphereIsCountedQuicklyAndCorrectly) {
    // 1 m across at 1 mm: 10^9 lattice points in its box, 5.2·10^8 inside. Walking them took
    // minutes; the rows take well under a second.
    const ParticleBlock b = sphere({0.f, 0.f, 0.f}, {1.f, 1.f, 1.f}, 0.001f);
    auto start = std::chrono::steady_clock::now();
    const uint64_t n = block_capacity(b, kMaxParticles + 1);
    EXPECT_LT(std::chrono::steady_clock::now() - start, kQuick);
    const double volume = 4.0 / 3.0 * M_PI * std::pow(500.0, 3.0);  // in lattice cells
    EXPECT_NEAR(static_cast<double>(n) / volume, 1.0, 1e-3);

    // At 0.2 mm (6.5·10^10 inside) the count stops past the particle limit.
    start = std::chrono::steady_clock::now();
    Scene scene;
    scene.name = "fine";
    scene.domain = {{0.f, 0.f, 0.f}, {1.f, 1.f, 1.f}};
    scene.blocks = {sphere({0.f, 0.f, 0.f}, {1.f, 1.f, 1.f}, 0.0002f)};
    EXPECT_EQ(scene_capacity(scene), kMaxParticles + 1);
    Params p;
    p.radius = 0.01f;  // a grid of 50³ cells
    // A few particles of it start at once: the rows are found, not walked.
    EXPECT_EQ(build_initial_state(scene, p, 1000).pos.size(), 1000u);
    EXPECT_LT(std::chrono::steady_clock::now() - start, kQuick);
}

TEST(BlockLattice, LatticesPastTheAxisLimitAreRefusedWithoutOverflow) {
    Scene scene;
    scene.name = "needle";
    scene.domain = {{0.f, 0.f, 0.f}, {1e30f, 1.f, 1.f}};
    ParticleBlock b;
    b.min = {0.f, 0.f, 0.f};
    b.max = {1e30f, 1.f, 1.f};
    b.spacing = 1e-30f;  // 10^60 points along x: past any integer
    scene.blocks = {b};
    EXPECT_EQ(lattice_dims(b).x, kMaxLatticeAxis + 1);
    EXPECT_EQ(scene_capacity(scene), kMaxParticles + 1);
    Params p;
    try {
        check_scene(scene, p, 1);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("scene 'needle', block 0: spacing 1e-30 m puts more "
                                             "than 16777216 lattice points along an axis"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace plab::sim
