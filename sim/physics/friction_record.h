#pragma once
// The frictional contact law's state by particle id (sim/physics/dem_frictional_step.h) as a
// captured state carries it (InitialState::friction, checkpoints): everything the next frictional
// step reads besides the particles. By id, so it does not depend on the memory order. Empty when
// the law has not run since the reset: a restore then starts it from zero rotation and no
// remembered contacts, as a fresh scene does.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/core/vec.h"
#include "sim/physics/dem_frictional_step.h"

namespace plab::sim {

struct FrictionRecord {
    std::vector<Float4> omega;           // n, rad/s
    std::vector<ContactSlot> contacts;   // n × kContactSlots
    std::vector<Float4> rolling;         // n × kContactSlots, the slots' rolling torques, N·m
    std::vector<Float4> wall_xi;         // n × 3 (x, y, z walls): wall_memory
    std::vector<Float4> collider_xi;     // n, m
    std::vector<Float4> plate_xi;        // n, m
    std::vector<uint32_t> contact_info;  // n, the last step's contacts (FrictionBuffers)
    std::vector<Float4> mesh_xi;         // n × kMeshSlots, the geometry bodies' contacts

    bool empty() const { return omega.empty(); }
};

// The pass's contact memory (one ContactMemory a particle) as a record's arrays (kContactSlots
// entries a particle, in slot order): each slot's `read(memory, k)`.
template <typename Read>
auto per_slot(const std::vector<ContactMemory>& memory, Read&& read) {
    std::vector<decltype(read(memory.front(), 0))> out;
    out.reserve(memory.size() * kContactSlots);
    for (const ContactMemory& m : memory)
        for (int k = 0; k < kContactSlots; ++k) out.push_back(read(m, k));
    return out;
}
// The slots (partner and stretch) and the slots' rolling torques, and back.
inline std::vector<ContactSlot> slots_of(const std::vector<ContactMemory>& memory) {
    return per_slot(memory, [](const ContactMemory& m, int k) { return m.slot(k); });
}
inline std::vector<Float4> rolling_of(const std::vector<ContactMemory>& memory) {
    return per_slot(memory, [](const ContactMemory& m, int k) { return m.rolling(k); });
}
// `rolling` holds as many entries as `slots` (fill_absent_friction_arrays).
inline std::vector<ContactMemory> memory_of(const std::vector<ContactSlot>& slots,
                                            const std::vector<Float4>& rolling) {
    std::vector<ContactMemory> memory(slots.size() / kContactSlots);
    for (std::size_t i = 0; i < memory.size(); ++i)
        for (int k = 0; k < kContactSlots; ++k)
            memory[i].set(k, slots[i * kContactSlots + k], rolling[i * kContactSlots + k]);
    return memory;
}

// Visits every array of a record as f(name, vector, entries per particle), in the order the
// checkpoint writes them. An array the state gains is one line here (and its member above):
// the checkpoint's section and the checks follow this list; the backends copy each array by
// name (FrictionState::capture/restore, DeviceFrictionState::capture/restore), one line each.
template <typename Record, typename F>
void for_each_friction_array(Record& r, F&& f) {
    f("omega", r.omega, std::size_t{1});
    f("contacts", r.contacts, std::size_t(kContactSlots));
    f("rolling", r.rolling, std::size_t(kContactSlots));
    f("wall_xi", r.wall_xi, std::size_t{3});
    f("collider_xi", r.collider_xi, std::size_t{1});
    f("plate_xi", r.plate_xi, std::size_t{1});
    f("contact_info", r.contact_info, std::size_t{1});
    f("mesh_xi", r.mesh_xi, std::size_t(kMeshSlots));
}

// Why `r` cannot be the state of `count` particles ("" when it can): it must be empty, or hold
// each array for `count` particles or not at all (an absent array, e.g. one a file written
// before it existed lacks, is restored as its default: zero, or free contact slots), and every
// remembered partner must be a particle id.
inline std::string friction_record_problem(const FrictionRecord& r, std::size_t count) {
    if (r.empty()) {
        std::string extra;
        for_each_friction_array(r, [&](const char* name, const auto& v, std::size_t) {
            if (!v.empty() && extra.empty()) extra = name;
        });
        return extra.empty() ? "" : "the frictional state has '" + extra + "' but no rotations";
    }
    std::string problem;
    for_each_friction_array(r, [&](const char* name, const auto& v, std::size_t per) {
        if (problem.empty() && !v.empty() && v.size() != count * per)
            problem = "the frictional state's '" + std::string(name) + "' holds " +
                      std::to_string(v.size()) + " entries; " + std::to_string(count) +
                      " particles need " + std::to_string(count * per);
    });
    if (!problem.empty()) return problem;
    for (const ContactSlot& s : r.contacts)
        if (s.partner != kFreeSlot && s.partner >= count)
            return "the frictional state remembers a contact with particle " +
                   std::to_string(s.partner) + " of " + std::to_string(count);
    return "";
}

// The contact_info words a record without them implies: each particle's occupied slots as
// its contacts, and the bodies of infinite mass whose memory is not zero as touched. The pass
// reads a particle's slots and a body's memory only when the word says so.
inline std::vector<uint32_t> implied_contact_info(const FrictionRecord& r, std::size_t count) {
    std::vector<uint32_t> info(count, 0u);
    auto held = [](const Float4& m) {
        return m.x != 0.f || m.y != 0.f || m.z != 0.f || m.w != 0.f;
    };
    for (std::size_t i = 0; i < count; ++i) {
        uint32_t slots = 0, touched = 0;
        if (r.contacts.size() == count * kContactSlots)
            for (int k = 0; k < kContactSlots; ++k)
                slots += r.contacts[i * kContactSlots + k].partner != kFreeSlot ? 1u : 0u;
        if (r.wall_xi.size() == count * 3)
            for (int axis = 0; axis < 3; ++axis)
                if (held(r.wall_xi[i * 3 + axis])) touched |= kTouchWallX << axis;
        if (r.collider_xi.size() == count && held(r.collider_xi[i])) touched |= kTouchCollider;
        if (r.plate_xi.size() == count && held(r.plate_xi[i])) touched |= kTouchPlate;
        if (r.mesh_xi.size() == count * kMeshSlots)
            for (int k = 0; k < kMeshSlots; ++k)
                if (held(r.mesh_xi[i * kMeshSlots + k])) touched |= kTouchMesh;
        const uint32_t bodies = static_cast<uint32_t>(std::popcount(touched));
        info[i] = contact_word(slots + bodies, 0, touched, false);
    }
    return info;
}

// Fills each absent array of a non-empty record with its default for `count` particles;
// absent contact_info words are implied by the memory (implied_contact_info).
inline void fill_absent_friction_arrays(FrictionRecord& r, std::size_t count) {
    if (r.contact_info.empty()) r.contact_info = implied_contact_info(r, count);
    for_each_friction_array(r, [&](const char*, auto& v, std::size_t per) {
        if (v.empty()) v.assign(count * per, typename std::decay_t<decltype(v)>::value_type{});
    });
}

// The frictional state by particle id, read back for tests and reports (empty before the law
// first runs): rotations (rad/s), contact_info (FrictionBuffers) and kContactSlots slots each.
struct FrictionSnapshot {
    std::vector<Float4> omega;
    std::vector<uint32_t> contact_info;
    std::vector<ContactSlot> contacts;
};

}  // namespace plab::sim
