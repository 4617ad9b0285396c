#pragma once
// The classic law's bead–triangle contacts a warp per cell, for the scatter form of the step.
// A thread per bead (the kick in finish_kernel) walks its cell's whole bin alone: near a finely
// cut surface (a funnel's spout: a hundred sliver triangles a bin) the few beads of a warp that
// sit by the mesh loop serially while the rest of the warp idles (5.5 of 32 lanes active, the
// kernel 7× slower with the funnel than without; docs/benchmarks.md). Here a warp takes one
// cell whose bin holds triangles, and for each bead of that cell its 32 lanes test 32 triangles
// at once, keep the touches in bin order (the first kMaxMeshTouches, as mesh_contact.h does),
// apply the rule that keeps one contact per surface a touch per lane, and one lane adds the
// contacts' forces in the order found onto the bead's summed pair force. The physics is
// mesh_contact.h's; only who does the work changes.
#include <cstdint>

#include "sim/physics/dem_step.h"
#include "sim/physics/mesh_contact.h"

namespace plab::sim::cuda {

inline constexpr uint32_t kMeshWarpsPerBlock = 4;
inline constexpr uint32_t kMeshBlock = 32 * kMeshWarpsPerBlock;

// One warp per entry of `cells` (the cells whose bins hold triangles, DeviceGeometry); the
// step's cell ranges (b.cell_start) give each cell's beads. Runs after pair_scatter_kernel:
// b.force then holds the summed pair forces, which this adds the triangles' onto.
template <Memory M>
__global__ void __launch_bounds__(kMeshBlock)
    mesh_cells_kernel(StepBuffers b, Params p, const uint32_t* cells, uint32_t cell_count) {
    // The touches of each warp's current bead (float3: shared arrays take no constructors).
    __shared__ float3 found[kMeshWarpsPerBlock][kMaxMeshTouches];
    __shared__ float dist2[kMeshWarpsPerBlock][kMaxMeshTouches];
    __shared__ uint32_t tri[kMeshWarpsPerBlock][kMaxMeshTouches];
    __shared__ float3 pushed[kMeshWarpsPerBlock][kMaxMeshTouches];
    const uint32_t w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const uint32_t warp = blockIdx.x * kMeshWarpsPerBlock + w;
    if (warp >= cell_count) return;  // the whole warp
    const GeometryView& geo = b.geometry;
    const uint32_t c = cells[warp];
    const uint32_t begin = geo.bin_start[c], end = geo.bin_start[c + 1];
    const float r2 = p.radius * p.radius;
    auto point = [&](int j) { return Vec3{found[w][j].x, found[w][j].y, found[w][j].z}; };
    auto squared = [&](int j) { return dist2[w][j]; };
    for (uint32_t i = b.cell_start[c]; i < b.cell_start[c + 1]; ++i) {
        const uint32_t s = stored_at<M>(b, i);
        const Vec3 pos = xyz(load(read_pos<M>(b) + s));
        int n = 0;
        for (uint32_t k0 = begin; k0 < end && n < kMaxMeshTouches; k0 += 32) {
            const uint32_t k = k0 + lane;
            bool touching = false;
            Vec3 q;
            float d2 = 0.f;
            uint32_t t = 0;
            if (k < end) {
                t = geo.bin_items[k];
                q = nearest_on_triangle(pos, geo.triangles[t]).point;
                d2 = length_squared(q - pos);
                touching = d2 < r2;
            }
            const unsigned hits = __ballot_sync(0xffffffffu, touching);
            const int at = n + __popc(hits & ((1u << lane) - 1u));
            if (touching && at < kMaxMeshTouches) {
                found[w][at] = make_float3(q.x, q.y, q.z);
                dist2[w][at] = d2;
                tri[w][at] = t;
            }
            n = min(n + __popc(hits), kMaxMeshTouches);
        }
        if (n == 0) continue;  // the same for every lane
        __syncwarp();
        if (lane < static_cast<uint32_t>(n)) {
            Vec3 f{};
            if (!mesh_touch_hidden(static_cast<int>(lane), n, pos, p.radius, point, squared)) {
                const Vec3 vel = xyz(load(read_vel<M>(b) + s));
                const uint32_t id = load(read_id<M>(b) + s);
                f = mesh_touch_force(pos, vel, id, point(static_cast<int>(lane)), tri[w][lane], geo,
                                     p);
            }
            pushed[w][lane] = make_float3(f.x, f.y, f.z);
        }
        __syncwarp();
        if (lane == 0) {
            Vec3 sum{};
            for (int j = 0; j < n; ++j) sum += Vec3{pushed[w][j].x, pushed[w][j].y, pushed[w][j].z};
            Float4& f = b.force[i];
            f.x += sum.x;
            f.y += sum.y;
            f.z += sum.z;
        }
        __syncwarp();  // the next bead's touches overwrite these
    }
}

}  // namespace plab::sim::cuda
