#pragma once
// What the frictional contact law's last step did, summed over the particles from their
// contact_info words (sim/dem_frictional_step.h): for the panel and the tests.
#include <cstddef>
#include <cstdint>
#include <span>

namespace plab::sim {

struct FrictionStats {
    bool active = false;        // the frictional law has run since the reset
    std::size_t particles = 0;  // particles with an entry
    // Contacts (with particles, walls and the collider) summed over the particles: a contact
    // between two particles counts once from each side.
    uint64_t contacts = 0;
    uint64_t sliding = 0;      // of those, at the Coulomb limit (sliding)
    std::size_t slotless = 0;  // particles with a contact that found no free memory slot
};

// contact_info: contacts in bits 0-14, sliding ones in bits 15-29, bit 31 a slotless contact.
inline FrictionStats summarize_contacts(std::span<const uint32_t> contact_info) {
    FrictionStats s;
    s.active = !contact_info.empty();
    s.particles = contact_info.size();
    for (const uint32_t info : contact_info) {
        s.contacts += info & 0x7fffu;
        s.sliding += (info >> 15) & 0x7fffu;
        s.slotless += info >> 31;
    }
    return s;
}

}  // namespace plab::sim
