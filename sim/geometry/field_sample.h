#pragma once
// Reading the bodies' distance field (geometry_view.h, FieldView) at any point: trilinear
// interpolation of the eight nodes around it, distance and direction together (one 16-byte
// load per node). Points outside the lattice read its nearest border cell, extrapolated: the
// lattice covers the whole domain, and the walls keep the particles inside it.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/geometry/geometry_view.h"

namespace plab::sim {

// Cell index and fraction along one axis of n ≥ 2 nodes.
PLAB_HD inline uint32_t field_cell(float g, uint32_t n, float& frac) {
    const float last = static_cast<float>(n - 2);
    const float cell = g < 0.f ? 0.f : (g > last ? last : floorf(g));
    frac = g - cell;
    return static_cast<uint32_t>(cell);
}

// The index of the node nearest `pos` (clamped to the lattice).
PLAB_HD inline uint64_t field_nearest_node(const FieldView& f, Vec3 pos) {
    const Vec3 g = (pos - f.origin) * f.inv_spacing;
    auto axis = [](float x, uint32_t n) {
        const float r = floorf(x + 0.5f);
        return static_cast<uint64_t>(r < 0.f ? 0.f : (r > float(n - 1) ? float(n - 1) : r));
    };
    return (axis(g.z, f.nz) * f.ny + axis(g.y, f.ny)) * f.nx + axis(g.x, f.nx);
}

// (n, d) at `pos`, with n as interpolated (not of unit length; 0 far from every body).
PLAB_HD inline Float4 sample_field(const FieldView& f, Vec3 pos) {
    float fx, fy, fz;
    const Vec3 g = (pos - f.origin) * f.inv_spacing;
    const uint32_t i = field_cell(g.x, f.nx, fx), j = field_cell(g.y, f.ny, fy),
                   k = field_cell(g.z, f.nz, fz);
    const Float4* base = f.nodes + (static_cast<uint64_t>(k) * f.ny + j) * f.nx + i;
    const uint64_t row = f.nx, slab = static_cast<uint64_t>(f.nx) * f.ny;
    Float4 out{};
    PLAB_UNROLL
    for (int c = 0; c < 8; ++c) {
        const float w = (c & 1 ? fx : 1.f - fx) * (c & 2 ? fy : 1.f - fy) * (c & 4 ? fz : 1.f - fz);
        const Float4 v = base[(c & 1) + (c & 2 ? row : 0) + (c & 4 ? slab : 0)];
        out.x += w * v.x;
        out.y += w * v.y;
        out.z += w * v.z;
        out.w += w * v.w;
    }
    return out;
}

}  // namespace plab::sim
