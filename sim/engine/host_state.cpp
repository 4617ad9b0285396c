#include "sim/engine/host_state.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "sim/model/sph_constants.h"
#include "sim/physics/stats_body.h"

namespace plab::sim {

Snapshot to_id_order(std::span<const Float4> pos, std::span<const Float4> vel,
                     std::span<const uint32_t> id) {
    Snapshot s;
    s.pos.resize(pos.size());
    s.vel.resize(vel.size());
    for (std::size_t i = 0; i < id.size(); ++i) {
        PLAB_REQUIRE(id[i] < pos.size(), "particle id out of range in download");
        s.pos[id[i]] = pos[i];
        s.vel[id[i]] = vel[i];
    }
    return s;
}

void check_captured_state(const InitialState& initial) {
    const std::size_t n = initial.pos.size();
    // By id, so it needs no memory order.
    if (const std::string why = friction_record_problem(initial.friction, n); !why.empty())
        throw Error(why);
    const bool hi = !initial.pos_hi.empty() || !initial.vel_hi.empty();
    if (initial.order.empty()) {
        PLAB_REQUIRE(!hi, "a double-precision state needs its memory order");
        return;
    }
    PLAB_REQUIRE(initial.order.size() == n, "the memory order has " +
                                                std::to_string(initial.order.size()) +
                                                " entries for " + std::to_string(n) + " particles");
    std::vector<bool> seen(n, false);
    for (const uint32_t id : initial.order) {
        PLAB_REQUIRE(id < n && !seen[id], "the memory order is not a permutation of the ids");
        seen[id] = true;
    }
    PLAB_REQUIRE(!hi || (initial.pos_hi.size() == n && initial.vel_hi.size() == n),
                 "the double-precision state does not hold every particle");
}

SimStats compute_stats(std::span<const Float4> pos, std::span<const Float4> vel, float mass,
                       bool with_density) {
    SimStats st;
    st.count = pos.size();
    double max_speed2 = 0, density_sum = 0;
    float density_min = INFINITY, density_max = 0;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const ParticleStat s = particle_stat(pos[i], vel[i], mass);
        if (!s.finite) {
            ++st.non_finite;
            continue;
        }
        if (s.speed2 > max_speed2) max_speed2 = s.speed2;
        st.kinetic_energy += s.kinetic_energy;
        density_min = std::fmin(density_min, s.density);
        density_max = std::fmax(density_max, s.density);
        density_sum += s.density;
    }
    st.max_speed = static_cast<float>(std::sqrt(max_speed2));
    const std::size_t finite = st.count - st.non_finite;
    if (with_density && finite > 0) {
        st.density_min = density_min;
        st.density_max = density_max;
        st.density_mean = density_sum / double(finite);
    }
    return st;
}

std::string geometry_unsupported(const SceneGeometry* geometry, const Params& params) {
    if (!geometry || geometry->empty()) return {};
    if (params.model == Model::Sph) return sph_sides_unsupported(*geometry);
    return {};
}

void require_same_bodies(const SceneGeometry* running, const SceneGeometry& next) {
    PLAB_REQUIRE(running && !running->empty(), "the scene has no bodies to move");
    PLAB_REQUIRE(next.triangles.size() == running->triangles.size() &&
                     next.bodies.size() == running->bodies.size(),
                 "new body motions must keep the running bodies and their triangles");
    // The new geometry is a copy of the running one: the same triangles to the bit.
    PLAB_REQUIRE(
        next.triangles.empty() || std::memcmp(next.triangles.data(), running->triangles.data(),
                                              next.triangles.size() * sizeof(GeoTriangle)) == 0,
        "new body motions must keep the triangles where they are");
    for (const GeoBody& b : next.bodies)
        PLAB_REQUIRE(
            std::isfinite(b.velocity.x + b.velocity.y + b.velocity.z + b.omega.x + b.omega.y +
                          b.omega.z + b.spin_center.x + b.spin_center.y + b.spin_center.z),
            "a body's motion is not finite");
}

BodiesBuildKey bodies_build_key(const InitialState& initial, const Params& params) {
    return bodies_build_key(initial.geometry.get(), initial.domain, initial.grid, params);
}

BodiesBuildKey bodies_build_key(const SceneGeometry* geometry, const Domain& domain,
                                const GridSpec& grid, const Params& params) {
    BodiesBuildKey k;
    k.geometry = geometry;
    k.domain = domain;
    k.grid = grid;
    k.model = params.model;
    k.reach = geometry_reach(params);
    k.h = params.smoothing * 2.f * params.radius;
    return k;
}

bool operator==(const BodiesBuildKey& a, const BodiesBuildKey& b) {
    auto same3 = [](Vec3 u, Vec3 v) { return u.x == v.x && u.y == v.y && u.z == v.z; };
    const GridSpec &g = a.grid, &o = b.grid;
    return a.geometry == b.geometry && same3(a.domain.min, b.domain.min) &&
           same3(a.domain.max, b.domain.max) && same3(g.origin, o.origin) &&
           g.cell_size == o.cell_size && g.dim_x == o.dim_x && g.dim_y == o.dim_y &&
           g.dim_z == o.dim_z && g.reach == o.reach && a.model == b.model && a.reach == b.reach &&
           a.h == b.h;
}

float geometry_reach(const Params& params) { return 0.5f * interaction_range(params); }

BoundaryField sph_body_field(const SceneGeometry* geometry, const Domain& domain,
                             const Params& params) {
    if (!geometry || geometry->empty() || params.model != Model::Sph) return {};
    const float h = sph_constants(params).h;
    return boundary_field(*geometry, domain, h, 4.f * h);
}

}  // namespace plab::sim
