// STL meshes: the binary form the project writes reads back as the same closed cube, the ASCII
// form parses with its corners welded, an open mesh counts its open edges, and every kind of
// bad file is refused with the file and the triangle or line named.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <string>

#include "sim/core/error.h"
#include "sim/geometry/triangle_mesh.h"
#include "sim/io/stl_file.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

// The unit cube [0, 1]³, two triangles a face, counter-clockwise seen from outside.
TriangleMesh unit_cube() {
    TriangleMesh m;
    for (int i = 0; i < 8; ++i)
        m.vertices.push_back({float(i & 1), float((i >> 1) & 1), float((i >> 2) & 1)});
    m.triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                   {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
    return m;
}

TriangleMesh parse(const std::string& bytes) {
    return read_stl(std::as_bytes(std::span(bytes.data(), bytes.size())), "mesh.stl");
}

std::string error_of(const std::string& bytes) {
    try {
        parse(bytes);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

const char* kTetrahedron = R"(solid tetra
  facet normal 0 0 -1
    outer loop
      vertex 0 0 0
      vertex 0 1 0
      vertex 1 0 0
    endloop
  endfacet
  facet normal 0 -1 0
    outer loop
      vertex 0 0 0
      vertex 1 0 0
      vertex 0 0 1
    endloop
  endfacet
  facet normal -1 0 0
    outer loop
      vertex 0 0 0
      vertex 0 0 1
      vertex 0 1 0
    endloop
  endfacet
  facet normal 1 1 1
    outer loop
      vertex 1 0 0
      vertex 0 1 0
      vertex 0 0 1
    endloop
  endfacet
endsolid tetra
)";

TEST(StlFile, ABinaryCubeReadsBackClosedWithSharedCorners) {
    const test::TempDir dir;
    write_stl(dir / "cube.stl", unit_cube());
    const TriangleMesh m = load_stl(dir / "cube.stl");
    EXPECT_EQ(m.triangle_count(), 12u);
    EXPECT_EQ(m.vertices.size(), 8u) << "each corner welded from the six triangles that repeat it";
    EXPECT_NEAR(mesh_area(m), 6.0, 1e-12);
    EXPECT_EQ(open_edge_count(m), 0u);
    const Domain b = mesh_bounds(m);
    EXPECT_EQ(b.min.x, 0.f);
    EXPECT_EQ(b.max.z, 1.f);
}

TEST(StlFile, AnAsciiMeshParsesAndAMissingFaceOpensIt) {
    TriangleMesh m = parse(kTetrahedron);
    EXPECT_EQ(m.triangle_count(), 4u);
    EXPECT_EQ(m.vertices.size(), 4u);
    EXPECT_EQ(open_edge_count(m), 0u);
    EXPECT_NEAR(mesh_area(m), 1.5 + std::sqrt(3.0) / 2, 1e-6);
    m.triangles.pop_back();
    EXPECT_EQ(open_edge_count(m), 3u) << "the missing face's three edges each border one face";
}

TEST(StlFile, BadFilesAreRefusedNamingTheFileAndTheTriangleOrLine) {
    EXPECT_NE(error_of("").find("mesh.stl: empty file"), std::string::npos);
    // A binary cube cut short is neither form.
    const std::string cube = encode_stl(unit_cube());
    const std::string cut = error_of(cube.substr(0, cube.size() - 7));
    EXPECT_NE(cut.find("mesh.stl: not an STL mesh"), std::string::npos) << cut;
    EXPECT_NE(cut.find("12 triangles, which take 684 bytes"), std::string::npos) << cut;

    // A corner that is not a number, one far out, a triangle without area (binary: the
    // corners of triangle 3 start at byte 84 + 3 × 50 + 12).
    std::string bad = cube;
    const float nan = std::numeric_limits<float>::quiet_NaN(), far = 1e7f;
    std::memcpy(bad.data() + 84 + 3 * 50 + 12, &nan, 4);
    EXPECT_NE(error_of(bad).find("mesh.stl: triangle 3 has a corner that is not a finite number"),
              std::string::npos)
        << error_of(bad);
    bad = cube;
    std::memcpy(bad.data() + 84 + 5 * 50 + 16, &far, 4);
    EXPECT_NE(error_of(bad).find("triangle 5 has a corner at 1e+07 m"), std::string::npos)
        << error_of(bad);
    std::string flat = kTetrahedron;
    flat.replace(flat.find("vertex 0 1 0"), 12, "vertex 0 0 0");  // a corner repeats
    EXPECT_NE(error_of(flat).find("mesh.stl: triangle 0 has no area"), std::string::npos)
        << error_of(flat);

    // ASCII errors name the line.
    std::string text = kTetrahedron;
    text.replace(text.find("endsolid"), 8, "endsolld");
    EXPECT_NE(error_of(text).find("mesh.stl:30: expected 'facet' or 'endsolid'"), std::string::npos)
        << error_of(text);
    text = kTetrahedron;
    text.replace(text.find("vertex 1 0 0"), 12, "vertex 1 x 0");
    EXPECT_NE(error_of(text).find("mesh.stl:6: expected a number, found 'x'"), std::string::npos)
        << error_of(text);
    text = std::string(kTetrahedron).substr(0, std::string(kTetrahedron).find("endsolid"));
    EXPECT_NE(error_of(text).find("the file ends without 'endsolid'"), std::string::npos)
        << error_of(text);
    EXPECT_NE(error_of("solid empty\nendsolid empty\n").find("the mesh holds no triangles"),
              std::string::npos);
}

TEST(StlFile, AFolderOrAMissingFileIsRefusedBeforeReading) {
    const test::TempDir dir;
    EXPECT_THROW(load_stl(dir.path()), Error);
    EXPECT_THROW(load_stl(dir / "missing.stl"), Error);
}

}  // namespace
}  // namespace plab::sim
