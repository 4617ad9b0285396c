// Wavefront OBJ meshes: a cube of quads with texture and normal indices, comments and groups
// reads as the same closed cube the STL reader gives; negative indices count back; a scene
// names an .obj body like an .stl one; every kind of bad file is refused with the file and line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <span>
#include <string>

#include "sim/core/error.h"
#include "sim/geometry/triangle_mesh.h"
#include "sim/io/obj_file.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

TriangleMesh parse(const std::string& text) {
    return read_obj(std::as_bytes(std::span(text.data(), text.size())), "mesh.obj");
}

std::string error_of(const std::string& text) {
    try {
        parse(text);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

const std::string kCube = R"(# a unit cube of quads, as an exporter writes it
mtllib cube.mtl
o Cube
v 0 0 0
v 1 0 0
v 0 1 0
v 1 1 0
v 0 0 1
v 1 0 1
v 0 1 1
v 1 1 1 0.5 0.5 0.5
vt 0 0
vn 0 0 -1
usemtl stone
s off
g sides
f 1/1/1 3/1/1 4/1/1 2/1/1
f 5 6 8 7
f 1//1 2//1 6//1 5//1
f 3 7 8 4
f -8 -4 -2 -6
f 2 4 8 6   # the last face
)";

TEST(ObjFile, ACubeOfQuadsReadsAsAClosedMeshOfTwelveTriangles) {
    const TriangleMesh m = parse(kCube);
    EXPECT_EQ(m.vertices.size(), 8u);
    EXPECT_EQ(m.triangles.size(), 12u);
    EXPECT_EQ(open_edge_count(m), 0u);
    EXPECT_NEAR(mesh_area(m), 6.0, 1e-9);
    const Domain b = mesh_bounds(m);
    EXPECT_EQ(b.min.x, 0.f);
    EXPECT_EQ(b.max.z, 1.f);
}

TEST(ObjFile, BadFilesAreRefusedWithTheLine) {
    const std::pair<std::string, std::string> cases[] = {
        {"", "mesh.obj: empty file"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\n", "mesh.obj: the mesh holds no faces"},
        {"v 0 0 0\nv 1 0 0\nf 1 2 3\n", "mesh.obj:3: vertex index 3 names no vertex (2 so far)"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "mesh.obj:4: vertex index 0 names no vertex"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -4 1 2\n", "mesh.obj:4: vertex index -4 names no vertex"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", "mesh.obj:4: a face needs at least three corners"},
        {"v 0 zero 0\n", "mesh.obj:1: expected a number, found 'zero'"},
        {"v 0 0\n", "mesh.obj:1: a vertex needs x y z"},
        {"v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n", "mesh.obj:4: triangle 0 has no area"},
        {"v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "not a finite number"},
        {"v 0 0 1e9\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "beyond the limit"},
        {"cstype bspline\n", "mesh.obj:1: free-form geometry ('cstype') is not supported"},
        {"v 0 0 0\nbogus 1 2\n", "mesh.obj:2: unknown statement 'bogus'"},
        {"v 0 0 0 \\\n", "mesh.obj:1: a line continued with '\\' is not supported"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/x 2 3\n", "mesh.obj:4: expected a vertex index"},
    };
    for (const auto& [text, want] : cases)
        EXPECT_NE(error_of(text).find(want), std::string::npos)
            << "for:\n"
            << text << "got: " << error_of(text);
}

void write_text(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

TEST(ObjFile, MeshFilesAreReadByTheirExtension) {
    test::TempDir dir;
    const auto obj = dir / "cube.OBJ";
    write_text(obj, kCube);
    EXPECT_EQ(load_mesh(obj).triangles.size(), 12u);
    const auto other = dir / "cube.ply";
    write_text(other, kCube);
    try {
        load_mesh(other);
        FAIL() << "a .ply file was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("unknown mesh format '.ply'"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(load_mesh(dir.path() / "missing.obj"), Error);
}

}  // namespace
}  // namespace plab::sim
