#include "sim/geometry/boundary_field.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/geometry/nearest_on_triangle.h"

namespace plab::sim {
namespace {

constexpr uint32_t kNoTriangle = std::numeric_limits<uint32_t>::max();

struct Lattice {
    Vec3 origin;
    float spacing;
    uint32_t nx, ny, nz;

    // Computed once, the same way everywhere, so the row scan and the distance pass agree on
    // where a node is.
    Vec3 node(uint32_t i, uint32_t j, uint32_t k) const {
        return origin + Vec3{float(i), float(j), float(k)} * spacing;
    }
    uint64_t index(uint32_t i, uint32_t j, uint32_t k) const {
        return (uint64_t{k} * ny + j) * nx + i;
    }
    // The node range [lo, hi] along an axis of n nodes from `o` that lies within [a, b];
    // empty (lo > hi) when none does.
    void range(float a, float b, float o, uint32_t n, int64_t& lo, int64_t& hi) const {
        lo = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((a - o) / spacing)));
        hi = std::min<int64_t>(int64_t{n} - 1, static_cast<int64_t>(std::floor((b - o) / spacing)));
    }
};

// Step 1 of the top of boundary_field.h: for every node within the band, the nearest triangle
// and the offset from its nearest point. Layers of constant z go to threads; within a layer
// triangles are visited in scene order and a later one wins only when strictly nearer, so the
// answer does not depend on the thread count.
void nearest_triangles(const std::vector<GeoTriangle>& tris, const Lattice& L, float band,
                       std::vector<uint32_t>& nearest, std::vector<Vec3>& offset) {
    const uint64_t n = uint64_t{L.nx} * L.ny * L.nz;
    nearest.assign(n, kNoTriangle);
    offset.assign(n, Vec3{});
    // The triangles each z layer meets (compressed rows).
    std::vector<uint32_t> start(L.nz + 1, 0), items;
    auto z_range = [&](const GeoTriangle& t, int64_t& lo, int64_t& hi) {
        L.range(std::min({t.a.z, t.b.z, t.c.z}) - band, std::max({t.a.z, t.b.z, t.c.z}) + band,
                L.origin.z, L.nz, lo, hi);
    };
    for (const GeoTriangle& t : tris) {
        int64_t lo, hi;
        z_range(t, lo, hi);
        for (int64_t k = lo; k <= hi; ++k) ++start[k + 1];
    }
    for (uint32_t k = 0; k < L.nz; ++k) start[k + 1] += start[k];
    items.resize(start[L.nz]);
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (uint32_t ti = 0; ti < tris.size(); ++ti) {
        int64_t lo, hi;
        z_range(tris[ti], lo, hi);
        for (int64_t k = lo; k <= hi; ++k) items[fill[k]++] = ti;
    }
    const float band2 = band * band;
#pragma omp parallel for schedule(dynamic)
    for (int64_t k = 0; k < int64_t{L.nz}; ++k) {
        std::vector<float> best(uint64_t{L.nx} * L.ny, band2);
        for (uint32_t s = start[k]; s < start[k + 1]; ++s) {
            const GeoTriangle& t = tris[items[s]];
            int64_t i0, i1, j0, j1;
            L.range(std::min({t.a.x, t.b.x, t.c.x}) - band, std::max({t.a.x, t.b.x, t.c.x}) + band,
                    L.origin.x, L.nx, i0, i1);
            L.range(std::min({t.a.y, t.b.y, t.c.y}) - band, std::max({t.a.y, t.b.y, t.c.y}) + band,
                    L.origin.y, L.ny, j0, j1);
            for (int64_t j = j0; j <= j1; ++j)
                for (int64_t i = i0; i <= i1; ++i) {
                    const Vec3 x = L.node(uint32_t(i), uint32_t(j), uint32_t(k));
                    const Vec3 off = x - nearest_on_triangle(x, t).point;
                    const float d2 = length_squared(off);
                    float& b = best[uint64_t(j) * L.nx + uint64_t(i)];
                    if (!(d2 < b)) continue;  // a NaN must not win, nor lower the bar
                    b = d2;
                    const uint64_t node = L.index(uint32_t(i), uint32_t(j), uint32_t(k));
                    nearest[node] = items[s];
                    offset[node] = off;
                }
        }
    }
}

// 0 for a triangle too small for its normal to survive in float.
Vec3 unit_face_normal(const GeoTriangle& t) {
    const Vec3 n = cross(t.b - t.a, t.c - t.a);
    const float len2 = length_squared(n);
    return len2 > 0.f ? n * (1.f / std::sqrt(len2)) : Vec3{};
}

// Step 4: the crease planes of every node within a spacing of the liquid (boundary_field.h).
// A node looks from a point in the liquid: itself, or (a node inside a body's material) its
// nearest surface point a quarter spacing out, so that a node in a tank's wall beside an edge
// sees both walls as the particles next to it do. From there, slot 0 is the nearest point,
// slot 1 the nearest point in a direction more than 45° from slot 0's, slot 2 more than 45°
// from both; each kept as the plane through the point facing the probe. Slots 1 and 2 take
// only a face's own point (the probe's foot on the face, not on its rim): the rim of the
// other triangle of the same wall, or of a face across a convex edge, is no second wall.
// Slots of a node with no second face are cleared: it is in no crease.
void crease_planes(const std::vector<GeoTriangle>& tris, const Lattice& L, float band,
                   const std::vector<Float4>& nodes, std::vector<Float4>& crease) {
    const uint64_t n = nodes.size();
    crease.assign(kCreaseSlots * n, Float4{});
    std::vector<Vec3> probe(n);
    std::vector<uint8_t> looks(n, 0);
    for (uint32_t k = 0; k < L.nz; ++k)
        for (uint32_t j = 0; j < L.ny; ++j)
            for (uint32_t i = 0; i < L.nx; ++i) {
                const uint64_t node = L.index(i, j, k);
                const Float4 f = nodes[node];
                if (length_squared(xyz(f)) == 0.f || !(f.w > -L.spacing)) continue;
                const Vec3 x = L.node(i, j, k);
                probe[node] = f.w > 0.f ? x : x + xyz(f) * (0.25f * L.spacing - f.w);
                looks[node] = 1;
            }
    constexpr float kCos45 = 0.70710678f;
    constexpr float kOnFace = 0.9999f;  // the offset along the face's normal: its foot is inside
    const float band2 = band * band;
    const float reach = band + L.spacing;  // a probe lies within a spacing of its node
    for (uint32_t slot = 0; slot < kCreaseSlots; ++slot) {
#pragma omp parallel for schedule(dynamic)
        for (int64_t k = 0; k < int64_t{L.nz}; ++k) {
            std::vector<float> best(uint64_t{L.nx} * L.ny, band2);
            for (const GeoTriangle& t : tris) {
                int64_t i0, i1, j0, j1, k0, k1;
                L.range(std::min({t.a.z, t.b.z, t.c.z}) - reach,
                        std::max({t.a.z, t.b.z, t.c.z}) + reach, L.origin.z, L.nz, k0, k1);
                if (k < k0 || k > k1) continue;
                L.range(std::min({t.a.x, t.b.x, t.c.x}) - reach,
                        std::max({t.a.x, t.b.x, t.c.x}) + reach, L.origin.x, L.nx, i0, i1);
                L.range(std::min({t.a.y, t.b.y, t.c.y}) - reach,
                        std::max({t.a.y, t.b.y, t.c.y}) + reach, L.origin.y, L.ny, j0, j1);
                for (int64_t j = j0; j <= j1; ++j)
                    for (int64_t i = i0; i <= i1; ++i) {
                        const uint64_t node = L.index(uint32_t(i), uint32_t(j), uint32_t(k));
                        if (!looks[node]) continue;
                        Float4* planes = &crease[kCreaseSlots * node];
                        if (slot > 0 && length_squared(xyz(planes[slot - 1])) == 0.f) continue;
                        const Vec3 q = nearest_on_triangle(probe[node], t).point;
                        const Vec3 off = probe[node] - q;
                        const float d2 = length_squared(off);
                        float& b = best[uint64_t(j) * L.nx + uint64_t(i)];
                        if (!(d2 < b) || !(d2 > 0.f)) continue;
                        const Vec3 u = off * (1.f / std::sqrt(d2));
                        if (slot > 0 && std::fabs(dot(u, unit_face_normal(t))) < kOnFace) continue;
                        bool apart = true;
                        for (uint32_t s = 0; s < slot; ++s)
                            apart &= dot(u, xyz(planes[s])) <= kCos45;
                        if (!apart) continue;
                        b = d2;
                        planes[slot] = to_float4(u, dot(u, q));
                    }
            }
        }
    }
    for (uint64_t node = 0; node < n; ++node)
        if (length_squared(xyz(crease[kCreaseSlots * node + 1])) == 0.f)
            crease[kCreaseSlots * node] = Float4{};
}

struct P2 {
    double u, v;
};

// Twice the signed area of (a, b, p) in the (y, z) plane: > 0 with p left of a → b. Computed
// with the ends in vertex-index order, so the two triangles sharing an edge get the same
// number (of opposite sign) and a ray through the edge counts for exactly one of them.
double edge_side(P2 p, P2 a, uint32_t ia, P2 b, uint32_t ib) {
    if (ia > ib) return -edge_side(p, b, ib, a, ia);
    return (b.u - a.u) * (p.v - a.v) - (b.v - a.v) * (p.u - a.u);
}

// A point exactly on an edge belongs to the triangle whose edge (counter-clockwise) runs up
// in v, or along −u when level: of an edge's two directions exactly one owns it, so of the
// two triangles either side of it exactly one counts the crossing.
bool owns(P2 a, P2 b) { return b.v > a.v || (b.v == a.v && b.u < a.u); }

// Step 2 for one closed body: for every node whose nearest triangle is the body's, whether it
// lies inside the body's surface (an odd number of crossings below it along x).
void mark_inside(const std::vector<GeoTriangle>& tris, uint32_t body, const Lattice& L,
                 const std::vector<uint32_t>& nearest, std::vector<uint8_t>& inside) {
    std::vector<std::pair<uint64_t, double>> crossings;  // (row k·ny + j, x)
    for (const GeoTriangle& t : tris) {
        if (t.body != body) continue;
        P2 a{t.a.y, t.a.z}, b{t.b.y, t.b.z}, c{t.c.y, t.c.z};
        uint32_t ia = t.va, ib = t.vb, ic = t.vc;
        float xa = t.a.x, xb = t.b.x, xc = t.c.x;
        const double area = (b.u - a.u) * (c.v - a.v) - (b.v - a.v) * (c.u - a.u);
        if (area == 0) continue;  // edge-on to the rays: its neighbours are crossed instead
        if (area < 0) {
            std::swap(b, c);
            std::swap(ib, ic);
            std::swap(xb, xc);
        }
        int64_t j0, j1, k0, k1;
        L.range(std::min({t.a.y, t.b.y, t.c.y}), std::max({t.a.y, t.b.y, t.c.y}), L.origin.y, L.ny,
                j0, j1);
        L.range(std::min({t.a.z, t.b.z, t.c.z}), std::max({t.a.z, t.b.z, t.c.z}), L.origin.z, L.nz,
                k0, k1);
        for (int64_t k = k0; k <= k1; ++k)
            for (int64_t j = j0; j <= j1; ++j) {
                const Vec3 x = L.node(0, uint32_t(j), uint32_t(k));
                const P2 p{x.y, x.z};
                const double ea = edge_side(p, b, ib, c, ic);  // weight of a
                const double eb = edge_side(p, c, ic, a, ia);  // weight of b
                const double ec = edge_side(p, a, ia, b, ib);  // weight of c
                const bool in = (ea > 0 || (ea == 0 && owns(b, c))) &&
                                (eb > 0 || (eb == 0 && owns(c, a))) &&
                                (ec > 0 || (ec == 0 && owns(a, b)));
                if (!in) continue;
                const double x_cross = (ea * xa + eb * xb + ec * xc) / (ea + eb + ec);
                crossings.emplace_back(uint64_t(k) * L.ny + uint64_t(j), x_cross);
            }
    }
    std::sort(crossings.begin(), crossings.end());
    for (std::size_t s = 0; s < crossings.size();) {
        const uint64_t row = crossings[s].first;
        std::size_t e = s;
        while (e < crossings.size() && crossings[e].first == row) ++e;
        const auto j = uint32_t(row % L.ny), k = uint32_t(row / L.ny);
        std::size_t below = s;
        for (uint32_t i = 0; i < L.nx; ++i) {
            const double x = L.node(i, j, k).x;
            while (below < e && crossings[below].second < x) ++below;
            const uint64_t node = L.index(i, j, k);
            if (nearest[node] != kNoTriangle && tris[nearest[node]].body == body)
                inside[node] = uint8_t((below - s) & 1u);
        }
        s = e;
    }
}

}  // namespace

FieldView BoundaryField::view(const Float4* device_nodes, const Float4* device_crease) const {
    FieldView v;
    if (empty()) return v;
    v.nodes = device_nodes;
    v.crease = device_crease;
    v.origin = origin;
    v.inv_spacing = 1.f / spacing;
    v.nx = nx;
    v.ny = ny;
    v.nz = nz;
    return v;
}

FieldLattice field_lattice(const Domain& domain, float spacing) {
    PLAB_REQUIRE(std::isfinite(spacing) && spacing > 0.f, "field spacing must be positive");
    const Vec3 extent = domain.max - domain.min;
    // Nodes up to the far side (a thousandth of a spacing short of it is near enough: a point
    // there reads the last cell a little extrapolated, rather than a whole layer more).
    auto count = [&](float e) {
        return std::max(2.0, std::ceil(double(e) / spacing - 1e-3) + 1.0);
    };
    const double nx = count(extent.x), ny = count(extent.y), nz = count(extent.z);
    const double nodes = nx * ny * nz;
    if (nodes > double(kMaxFieldNodes))
        throw Error(format_numbers(
            "the bodies' distance field for SPH would take %.0f nodes (%.0f x %.0f x %.0f, "
            "%g m apart: one a smoothing length) and %.1f GiB; at most %.0f: use a coarser "
            "particle spacing or a smaller domain",
            nodes, nx, ny, nz, double(spacing),
            nodes * (1 + kCreaseSlots) * sizeof(Float4) / double(1u << 30),
            double(kMaxFieldNodes)));
    return {uint32_t(nx), uint32_t(ny), uint32_t(nz)};
}

std::string sph_sides_unsupported(const SceneGeometry& geometry) {
    const std::vector<LiquidSide> sides =
        geometry.sides.size() == geometry.bodies.size()
            ? geometry.sides
            : liquid_sides(geometry.triangles, geometry.bodies.size());
    for (std::size_t b = 0; b < sides.size(); ++b)
        if (sides[b] == LiquidSide::None)
            return (b < geometry.body_names.size() ? geometry.body_names[b]
                                                   : "body " + std::to_string(b)) +
                   ": SPH needs to know which side of a body the liquid is on, and this surface "
                   "is open (some edges do not join two triangles) and not flat; close it, or "
                   "run it with DEM";
    return {};
}

BoundaryField boundary_field(const SceneGeometry& geometry, const Domain& domain, float spacing,
                             float band) {
    if (const std::string why = sph_sides_unsupported(geometry); !why.empty()) throw Error(why);
    PLAB_REQUIRE(std::isfinite(band) && band > 0.f, "field band must be positive");
    const FieldLattice fl = field_lattice(domain, spacing);
    const Lattice L{domain.min, spacing, fl.nx, fl.ny, fl.nz};
    const std::vector<LiquidSide> sides =
        geometry.sides.size() == geometry.bodies.size()
            ? geometry.sides
            : liquid_sides(geometry.triangles, geometry.bodies.size());
    const std::vector<GeoTriangle>& tris = geometry.triangles;

    std::vector<uint32_t> nearest;
    std::vector<Vec3> offset;
    nearest_triangles(tris, L, band, nearest, offset);
    std::vector<uint8_t> inside(nearest.size(), 0);
    for (uint32_t b = 0; b < sides.size(); ++b)
        if (sides[b] == LiquidSide::Outside || sides[b] == LiquidSide::Inside)
            mark_inside(tris, b, L, nearest, inside);

    BoundaryField f;
    f.origin = L.origin;
    f.spacing = spacing;
    f.band = band;
    f.nx = L.nx;
    f.ny = L.ny;
    f.nz = L.nz;
    f.nodes.assign(nearest.size(), Float4{0.f, 0.f, 0.f, band});
    for (std::size_t node = 0; node < nearest.size(); ++node) {
        if (nearest[node] == kNoTriangle) continue;
        const GeoTriangle& t = tris[nearest[node]];
        const Vec3 off = offset[node];
        const float dist = std::sqrt(length_squared(off));
        // Triangles face the liquid (liquid_side.h), so a node on the surface itself (where
        // the offset's direction is rounding) takes its face's normal.
        const Vec3 face = unit_face_normal(t);
        bool solid = false;
        switch (sides[t.body]) {
            case LiquidSide::Outside:
                solid = inside[node] != 0;
                break;
            case LiquidSide::Inside:
                solid = inside[node] == 0;
                break;
            case LiquidSide::Facing:
                solid = dot(off, face) < 0.f;
                break;
            case LiquidSide::None:
                break;  // refused above
        }
        const Vec3 n = dist > 1e-4f * spacing ? off * ((solid ? -1.f : 1.f) / dist) : face;
        f.nodes[node] = to_float4(n, solid ? -dist : dist);
    }
    crease_planes(tris, L, band, f.nodes, f.crease);
    return f;
}

}  // namespace plab::sim
