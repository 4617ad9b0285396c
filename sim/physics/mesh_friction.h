#pragma once
// The frictional contact law (dem_friction.h) against the scene's geometry bodies, shared by
// both backends. The contacts are those of sim/physics/mesh_contact.h: one for each touch left
// after a touch on or behind a nearer one's tangent plane is dropped. Each remembers its
// tangential stretch from step to step, as a wall contact does, in one of kMeshSlots slots a
// particle keeps.
//
// What makes a touch "the same contact" as last step's: the same body, and a normal within
// kSameContactCos of the one it had. Not the same triangle: a bead rolling over a flat mesh,
// or round a drum, crosses from triangle to triangle while its contact goes on; its stretch
// must go with it. Two touches of one body in a crease have normals far apart and keep two
// slots. The normal is kept in the slot (octahedral, 8 bits a coordinate: about 1°, plenty to
// tell a crease's faces apart) and follows the contact as it turns.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/packed_vec3.h"
#include "sim/core/vec.h"
#include "sim/geometry/geometry_view.h"
#include "sim/physics/dem_friction.h"
#include "sim/physics/mesh_contact.h"

namespace plab::sim {

// Contacts with bodies a particle remembers at once: a bead in the corner of a box body
// touches three faces; a fourth slot spares a contact that opens as another closes. A contact
// beyond them runs without memory (its stretch starts from zero each step) and is counted as
// slotless, as between particles.
inline constexpr int kMeshSlots = 4;

// Last step's normal and this step's, at most about 30° apart: the same contact.
inline constexpr float kSameContactCos = 0.866f;

// The octahedron's lower half folded over its upper (and back: the fold is its own inverse).
PLAB_HD inline void octahedral_fold(float& u, float& v) {
    const float fu = (1.f - fabsf(v)) * (u >= 0.f ? 1.f : -1.f);
    const float fv = (1.f - fabsf(u)) * (v >= 0.f ? 1.f : -1.f);
    u = fu;
    v = fv;
}

// A slot's key: 0 for a free slot, else (body + 1) in the high 16 bits (the scene holds at
// most kMaxBodies, far below 2^16) and the contact's unit normal `n` in the low 16, folded onto
// an octahedron and rounded to 8 bits a coordinate.
PLAB_HD inline uint32_t mesh_key(uint32_t body, Vec3 n) {
    const float l1 = fabsf(n.x) + fabsf(n.y) + fabsf(n.z);
    float u = n.x / l1, v = n.y / l1;
    if (n.z < 0.f) octahedral_fold(u, v);
    const auto code = [](float x) {
        return static_cast<uint32_t>(fminf(fmaxf(rintf((x * 0.5f + 0.5f) * 255.f), 0.f), 255.f));
    };
    return (body + 1u) << 16 | code(u) << 8 | code(v);
}
PLAB_HD inline uint32_t mesh_key_body(uint32_t key) { return (key >> 16) - 1u; }
PLAB_HD inline Vec3 mesh_key_normal(uint32_t key) {
    const float u = static_cast<float>((key >> 8) & 0xffu) * (2.f / 255.f) - 1.f;
    const float v = static_cast<float>(key & 0xffu) * (2.f / 255.f) - 1.f;
    Vec3 n{u, v, 1.f - fabsf(u) - fabsf(v)};
    if (n.z < 0.f) octahedral_fold(n.x, n.y);
    return n * (1.f / sqrtf(length_squared(n)));
}

// Every contact of particle `a` with the scene's bodies under the frictional law `law`
// (μ_s: each body's own friction, else `law`'s, the wall friction), each passed to add(result).
// `slots` are the particle's kMeshSlots slots (stretch in x, y, z; the key's bits in w), read
// only if it touched a body last step (`touched_before`) and rewritten when it did or does.
// Counts contacts that found no free slot in `slotless`. Returns whether it touches a body.
template <typename Add>
PLAB_HD inline bool frictional_mesh_contacts(const ContactBody& a, const GeometryView& geo,
                                             Float4* slots, bool touched_before,
                                             const FrictionLaw& law, uint32_t& slotless,
                                             Add&& add) {
    Float4 memory[kMeshSlots];
    PLAB_UNROLL
    for (int k = 0; k < kMeshSlots; ++k) memory[k] = touched_before ? slots[k] : Float4{};
    uint32_t used = 0;  // bit k: slot k holds a contact of this step
    for_each_mesh_touch(a.pos, a.radius, geo, [&](Vec3 point, uint32_t t) {
        const Vec3 to_surface = point - a.pos;
        const float dist = sqrtf(length_squared(to_surface));
        const GeoTriangle& tri = geo.triangles[t];
        // A centre on the surface itself has no direction to it: the face's normal, either side.
        Vec3 n = to_surface * (dist > 0.f ? 1.f / dist : 0.f);
        if (!(dist > 1e-6f * a.radius)) {
            const Vec3 face = cross(tri.b - tri.a, tri.c - tri.a);
            n = face * (1.f / sqrtf(length_squared(face)));
        }
        const GeoBody& body = geo.bodies[tri.body];
        int slot = -1;
        PLAB_UNROLL
        for (int k = 0; k < kMeshSlots; ++k) {
            const uint32_t key = float_bits(memory[k].w);
            if (slot < 0 && !(used >> k & 1u) && key != 0u && mesh_key_body(key) == tri.body &&
                dot(mesh_key_normal(key), n) > kSameContactCos)
                slot = k;
        }
        Vec3 xi{};
        PLAB_UNROLL
        for (int k = 0; k < kMeshSlots; ++k)
            if (k == slot) xi = xyz(memory[k]);
        FrictionLaw body_law = law;
        if (body.friction >= 0.f) body_law.mu_s = body.friction;
        add(moving_body_contact(a, n, a.radius - dist, surface_velocity(body, point), body.omega,
                                xi, body_law));
        // A new contact takes a slot no contact held last step (one not yet visited this step
        // may still be touching).
        PLAB_UNROLL
        for (int k = 0; k < kMeshSlots; ++k)
            if (slot < 0 && !(used >> k & 1u) && float_bits(memory[k].w) == 0u) slot = k;
        if (slot < 0) {
            ++slotless;
            return;
        }
        used |= 1u << slot;
        const Float4 kept{xi.x, xi.y, xi.z, bits_float(mesh_key(tri.body, n))};
        PLAB_UNROLL
        for (int k = 0; k < kMeshSlots; ++k)
            if (k == slot) memory[k] = kept;
    });
    // Contacts that opened give their slots back.
    PLAB_UNROLL
    for (int k = 0; k < kMeshSlots; ++k)
        if (!(used >> k & 1u)) memory[k] = Float4{};
    if (touched_before || used != 0u) {
        PLAB_UNROLL
        for (int k = 0; k < kMeshSlots; ++k) slots[k] = memory[k];
    }
    return used != 0u;
}

}  // namespace plab::sim
