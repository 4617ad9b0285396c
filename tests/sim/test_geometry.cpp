// Scene geometry: the nearest point on a triangle and its feature, each contact counted once
// where triangles meet, the bins holding every triangle a bead can touch, the primitives'
// surfaces, and the bodies a run refuses.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <random>
#include <set>
#include <string>

#include "sim/core/error.h"
#include "sim/flat_grid.h"
#include "sim/geometry/body.h"
#include "sim/geometry/nearest_on_triangle.h"
#include "sim/geometry/outline_edges.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/geometry/triangle_bins.h"
#include "sim/physics/mesh_contact.h"
#include "support/error_of.h"

namespace plab::sim {
namespace {

const GeoTriangle kTri{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, 10, 11, 12, 0};

TEST(NearestOnTriangle, FindsTheFaceEdgeOrCornerRegion) {
    NearestOnTriangle q = nearest_on_triangle({0.2f, 0.3f, 0.5f}, kTri);
    EXPECT_EQ(q.feature, Feature::Face);
    EXPECT_NEAR(q.point.x, 0.2f, 1e-6f);
    EXPECT_NEAR(q.point.y, 0.3f, 1e-6f);
    EXPECT_NEAR(q.point.z, 0.f, 1e-6f);

    q = nearest_on_triangle({0.5f, -0.4f, 0.1f}, kTri);  // below edge a–b
    EXPECT_EQ(q.feature, Feature::Edge);
    EXPECT_EQ(q.v0, 10u);
    EXPECT_EQ(q.v1, 11u);
    EXPECT_NEAR(q.point.x, 0.5f, 1e-6f);
    EXPECT_NEAR(q.point.y, 0.f, 1e-6f);

    q = nearest_on_triangle({1.f, 1.f, 0.f}, kTri);  // beyond the hypotenuse b–c
    EXPECT_EQ(q.feature, Feature::Edge);
    EXPECT_EQ(q.v0, 11u);
    EXPECT_EQ(q.v1, 12u);
    EXPECT_NEAR(q.point.x, 0.5f, 1e-6f);
    EXPECT_NEAR(q.point.y, 0.5f, 1e-6f);

    q = nearest_on_triangle({-1.f, -2.f, 3.f}, kTri);
    EXPECT_EQ(q.feature, Feature::Corner);
    EXPECT_EQ(q.v0, 10u);
    q = nearest_on_triangle({2.f, -0.5f, 0.f}, kTri);
    EXPECT_EQ(q.feature, Feature::Corner);
    EXPECT_EQ(q.v0, 11u);
    q = nearest_on_triangle({-0.5f, 3.f, 0.f}, kTri);
    EXPECT_EQ(q.feature, Feature::Corner);
    EXPECT_EQ(q.v0, 12u);
}

TEST(NearestOnTriangle, AgreesWithDenseSamplingOfTheTriangle) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1.5f, 2.5f);
    const GeoTriangle t{{0.1f, -0.2f, 0.3f}, {1.2f, 0.4f, -0.1f}, {-0.3f, 0.9f, 0.6f}, 0, 1, 2, 0};
    for (int k = 0; k < 200; ++k) {
        const Vec3 p{u(rng), u(rng), u(rng)};
        const float d = std::sqrt(length_squared(nearest_on_triangle(p, t).point - p));
        float best = 1e30f;
        for (int i = 0; i <= 200; ++i)
            for (int j = 0; i + j <= 200; ++j) {
                const Vec3 x = t.a + (t.b - t.a) * (i / 200.f) + (t.c - t.a) * (j / 200.f);
                best = std::fmin(best, std::sqrt(length_squared(x - p)));
            }
        EXPECT_LE(d, best + 1e-5f) << "a sampled point is nearer";
        EXPECT_GE(d, best - 0.02f) << "nearer than any point of the triangle";
    }
}

// Sides of 1e-40 m: every product the region tests take underflows to 0, and an unguarded
// 0/0 put the nearest point at NaN (which then won every "nearer?" comparison in the field).
TEST(NearestOnTriangle, ATriangleTooSmallForFloatStillGivesAFinitePointOnIt) {
    const GeoTriangle tiny{{0, 0, 0}, {1e-40f, 0, 0}, {0, 1e-40f, 0}, 0, 1, 2, 0};
    for (const Vec3 p : {Vec3{0.3f, 0.f, 0.f}, Vec3{0.f, 0.3f, 0.1f}, Vec3{0.2f, 0.2f, -0.3f},
                         Vec3{-0.1f, 0.f, 0.f}, Vec3{0.f, 0.f, 0.f}}) {
        const Vec3 q = nearest_on_triangle(p, tiny).point;
        ASSERT_TRUE(std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z))
            << "from (" << p.x << ", " << p.y << ", " << p.z << ")";
        for (const float x : {q.x, q.y, q.z}) EXPECT_LE(std::fabs(x), 1e-40f);
    }
}

using testing::flat_grid;

struct Bodies {
    SceneGeometry geometry;
    TriangleBins bins;
    GeometryView view;
};

Bodies binned(const std::vector<Body>& bodies, const Domain& d, float reach) {
    Bodies b;
    b.geometry = place_bodies(bodies, d);
    const GridSpec g = make_grid(d, 2 * reach);
    b.bins = bin_triangles(b.geometry.triangles, g, reach);
    b.view = {b.geometry.triangles.data(),
              b.geometry.bodies.data(),
              b.bins.start.data(),
              b.bins.items.data(),
              uint32_t(b.geometry.triangles.size()),
              g};
    return b;
}

const Domain kBox{{-1, -1, -1}, {1, 1, 1}};

TEST(MeshContact, AFlatMeshPushesAsOnePlaneOnFacesEdgesAndCorners) {
    Body floor;
    floor.shape = BodyShape::Mesh;
    floor.mesh = flat_grid(4, 0.8f);
    const Bodies b = binned({floor}, kBox, 0.05f);
    Params p;
    p.radius = 0.05f;
    p.spring = 100.f;
    p.damping = 0.f;
    p.shear = 0.f;
    // Over a face, on an edge line, on a diagonal and exactly over an inner vertex.
    for (const Vec3 at : {Vec3{0.13f, 0.03f, 0.27f}, Vec3{0.4f, 0.03f, 0.31f},
                          Vec3{0.1f, 0.03f, 0.1f}, Vec3{0.f, 0.03f, 0.f}, Vec3{0.4f, 0.03f, 0.f}}) {
        const Vec3 f = mesh_force(at, {}, 0, b.view, p);
        EXPECT_NEAR(f.y, 100.f * 0.02f, 1e-4f) << "at x " << at.x << " z " << at.z;
        EXPECT_NEAR(f.x, 0.f, 1e-4f);
        EXPECT_NEAR(f.z, 0.f, 1e-4f);
    }
    EXPECT_EQ(length_squared(mesh_force({0.1f, 0.06f, 0.1f}, {}, 0, b.view, p)), 0.f)
        << "a bead clear of the surface";
}

TEST(MeshContact, ABeadInAConcaveCreaseFeelsBothFacesAndAtAConvexEdgeOneContact) {
    Body box;
    box.shape = BodyShape::Box;
    box.box_min = {-0.5f, -0.5f, -0.5f};
    box.box_max = {0.5f, 0.5f, 0.5f};
    const Bodies b = binned({box}, kBox, 0.05f);
    Params p;
    p.radius = 0.05f;
    p.spring = 100.f;
    p.damping = 0.f;
    p.shear = 0.f;
    // Inside, in the corner crease of the floor (y = -0.5) and the wall x = -0.5.
    Vec3 f = mesh_force({-0.47f, -0.46f, 0.1f}, {}, 0, b.view, p);
    EXPECT_NEAR(f.x, 100.f * 0.02f, 1e-4f);
    EXPECT_NEAR(f.y, 100.f * 0.01f, 1e-4f);
    // Outside, over the edge where the top face meets the face x = 0.5: one push, outward along
    // the diagonal.
    const float s = 0.03f / std::sqrt(2.f);
    f = mesh_force({0.5f + s, 0.5f + s, 0.2f}, {}, 0, b.view, p);
    EXPECT_NEAR(std::sqrt(length_squared(f)), 100.f * 0.02f, 1e-3f);
    EXPECT_NEAR(f.x, f.y, 1e-4f);
}

TEST(MeshContact, AMovingSurfaceDragsTheBead) {
    Body floor;
    floor.shape = BodyShape::Plane;
    floor.normal = {0, 1, 0};
    floor.motion.velocity = {0.5f, 0, 0};
    const Bodies b = binned({floor}, kBox, 0.05f);
    Params p;
    p.radius = 0.05f;
    p.spring = 100.f;
    p.damping = 0.f;
    p.shear = 2.f;
    const Vec3 f = mesh_force({0.3f, 0.04f, 0.2f}, {}, 0, b.view, p);
    EXPECT_NEAR(f.x, 2.f * 0.5f, 1e-4f) << "shear × the surface's sliding speed";
}

TEST(TriangleBins, EveryTriangleInReachOfABeadIsInItsCell) {
    Body mesh;
    mesh.shape = BodyShape::Cylinder;
    mesh.center = {0.1f, 0.f, -0.1f};
    mesh.axis = {0.3f, 1.f, 0.2f};
    mesh.radius = 0.6f;
    mesh.length = 1.2f;
    const float reach = 0.04f;
    const Bodies b = binned({mesh}, kBox, reach);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-0.999f, 0.999f);
    std::size_t touching = 0;
    for (int k = 0; k < 20000; ++k) {
        const Vec3 p{u(rng), u(rng), u(rng)};
        const uint32_t c = cell_index(p, b.view.grid);
        const std::set<uint32_t> listed(b.bins.items.begin() + b.bins.start[c],
                                        b.bins.items.begin() + b.bins.start[c + 1]);
        for (uint32_t t = 0; t < b.geometry.triangles.size(); ++t) {
            const Vec3 q = nearest_on_triangle(p, b.geometry.triangles[t]).point;
            if (length_squared(q - p) < reach * reach) {
                ++touching;
                EXPECT_TRUE(listed.count(t)) << "triangle " << t << " missing from cell " << c;
            }
        }
    }
    EXPECT_GT(touching, 100u) << "the sample should hit the surface";
    // Binned by their boxes alone, the long slanted side triangles would fill many more cells.
    std::size_t by_box = 0;
    const GridSpec& g = b.view.grid;
    for (const GeoTriangle& t : b.geometry.triangles) {
        const Vec3 lo{std::fmin(std::fmin(t.a.x, t.b.x), t.c.x) - reach,
                      std::fmin(std::fmin(t.a.y, t.b.y), t.c.y) - reach,
                      std::fmin(std::fmin(t.a.z, t.b.z), t.c.z) - reach};
        const Vec3 hi{std::fmax(std::fmax(t.a.x, t.b.x), t.c.x) + reach,
                      std::fmax(std::fmax(t.a.y, t.b.y), t.c.y) + reach,
                      std::fmax(std::fmax(t.a.z, t.b.z), t.c.z) + reach};
        const CellCoord c0 = cell_of(lo, g), c1 = cell_of(hi, g);
        by_box += std::size_t(c1.x - c0.x + 1) * (c1.y - c0.y + 1) * (c1.z - c0.z + 1);
    }
    EXPECT_LT(b.bins.items.size(), by_box / 2) << "of " << by_box << " cells by box";
}

TEST(TriangleBins, EachCellListsItsTrianglesInSceneOrderWhateverTheThreads) {
    // Many chunks of triangles (the binning walks them on all threads): the bins must come out
    // the same as on one thread, each cell's triangles in ascending order.
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-0.95f, 0.95f), side(-0.15f, 0.15f);
    std::vector<GeoTriangle> triangles;
    for (uint32_t i = 0; i < 3000; ++i) {
        const Vec3 a{u(rng), u(rng), u(rng)};
        triangles.push_back({a, a + Vec3{side(rng), side(rng), side(rng)},
                             a + Vec3{side(rng), side(rng), side(rng)}, 3 * i, 3 * i + 1, 3 * i + 2,
                             0});
    }
    const GridSpec g = make_grid(kBox, 0.05f);
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const TriangleBins one = bin_triangles(triangles, g, 0.025f);
    omp_set_num_threads(4);
    const TriangleBins four = bin_triangles(triangles, g, 0.025f);
    omp_set_num_threads(threads);
    EXPECT_EQ(one.start, four.start);
    EXPECT_EQ(one.items, four.items);
    ASSERT_EQ(one.start.size(), std::size_t{g.num_cells()} + 1);
    EXPECT_GT(one.items.size(), triangles.size());
    for (std::size_t c = 0; c + 1 < one.start.size(); ++c)
        for (uint32_t k = one.start[c] + 1; k < one.start[c + 1]; ++k)
            ASSERT_LT(one.items[k - 1], one.items[k]) << "cell " << c;
    // Each listed triangle comes within reach of its cell: its nearest point to the cell's
    // centre lies within half the diagonal plus the reach (a sample of cells).
    for (std::size_t c = 0; c + 1 < one.start.size(); c += 97)
        for (uint32_t k = one.start[c]; k < one.start[c + 1]; ++k) {
            const uint32_t x = uint32_t(c % g.dim_x), y = uint32_t(c / g.dim_x % g.dim_y),
                           z = uint32_t(c / (std::size_t(g.dim_x) * std::size_t(g.dim_y)));
            const Vec3 centre =
                g.origin +
                (Vec3{float(x), float(y), float(z)} + Vec3{0.5f, 0.5f, 0.5f}) * g.cell_size;
            const float within = std::sqrt(3.f) * 0.5f * g.cell_size + 0.025f;
            EXPECT_LE(std::sqrt(length_squared(
                          nearest_on_triangle(centre, triangles[one.items[k]]).point - centre)),
                      within * 1.001f);
        }
}

TEST(Body, PrimitivesAreClosedWhereTheyShouldBe) {
    Body box;
    box.shape = BodyShape::Box;
    box.box_min = {0, 0, 0};
    box.box_max = {1, 2, 3};
    const TriangleMesh bs = body_surface(box, kBox);
    EXPECT_EQ(bs.triangle_count(), 12u);
    EXPECT_EQ(open_edge_count(bs), 0u);
    EXPECT_NEAR(mesh_area(bs), 2 * (2 + 3 + 6), 1e-4);

    Body cyl;
    cyl.shape = BodyShape::Cylinder;
    cyl.radius = 0.5f;
    cyl.length = 1.f;
    const TriangleMesh cs = body_surface(cyl, kBox);
    EXPECT_EQ(open_edge_count(cs), 0u);
    EXPECT_NEAR(mesh_area(cs), 2 * M_PI * 0.5 * 1 + 2 * M_PI * 0.25, 0.01);

    Body plane;
    plane.shape = BodyShape::Plane;
    plane.point = {0, -0.5f, 0};
    plane.normal = {0, 2, 0};
    const TriangleMesh ps = body_surface(plane, kBox);
    EXPECT_EQ(ps.triangle_count(), 2u);
    for (const Vec3& v : ps.vertices) EXPECT_NEAR(v.y, -0.5f, 1e-6f);
}

TEST(Body, PlacementScalesThenRotatesThenTranslates) {
    Body box;
    box.shape = BodyShape::Box;
    box.box_min = {0, 0, 0};
    box.box_max = {1, 1, 1};
    box.scale = {2, 1, 1};
    box.rotate_deg = {0, 0, 90};
    box.translate = {0.5f, 0, 0};
    const Domain b = mesh_bounds(body_surface(box, kBox));
    // (2, 0, 0) scaled, then turned 90° about z to (0, 2, 0), then moved by 0.5 along x.
    EXPECT_NEAR(b.min.x, -0.5f, 1e-5f);
    EXPECT_NEAR(b.max.x, 0.5f, 1e-5f);
    EXPECT_NEAR(b.max.y, 2.f, 1e-5f);
}

TEST(Body, RefusesWhatCannotRunWithTheReason) {
    Body far;
    far.shape = BodyShape::Box;
    far.box_min = {5, 5, 5};
    far.box_max = {6, 6, 6};
    EXPECT_NE(test::error_of([&] {
                  place_bodies({far}, kBox);
              }).find("geometry[0] (box): placed, it spans"),
              std::string::npos);

    Body open;
    open.shape = BodyShape::Mesh;
    open.file = "sheet.stl";
    open.mesh = flat_grid(2, 0.5f);
    open.inside = true;
    const std::string why = test::error_of([&] { place_bodies({open}, kBox); });
    EXPECT_NE(why.find("geometry[0] (mesh sheet.stl)"), std::string::npos) << why;
    EXPECT_NE(why.find("8 of its edges"), std::string::npos) << why;

    Body spun;
    spun.shape = BodyShape::Box;
    spun.box_min = {-0.5f, -0.5f, -0.5f};
    spun.box_max = {0.5f, 0.5f, 0.5f};
    spun.motion.spin_rpm = 10;
    EXPECT_NE(test::error_of([&] { place_bodies({spun}, kBox); }).find("cannot move"),
              std::string::npos);

    Body drum;
    drum.shape = BodyShape::Cylinder;
    drum.axis = {0, 0, 1};
    drum.radius = 0.5f;
    drum.length = 0.5f;
    drum.inside = true;
    drum.motion.spin_axis = {0, 0, 2};
    drum.motion.spin_rpm = 30;
    EXPECT_NO_THROW(place_bodies({drum}, kBox)) << "a drum spinning about its axis";
    drum.motion.spin_axis = {0, 1, 0};
    EXPECT_NE(test::error_of([&] { place_bodies({drum}, kBox); }).find("own axis"),
              std::string::npos);
}

}  // namespace
}  // namespace plab::sim

namespace plab::sim {
namespace {

std::size_t edge_count(const std::vector<Body>& bodies, std::size_t all_edges_up_to) {
    const SceneGeometry g = place_bodies(bodies, kBox);
    return outline_edges(g, {all_edges_up_to, 20.f}).size() / 2;
}

TEST(OutlineEdges, EveryEdgeOfASmallSurfaceAndTheOutlineAndCreasesOfALargeOne) {
    Body grid;
    grid.shape = BodyShape::Mesh;
    grid.mesh = flat_grid(4, 0.8f);
    // 5 × 4 edges along x, as many along z, 16 diagonals: each once.
    EXPECT_EQ(edge_count({grid}, 4096), 56u);
    EXPECT_EQ(edge_count({grid}, 0), 16u) << "a flat sheet shows its rim";
    Body box;
    box.shape = BodyShape::Box;
    box.box_min = {-0.5f, -0.5f, -0.5f};
    box.box_max = {0.5f, 0.5f, 0.5f};
    box.rotate_deg = {10.f, 20.f, 30.f};
    EXPECT_EQ(edge_count({box}, 0), 12u) << "the faces' diagonals are flat, the 12 edges creases";
    Body drum;
    drum.shape = BodyShape::Cylinder;
    drum.radius = 0.4f;
    drum.length = 0.5f;
    EXPECT_EQ(edge_count({drum}, 0), 2u * kCylinderSides) << "the two rims, no seams";
    EXPECT_EQ(edge_count({box, drum}, 0), 12u + 2u * kCylinderSides);
}

}  // namespace
}  // namespace plab::sim
