#pragma once
// The per-particle body of a DEM step with the frictional contact law (dem_friction.h), for
// both backends. Beside the classic step's arrays it keeps, per particle id (so nothing moves
// when the particles are re-sorted into cell order):
//   omega / omega_next   angular velocity, rad/s (read from one, written to the other, swapped
//                        by the caller after the pass: neighbours read a particle's rotation
//                        while it is being updated)
//   contacts             one ContactMemory: kContactSlots slots of 16 B, each the slot's
//                        tangential stretch and rolling spring's torque, both from this
//                        particle's side and packed (packed_vec3.h), and the partner's id;
//                        a particle reads and rewrites only its own slots,
//                        and both copies of a contact evolve identically; a contact keeps its
//                        slot while it lasts
//   wall_xi              one Float4 per axis (a particle touches at most one wall of each
//                        pair): the stretch and the rolling spring's torque (wall_memory)
//   collider_xi          the stretch against the collider
//   plate_xi             the stretch against the silo's floor plate (sim/geometry/orifice_plate.h)
//   mesh_xi              kMeshSlots Float4 each: the contacts with the scene's geometry bodies
//                        (sim/physics/mesh_friction.h)
// A contact without a free slot is still computed, with no memory (its stretch starts from
// zero each step), and counted in `overflow` so runs can say it happened.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/packed_vec3.h"
#include "sim/core/vec.h"
#include "sim/geometry/orifice_plate.h"
#include "sim/model/bead_size.h"
#include "sim/model/params.h"
#include "sim/physics/dem_contact.h"
#include "sim/physics/dem_friction.h"
#include "sim/physics/dem_step.h"
#include "sim/physics/friction_stats.h"
#include "sim/physics/mesh_friction.h"

namespace plab::sim {

// A monodisperse packing touches at most 12 neighbours; overlapping piles rarely more.
inline constexpr int kContactSlots = 12;
inline constexpr uint32_t kFreeSlot = 0xffffffffu;

// One slot as captured states and checkpoints carry it (sim/physics/friction_record.h).
struct ContactSlot {
    float xi_x = 0, xi_y = 0, xi_z = 0;  // m, tangential stretch
    uint32_t partner = kFreeSlot;        // the other particle's id
};
static_assert(sizeof(ContactSlot) == 16, "16 B per contact slot");

// One particle's slots as the pass keeps them. Slot k is 16 B, aligned: what it remembers of
// its contact, from this particle's side, in words 0-2 (the tangential stretch, m, and the
// rolling spring's torque, N·m, dem_friction.h, each packed into 48 bits by sim/core/packed_vec3.h:
// within 2^-12 of the larger component) and the partner's id in word 3. The CUDA pass then
// reads and rewrites a contact's slot with one 16 B load and one 16 B store, where the
// twelve partners first and the 12 B states after them took three 4 B loads and three 4 B
// stores a contact (the partners' own reads go from three 16 B loads to twelve 4 B ones).
struct alignas(16) ContactMemory {
    uint32_t words[kContactSlots][4];

    // Every slot free, no stretch.
    PLAB_HD static ContactMemory free_slots() {
        ContactMemory m{};
        for (int k = 0; k < kContactSlots; ++k) m.words[k][3] = kFreeSlot;
        return m;
    }
    PLAB_HD uint32_t partner(int k) const { return words[k][3]; }
    // The slot's contact opened: its state is no longer read (slot() says zero).
    PLAB_HD void free_slot(int k) { words[k][3] = kFreeSlot; }
    // Slot k as a record carries it: a free slot has no stretch, whatever it last held.
    PLAB_HD ContactSlot slot(int k) const {
        if (partner(k) == kFreeSlot) return {};
        Vec3 xi, roll;
        load(k, xi, roll);
        return {xi.x, xi.y, xi.z, partner(k)};
    }
    // Slot k's rolling torque as a record carries it (N·m; zero for a free slot).
    PLAB_HD Float4 rolling(int k) const {
        if (partner(k) == kFreeSlot) return {};
        Vec3 xi, roll;
        load(k, xi, roll);
        return {roll.x, roll.y, roll.z, 0.f};
    }
    // Slot k from a record's slot and rolling torque.
    PLAB_HD void set(int k, const ContactSlot& s, const Float4& rolling) {
        store(k, s.partner, {s.xi_x, s.xi_y, s.xi_z}, xyz(rolling));
    }
    // Slot k's stretch and rolling torque (one 16 B load on the device).
    PLAB_HD void load(int k, Vec3& xi, Vec3& roll) const {
#ifdef __CUDA_ARCH__
        const uint4 v = reinterpret_cast<const uint4*>(words)[k];
        const uint32_t w[3] = {v.x, v.y, v.z};
        unpack_vec3_pair(w, xi, roll);
#else
        unpack_vec3_pair(words[k], xi, roll);
#endif
    }
    // Slot k given to partner `id` with this stretch and rolling torque (one 16 B store).
    PLAB_HD void store(int k, uint32_t id, Vec3 xi, Vec3 roll) {
        uint32_t w[3];
        pack_vec3_pair(xi, roll, w);
#ifdef __CUDA_ARCH__
        reinterpret_cast<uint4*>(words)[k] = make_uint4(w[0], w[1], w[2], id);
#else
        for (int c = 0; c < 3; ++c) words[k][c] = w[c];
        words[k][3] = id;
#endif
    }
};
static_assert(sizeof(ContactMemory) == kContactSlots * 16, "16 B per contact slot");

// Raw views of the frictional state; owners live in the simulators.
struct FrictionBuffers {
    const Float4* omega = nullptr;      // by id, rad/s
    Float4* omega_next = nullptr;       // by id, rad/s
    ContactMemory* contacts = nullptr;  // by id
    Float4* wall_xi = nullptr;          // by id, 3 each (x, y, z walls): wall_memory
    Float4* collider_xi = nullptr;      // by id, m
    Float4* plate_xi = nullptr;         // by id, m
    // Per id: what the last step's contacts were (contact_word, sim/physics/friction_stats.h).
    uint32_t* contact_info = nullptr;
    Float4* mesh_xi = nullptr;  // by id, kMeshSlots each: mesh_friction.h
};

// What the step needs from the parameters.
PLAB_HD inline FrictionLaw friction_law(const Params& p) {
    FrictionLaw law;
    law.k_n = p.spring;
    law.gamma_n = p.damping;
    law.k_t = p.spring * p.tangential_stiffness;
    law.gamma_t = p.damping * p.tangential_stiffness;
    law.mu_s = p.friction;
    law.mu_r = p.rolling_friction;
    law.dt = p.dt;
    law.rolling_inertia = 0.5f * sphere_inertia(p.mass, p.radius);
    return law;
}

// The sums one particle receives, and how much of its contact memory it used.
struct FrictionalSums {
    Vec3 force, torque;  // N, N·m
    uint32_t contacts = 0, sliding = 0, overflow = 0;
    uint32_t touched = 0;  // kTouch* bits of the bodies of infinite mass touched
};

// The particle's contact memory while its pass runs: the partners of its slots, kept in
// registers (the loops over them are unrolled), and which slots a contact of this step used. A
// contact keeps its slot for as long as it lasts (slots are not compacted), so a pass rewrites
// only the slots of its contacts and frees the ones whose contact opened.
struct SlotTable {
    uint32_t partner[kContactSlots];
    uint32_t touched = 0;  // bit k: slot k holds a contact of this step
};

// The partners of a particle's slots into registers.
PLAB_HD inline void load_partners(const ContactMemory& m, SlotTable& t) {
    PLAB_UNROLL
    for (int k = 0; k < kContactSlots; ++k) t.partner[k] = m.partner(k);
}

// No partner in any slot.
PLAB_HD inline void forget_partners(SlotTable& t) {
    PLAB_UNROLL
    for (int k = 0; k < kContactSlots; ++k) t.partner[k] = kFreeSlot;
}

// The slot remembering partner `id`, or -1.
PLAB_HD inline int find_slot(const SlotTable& t, uint32_t id) {
    int slot = -1;
    PLAB_UNROLL
    for (int k = 0; k < kContactSlots; ++k)
        if (t.partner[k] == id) slot = k;
    return slot;
}

// A free slot given to partner `id`, or -1 when every slot holds a contact (this step's, or
// one that has not been visited yet and may still be touching).
PLAB_HD inline int take_slot(SlotTable& t, uint32_t id) {
    int slot = -1;
    PLAB_UNROLL
    for (int k = 0; k < kContactSlots; ++k)
        if (slot < 0 && t.partner[k] == kFreeSlot) slot = k;
    PLAB_UNROLL
    for (int k = 0; k < kContactSlots; ++k)
        if (k == slot) t.partner[k] = id;
    return slot;
}

// A wall's memory in one Float4. The wall's normal is the axis, and both the stretch and the
// rolling torque lie in its plane, so each has two components: the stretch keeps its place in
// x, y, z (its normal component is zero), and the torque's two (the axis after the wall's,
// then the one after that) take the normal's lane and w. A file written before the walls had
// rolling springs holds zeros there: its springs start at zero.
PLAB_HD inline Float4 wall_memory(int axis, Vec3 xi, Vec3 roll) {
    Float4 m{xi.x, xi.y, xi.z, 0.f};
    if (axis == 0) m = {roll.y, xi.y, xi.z, roll.z};
    if (axis == 1) m = {xi.x, roll.z, xi.z, roll.x};
    if (axis == 2) m = {xi.x, xi.y, roll.x, roll.y};
    return m;
}
PLAB_HD inline void read_wall_memory(int axis, Float4 m, Vec3& xi, Vec3& roll) {
    xi = {m.x, m.y, m.z};
    roll = {};
    if (axis == 0) {
        xi.x = 0.f;
        roll = {0.f, m.x, m.w};
    }
    if (axis == 1) {
        xi.y = 0.f;
        roll = {m.w, 0.f, m.y};
    }
    if (axis == 2) {
        xi.z = 0.f;
        roll = {m.z, m.w, 0.f};
    }
}

// A contact with a body of infinite mass whose memory is one Float4 at `memory`: read only
// if the body was touched last step (`touched_before`; otherwise the contact starts from
// zero) and written only if it is touched now or was then. `contact(m)` computes the contact
// from the memory `m` and rewrites it. Returns whether the body touches now.
template <typename Contact, typename Add>
PLAB_HD inline bool remembered_contact(float delta, Float4* memory, bool touched_before,
                                       Contact&& contact, Add&& add) {
    if (delta <= 0.f) {
        if (touched_before) *memory = Float4{};
        return false;
    }
    Float4 m = touched_before ? *memory : Float4{};
    add(contact(m));
    *memory = m;
    return true;
}

// The box's wall normal to `axis` (n = ±that axis, towards the wall) touching particle a with
// overlap `delta`, remembered in wall_memory.
template <typename Add>
PLAB_HD inline bool box_wall_contact(const ContactBody& a, int axis, Vec3 n, float delta,
                                     Float4* memory, bool touched_before, const FrictionLaw& law,
                                     Add&& add) {
    auto contact = [&](Float4& m) {
        Vec3 xi, roll;
        read_wall_memory(axis, m, xi, roll);
        const ContactResult r = wall_contact(a, n, delta, xi, roll, law);
        m = wall_memory(axis, xi, roll);
        return r;
    };
    return remembered_contact(delta, memory, touched_before, contact, add);
}

// A body of infinite mass without rolling memory (the collider, the silo's plate) touching
// particle a with overlap `delta` along `n`, its stretch remembered in `stretch`.
template <typename Add>
PLAB_HD inline bool fixed_body_contact(const ContactBody& a, Vec3 n, float delta, Float4* stretch,
                                       bool touched_before, const FrictionLaw& law, Add&& add) {
    auto contact = [&](Float4& m) {
        Vec3 xi = xyz(m);
        const ContactResult r = braked_body_contact(a, n, delta, xi, law);
        m = to_float4(xi);
        return r;
    };
    return remembered_contact(delta, stretch, touched_before, contact, add);
}

// Force and torque on the particle at cell-order position i (sorted memory) from every
// candidate `candidates(visit)` offers, the walls of `d`, the collider and, with kBodies, the
// scene's geometry bodies; rewrites its contact slots. Reads neighbours from S and rotations
// from f.omega. kBodies false leaves the bodies' code out of a CUDA kernel for runs without
// any (its registers are capped: the unused code cost a run without bodies 2.7%, H200, 1M).
template <bool kBodies = true, typename Candidates>
PLAB_HD inline FrictionalSums frictional_particle_sums(uint32_t i, const StepBuffers& b,
                                                       const FrictionBuffers& f, const Params& p,
                                                       const Domain& d, Candidates&& candidates) {
    ContactBody a;
    const Float4 own = load(b.sorted_pos + i);
    a.pos = xyz(own);
    a.vel = xyz(load(b.sorted_vel + i));
    a.id = load(b.sorted_id + i);
    a.radius = bead_radius(own, p);
    a.omega = xyz(f.omega[a.id]);
    const float own_volume = bead_volume_ratio(own);
    const FrictionLaw law = friction_law(p);
    FrictionLaw fixed_law = law;  // against the walls, the collider and the plate
    fixed_law.mu_s = p.wall_friction;
    // The bodies do not turn: the bead's whole inertia.
    fixed_law.rolling_inertia = sphere_inertia(p.mass * own_volume, a.radius);
    const uint32_t before = f.contact_info[a.id];

    ContactMemory& mine = f.contacts[a.id];
    SlotTable table;
    // A particle that touched nothing last step holds no slot (a pass frees the slots of the
    // contacts that opened), so its 192 B of memory are not read: most of the pass's traffic
    // while beads fly free (H200, 1M glass beads falling: 354 MB of the pass's DRAM traffic
    // with no contact at all).
    if (word_contacts(before) > 0)
        load_partners(mine, table);
    else
        forget_partners(table);
    FrictionalSums sums;
    auto add = [&](const ContactResult& r) {
        sums.force += r.force;
        sums.torque += r.torque;
        ++sums.contacts;
        sums.sliding += r.sliding ? 1u : 0u;
    };

    candidates([&](uint32_t j) {
        if (j == i) return;
        ContactBody o;
        const Float4 other = load(b.sorted_pos + j);
        o.pos = xyz(other);
        o.radius = bead_radius(other, p);
        const float reach = a.radius + o.radius;
        if (length_squared(o.pos - a.pos) >= reach * reach) return;
        o.vel = xyz(load(b.sorted_vel + j));
        o.id = load(b.sorted_id + j);
        o.omega = xyz(f.omega[o.id]);
        // Beads of two sizes turn the pair's reduced inertia I_a I_b / (I_a + I_b), I_a being
        // the bead's whole inertia (fixed_law's); alike, half one's (friction_law).
        FrictionLaw pair_law = law;
        if (p.radius_spread > 0.f) {
            const float i_a = fixed_law.rolling_inertia;
            const float i_b = sphere_inertia(p.mass * bead_volume_ratio(other), o.radius);
            pair_law.rolling_inertia = i_a * i_b / (i_a + i_b);
        }
        // The stretch and rolling torque this contact had last step, if it was in memory.
        int slot = find_slot(table, o.id);
        Vec3 xi{}, roll{};
        if (slot >= 0) mine.load(slot, xi, roll);
        add(pair_contact(a, o, xi, roll, pair_law));
        if (slot < 0) slot = take_slot(table, o.id);
        if (slot < 0) {
            ++sums.overflow;
            return;
        }
        table.touched |= 1u << slot;
        mine.store(slot, o.id, xi, roll);
    });
    // Contacts that opened give their slots back.
    PLAB_UNROLL
    for (int k = 0; k < kContactSlots; ++k)
        if (table.partner[k] != kFreeSlot && !(table.touched >> k & 1u)) mine.free_slot(k);

    // Walls: one soft contact per axis, with the nearer wall of the pair.
    Float4* walls = f.wall_xi + static_cast<std::size_t>(a.id) * 3;
    PLAB_UNROLL
    for (int axis = 0; axis < 3; ++axis) {
        const float x = axis == 0 ? a.pos.x : axis == 1 ? a.pos.y : a.pos.z;
        const float lo = axis == 0 ? d.min.x : axis == 1 ? d.min.y : d.min.z;
        const float hi = axis == 0 ? d.max.x : axis == 1 ? d.max.y : d.max.z;
        const bool near_low = x - lo < hi - x;
        const float delta = a.radius - (near_low ? x - lo : hi - x);
        Vec3 n{};
        (axis == 0 ? n.x : axis == 1 ? n.y : n.z) = near_low ? -1.f : 1.f;
        const uint32_t bit = kTouchWallX << axis;  // x, y, z in a row
        if (box_wall_contact(a, axis, n, delta, walls + axis, (before & bit) != 0, fixed_law, add))
            sums.touched |= bit;
    }

    // The collider: a sphere at rest (rolling lever: the particle's radius).
    if (p.collider_radius > 0.f) {
        const Vec3 centre{p.collider_x, p.collider_y, p.collider_z};
        const Vec3 rel = centre - a.pos;
        const float dist = sqrtf(length_squared(rel));
        const float delta = dist > 0.f ? a.radius + p.collider_radius - dist : 0.f;
        if (fixed_body_contact(a, rel * (dist > 0.f ? 1.f / dist : 0.f), delta,
                               f.collider_xi + a.id, (before & kTouchCollider) != 0, fixed_law,
                               add))
            sums.touched |= kTouchCollider;
    } else if (before & kTouchCollider) {
        f.collider_xi[a.id] = Float4{};
    }

    // The silo's floor plate (sim/geometry/orifice_plate.h): at rest and of infinite mass, like the
    // collider.
    if (p.silo_floor > 0.f) {
        const PlateContact c = orifice_plate_contact(a.pos, a.radius, d.min.y + p.silo_floor,
                                                     0.5f * (d.min.x + d.max.x),
                                                     0.5f * (d.min.z + d.max.z), 0.5f * p.orifice);
        if (fixed_body_contact(a, c.n, c.delta, f.plate_xi + a.id, (before & kTouchPlate) != 0,
                               fixed_law, add))
            sums.touched |= kTouchPlate;
    } else if (before & kTouchPlate) {
        f.plate_xi[a.id] = Float4{};
    }

    // The scene's geometry bodies: each contact with its own remembered stretch.
    if constexpr (kBodies) {
        Float4* slots = f.mesh_xi + static_cast<std::size_t>(a.id) * kMeshSlots;
        if (frictional_mesh_contacts(a, b.geometry, slots, (before & kTouchMesh) != 0, fixed_law,
                                     sums.overflow, add))
            sums.touched |= kTouchMesh;
    }
    return sums;
}

// Kick (linear and angular), drift, and the walls as a safety net only: the soft wall contacts
// keep particles inside; a centre that still crosses a wall is put back on it with its normal
// velocity removed. Writes the state arrays A (position, velocity, id at i) and omega_next.
template <bool kBodies = true, typename Candidates>
PLAB_HD inline void frictional_particle_step(uint32_t i, const StepBuffers& b,
                                             const FrictionBuffers& f, const Params& p,
                                             const Domain& d, Candidates&& candidates) {
    const FrictionalSums s = frictional_particle_sums<kBodies>(i, b, f, p, d, candidates);
    const uint32_t id = load(b.sorted_id + i);
    const Float4 own = load(b.sorted_pos + i);
    const Vec3 here = xyz(own);
    // A bead of another size: its mass scales the force's kick (1 for every bead alike).
    const float volume = bead_volume_ratio(own);
    // A glued bead (a rough floor) keeps its place and does not turn; its contacts still push.
    const bool glued = p.glued_below > 0.f && here.y < d.min.y + p.glued_below;
    Vec3 vel =
        glued ? Vec3{}
              : kick(xyz(load(b.sorted_vel + i)), s.force * (1.f / volume), p) * p.global_damping;
    Vec3 pos = here + vel * p.dt;
    auto keep_inside = [](float& x, float& v, float lo, float hi) {
        if (x < lo || x > hi) {
            x = x < lo ? lo : hi;
            v = 0.f;
        }
    };
    keep_inside(pos.x, vel.x, d.min.x, d.max.x);
    keep_inside(pos.y, vel.y, d.min.y, d.max.y);
    keep_inside(pos.z, vel.z, d.min.z, d.max.z);
    b.pos[i] = Float4{pos.x, pos.y, pos.z, own.w};  // w: the bead's size (bead_size.h)
    b.vel[i] = to_float4(vel);
    b.id[i] = id;
    f.omega_next[id] = glued ? Float4{}
                             : to_float4(spin_kick(xyz(f.omega[id]), s.torque, p.mass * volume,
                                                   bead_radius(own, p), p.dt) *
                                         p.global_damping);
    f.contact_info[id] = contact_word(s.contacts, s.sliding, s.touched, s.overflow > 0);
}

}  // namespace plab::sim
