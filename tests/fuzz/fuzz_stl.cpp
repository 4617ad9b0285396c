// libFuzzer target: arbitrary bytes as a mesh file, read as STL (binary or ASCII) and as OBJ.
// Each reader must either return a mesh whose triangles index its vertices and whose
// coordinates are finite, or throw plab::Error; small meshes are then placed as a body, binned
// into a grid and given the SPH distance field, so the placement, the surface checks, the bins
// and the field run on whatever the readers let through.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

#include "sim/core/error.h"
#include "sim/geometry/boundary_field.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/geometry/triangle_bins.h"
#include "sim/io/obj_file.h"
#include "sim/io/stl_file.h"
#include "sim/model/grid.h"

namespace {
// A broken promise: say which, with the numbers, before the crash libFuzzer records.
[[noreturn]] void fail(const char* what, double a = 0, double b = 0) {
    std::fprintf(stderr, "fuzz_stl: %s (%g, %g)\n", what, a, b);
    __builtin_trap();
}
// Placing and binning cost time with the triangles: keep each input fast.
constexpr std::size_t kPlaceAtMost = 1000;
}  // namespace

void check_and_place(const plab::sim::TriangleMesh& mesh) {
    using namespace plab::sim;
    for (const auto& t : mesh.triangles)
        for (const std::uint32_t v : t)
            if (v >= mesh.vertices.size()) fail("a triangle indexes past the vertices", v);
    for (const Vec3& v : mesh.vertices)
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
            fail("a vertex is not finite");
    (void)open_edge_count(mesh);
    if (mesh.triangle_count() > kPlaceAtMost) return;
    Body body;
    body.shape = BodyShape::Mesh;
    body.mesh = mesh;
    const Domain domain{{-1.f, -1.f, -1.f}, {1.f, 1.f, 1.f}};
    const SceneGeometry geometry = place_bodies({body}, domain);
    const GridSpec grid = make_grid(domain, 0.1f);
    const TriangleBins bins = bin_triangles(geometry.triangles, grid, 0.05f);
    if (bins.start.back() != bins.items.size())
        fail("the bins' rows do not end at their items", bins.start.back(), bins.items.size());
    if (sph_sides_unsupported(geometry).empty()) {
        const BoundaryField field = boundary_field(geometry, domain, 0.1f, 0.3f);
        for (const Float4& n : field.nodes)
            if (!std::isfinite(n.x + n.y + n.z + n.w) || std::fabs(n.w) > 0.3f)
                fail("a field node is not finite or lies beyond the band", n.w,
                     double(n.x * n.x + n.y * n.y + n.z * n.z));
    }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace plab::sim;
    const auto bytes = std::as_bytes(std::span(data, size));
    try {
        check_and_place(read_stl(bytes, "fuzz.stl"));
    } catch (const plab::Error&) {
        // A refusal with a message is the expected answer to a bad file.
    }
    try {
        check_and_place(read_obj(bytes, "fuzz.obj"));
    } catch (const plab::Error&) {
    }
    return 0;
}
