// libFuzzer target: arbitrary bytes as an STL file (binary or ASCII). The reader must either
// return a mesh whose triangles index its vertices and whose coordinates are finite, or throw
// plab::Error; small meshes are then placed as a body and binned into a grid, so the placement,
// the surface checks and the bins run on whatever the reader lets through.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/core/error.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/geometry/triangle_bins.h"
#include "sim/io/stl_file.h"
#include "sim/model/grid.h"

namespace {
// Placing and binning cost time with the triangles: keep each input fast.
constexpr std::size_t kPlaceAtMost = 1000;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace plab::sim;
    try {
        const TriangleMesh mesh = read_stl(std::as_bytes(std::span(data, size)), "fuzz.stl");
        for (const auto& t : mesh.triangles)
            for (const std::uint32_t v : t)
                if (v >= mesh.vertices.size()) __builtin_trap();
        for (const Vec3& v : mesh.vertices)
            if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) __builtin_trap();
        (void)open_edge_count(mesh);
        if (mesh.triangle_count() > kPlaceAtMost) return 0;
        Body body;
        body.shape = BodyShape::Mesh;
        body.mesh = mesh;
        const Domain domain{{-1.f, -1.f, -1.f}, {1.f, 1.f, 1.f}};
        const SceneGeometry geometry = place_bodies({body}, domain);
        const GridSpec grid = make_grid(domain, 0.1f);
        const TriangleBins bins = bin_triangles(geometry.triangles, grid, 0.05f);
        if (bins.start.back() != bins.items.size()) __builtin_trap();
    } catch (const plab::Error&) {
        // A refusal with a message is the expected answer to a bad file.
    }
    return 0;
}
