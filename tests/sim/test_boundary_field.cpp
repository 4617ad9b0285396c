// The bodies' distance field for SPH (sim/geometry/boundary_field.h): its nodes against the
// analytic signed distance of a box, a sphere and a plane, the liquid's side of closed, inside,
// flat and open bodies (sim/geometry/liquid_side.h), and what it refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "sim/geometry/boundary_field.h"
#include "sim/geometry/field_sample.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/icosphere.h"

namespace plab::sim {
namespace {

const Domain kDomain{{-0.5f, -0.5f, -0.5f}, {0.5f, 0.5f, 0.5f}};
constexpr float kSpacing = 0.02f, kBand = 0.08f;

Vec3 node_at(const BoundaryField& f, uint32_t i, uint32_t j, uint32_t k) {
    return f.origin + Vec3{float(i), float(j), float(k)} * f.spacing;
}

// Calls check(x, node) for every node within the band of a surface (|d| < band).
template <typename Check>
int for_each_banded_node(const BoundaryField& f, Check&& check) {
    int visited = 0;
    for (uint32_t k = 0; k < f.nz; ++k)
        for (uint32_t j = 0; j < f.ny; ++j)
            for (uint32_t i = 0; i < f.nx; ++i) {
                const Float4 node = f.nodes[(std::size_t(k) * f.ny + j) * f.nx + i];
                if (!(std::fabs(node.w) < 0.9f * f.band)) continue;
                check(node_at(f, i, j, k), node);
                ++visited;
            }
    return visited;
}

// Signed distance to the box [-h, h]³ about c: negative inside.
float box_distance(Vec3 x, Vec3 c, float h) {
    const Vec3 q{std::fabs(x.x - c.x) - h, std::fabs(x.y - c.y) - h, std::fabs(x.z - c.z) - h};
    const Vec3 out{std::max(q.x, 0.f), std::max(q.y, 0.f), std::max(q.z, 0.f)};
    return std::sqrt(length_squared(out)) + std::min(std::max({q.x, q.y, q.z}), 0.f);
}

Body box_body(bool inside) {
    Body b;
    b.shape = BodyShape::Box;
    b.box_min = {-0.2f, -0.2f, -0.2f};
    b.box_max = {0.2f, 0.2f, 0.2f};
    b.translate = {0.013f, -0.007f, 0.0f};  // off the lattice, so rays meet faces in between
    b.inside = inside;
    return b;
}

BoundaryField field_of(const std::vector<Body>& bodies) {
    const SceneGeometry g = place_bodies(bodies, kDomain);
    return boundary_field(g, kDomain, kSpacing, kBand);
}

TEST(BoundaryField, ASolidBoxIsNegativeInsideAndPositiveOutside) {
    const BoundaryField f = field_of({box_body(false)});
    const Vec3 c{0.013f, -0.007f, 0.f};
    int inside = 0, outside = 0;
    const int n = for_each_banded_node(f, [&](Vec3 x, Float4 node) {
        const float exact = box_distance(x, c, 0.2f);
        EXPECT_NEAR(node.w, exact, 1e-5f) << "at " << x.x << ", " << x.y << ", " << x.z;
        (exact < 0.f ? inside : outside)++;
        // n points the way the distance grows: one small step along it adds its length.
        const Vec3 dir = xyz(node);
        EXPECT_NEAR(length_squared(dir), 1.f, 1e-4f);
        const float eps = 1e-3f;
        if (std::fabs(exact) > 2 * eps) {
            EXPECT_NEAR(box_distance(x + dir * eps, c, 0.2f) - exact, eps, 1e-4f);
        }
    });
    EXPECT_GT(n, 1000);
    EXPECT_GT(inside, 500);
    EXPECT_GT(outside, 500);
    // Far from the box: the band's value, no direction.
    const Float4 far = f.nodes[0];
    EXPECT_EQ(far.w, kBand);
    EXPECT_EQ(length_squared(xyz(far)), 0.f);
}

TEST(BoundaryField, AnInsideBoxHoldsTheLiquidInside) {
    const BoundaryField solid = field_of({box_body(false)});
    const BoundaryField tank = field_of({box_body(true)});
    ASSERT_EQ(solid.nodes.size(), tank.nodes.size());
    int compared = 0;
    for (std::size_t k = 0; k < solid.nodes.size(); ++k) {
        if (!(std::fabs(solid.nodes[k].w) < 0.9f * kBand)) continue;
        // The same nearest points, up to the rounding of the other winding.
        EXPECT_NEAR(tank.nodes[k].w, -solid.nodes[k].w, 1e-6f);
        EXPECT_NEAR(tank.nodes[k].x, -solid.nodes[k].x, 1e-5f);
        ++compared;
    }
    EXPECT_GT(compared, 1000);
}

// A sphere of 1,280 flat triangles: its distance within the faces' sag of the true sphere's.
TEST(BoundaryField, ASphereOfTrianglesFollowsTheSphere) {
    Body ball;
    ball.shape = BodyShape::Mesh;
    ball.mesh = testing::icosphere(3, 0.25f);
    const BoundaryField f = field_of({ball});
    // A face of a level-3 icosphere lies up to 0.43% of the radius inside the sphere.
    const float sag = 0.005f * 0.25f;
    const int n = for_each_banded_node(f, [&](Vec3 x, Float4 node) {
        const float r = std::sqrt(length_squared(x));
        EXPECT_NEAR(node.w, r - 0.25f, sag) << "at radius " << r;
        if (r > 0.05f) {
            EXPECT_GT(dot(xyz(node), x * (1.f / r)), 0.98f);
        }
    });
    EXPECT_GT(n, 5000);
}

// A mesh wound inside out (as some files are) is rewound, so it is a solid all the same.
TEST(BoundaryField, AMeshWoundInsideOutIsRewound) {
    Body ball;
    ball.shape = BodyShape::Mesh;
    ball.mesh = testing::icosphere(2, 0.25f);
    Body flipped = ball;
    for (auto& t : flipped.mesh.triangles) std::swap(t[1], t[2]);
    const BoundaryField a = field_of({ball}), b = field_of({flipped});
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    for (std::size_t k = 0; k < a.nodes.size(); ++k) ASSERT_EQ(a.nodes[k].w, b.nodes[k].w) << k;
    EXPECT_EQ(place_bodies({flipped}, kDomain).sides[0], LiquidSide::Outside);
    ball.inside = true;
    EXPECT_EQ(place_bodies({ball}, kDomain).sides[0], LiquidSide::Inside);
}

TEST(BoundaryField, APlaneIsSignedByItsNormal) {
    Body plane;
    plane.shape = BodyShape::Plane;
    plane.point = {0.f, -0.1f, 0.f};
    plane.normal = {0.3f, 1.f, 0.2f};
    const SceneGeometry g = place_bodies({plane}, kDomain);
    EXPECT_EQ(g.sides[0], LiquidSide::Facing);
    const BoundaryField f = boundary_field(g, kDomain, kSpacing, kBand);
    const Vec3 n = plane.normal * (1.f / std::sqrt(length_squared(plane.normal)));
    const int visited = for_each_banded_node(f, [&](Vec3 x, Float4 node) {
        EXPECT_NEAR(node.w, dot(x - plane.point, n), 1e-5f);
        EXPECT_GT(dot(xyz(node), n), 0.9999f);
    });
    EXPECT_GT(visited, 1000);
}

// The interpolation between nodes is exact for a distance that varies linearly, as it does
// beside a flat face.
TEST(BoundaryField, SamplingBetweenNodesIsExactBesideAFace) {
    Body plane;
    plane.shape = BodyShape::Plane;
    plane.point = {0.f, 0.0037f, 0.f};
    plane.normal = {0.f, 1.f, 0.f};
    const BoundaryField f = field_of({plane});
    const FieldView v = f.view(f.nodes.data(), f.crease.data());
    for (const Vec3 x :
         {Vec3{0.1234f, 0.02f, -0.3f}, Vec3{-0.41f, 0.051f, 0.0071f}, Vec3{0.f, -0.03f, 0.2f}}) {
        const Float4 s = sample_field(v, x);
        EXPECT_NEAR(s.w, x.y - 0.0037f, 1e-6f);
        EXPECT_NEAR(s.y, 1.f, 1e-6f);
    }
}

// The crease planes of a node: (n, o) of each slot that is set.
std::vector<Float4> crease_at(const BoundaryField& f, Vec3 x) {
    const FieldView v = f.view(f.nodes.data(), f.crease.data());
    const Float4* planes = &f.crease[kCreaseSlots * field_nearest_node(v, x)];
    std::vector<Float4> set;
    for (uint32_t s = 0; s < kCreaseSlots; ++s)
        if (length_squared(xyz(planes[s])) > 0.f) set.push_back(planes[s]);
    return set;
}

// Whether `planes` holds the wall of the tank (box_body(true)) on `axis` at `side` (±1): the
// plane facing into the tank, through its face.
bool holds_wall(const std::vector<Float4>& planes, int axis, float side) {
    const Vec3 c{0.013f, -0.007f, 0.f};
    const float cs[3] = {c.x, c.y, c.z};
    for (const Float4& p : planes) {
        const float n[3] = {p.x, p.y, p.z};
        if (std::fabs(n[axis] + side) > 1e-5f) continue;
        // The wall at cs + side·0.2 on the axis: o = n · point = −side · (cs + side · 0.2).
        if (std::fabs(p.w + side * (cs[axis] + side * 0.2f)) < 1e-5f) return true;
    }
    return false;
}

// A tank's edge gives its nodes both walls' planes and a corner all three, exactly, also to
// nodes just inside the walls' material; the middle of a face and a solid box's convex edge
// give none.
TEST(BoundaryField, ATanksEdgesAndCornersKeepTheirWallsAsPlanes) {
    const BoundaryField tank = field_of({box_body(true)});
    const Vec3 c{0.013f, -0.007f, 0.f};
    const float in = 0.2f - 0.013f;  // 0.65 spacings from the walls, inside the tank
    const std::vector<Float4> edge = crease_at(tank, c + Vec3{-in, -in, 0.05f});
    ASSERT_EQ(edge.size(), 2u);
    EXPECT_TRUE(holds_wall(edge, 0, -1.f));
    EXPECT_TRUE(holds_wall(edge, 1, -1.f));
    const std::vector<Float4> corner = crease_at(tank, c + Vec3{in, -in, in});
    ASSERT_EQ(corner.size(), 3u);
    EXPECT_TRUE(holds_wall(corner, 0, 1.f));
    EXPECT_TRUE(holds_wall(corner, 1, -1.f));
    EXPECT_TRUE(holds_wall(corner, 2, 1.f));
    // Half a spacing into the floor's and the wall's material, beside the edge.
    const float out = 0.2f + 0.009f;
    const std::vector<Float4> wall = crease_at(tank, c + Vec3{-out, -out, -0.03f});
    ASSERT_EQ(wall.size(), 2u);
    EXPECT_TRUE(holds_wall(wall, 0, -1.f));
    EXPECT_TRUE(holds_wall(wall, 1, -1.f));
    EXPECT_TRUE(crease_at(tank, c + Vec3{0.f, -in, 0.f}).empty());  // one wall: no crease
    const BoundaryField solid = field_of({box_body(false)});
    EXPECT_TRUE(crease_at(solid, c + Vec3{0.21f, 0.21f, 0.f}).empty());
}

TEST(BoundaryField, AnOpenCurvedMeshHasNoLiquidSide) {
    Body bowl;
    bowl.shape = BodyShape::Mesh;
    bowl.file = "bowl.stl";
    bowl.mesh = testing::icosphere(1, 0.2f);
    // Half the sphere: the triangles below its equator.
    std::vector<std::array<uint32_t, 3>> lower;
    for (const auto& t : bowl.mesh.triangles)
        if (bowl.mesh.vertices[t[0]].y + bowl.mesh.vertices[t[1]].y + bowl.mesh.vertices[t[2]].y <
            0.f)
            lower.push_back(t);
    bowl.mesh.triangles = lower;
    const SceneGeometry g = place_bodies({bowl}, kDomain);
    EXPECT_EQ(g.sides[0], LiquidSide::None);
    const std::string why = sph_sides_unsupported(g);
    EXPECT_NE(why.find("geometry[0] (mesh bowl.stl)"), std::string::npos) << why;
    EXPECT_NE(why.find("open"), std::string::npos) << why;
    EXPECT_THROW(boundary_field(g, kDomain, kSpacing, kBand), Error);
}

TEST(BoundaryField, ALatticeTooLargeIsRefusedWithItsSize) {
    try {
        field_lattice(kDomain, 1e-4f);
        FAIL() << "a 10,001³ lattice was accepted";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("10001 x 10001 x 10001"), std::string::npos) << what;
        EXPECT_NE(what.find("GiB"), std::string::npos) << what;
    }
    const FieldLattice ok = field_lattice(kDomain, kSpacing);
    EXPECT_EQ(ok.nx, 51u);
    EXPECT_EQ(ok.nodes(), 51u * 51u * 51u);
}

}  // namespace
}  // namespace plab::sim
