#pragma once
// What the frictional contact law's last step did, summed over the particles from their
// contact_info words (sim/physics/dem_frictional_step.h): for the panel and the tests.
#include <cstddef>
#include <cstdint>
#include <span>

#include "sim/core/hd.h"

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

// contact_info, one word per particle id, written by the frictional pass:
//   bits 0-7    contacts in the last step (particles, walls, collider; saturates at 255)
//   bits 8-15   of those, the ones that slid (saturates at 255)
//   bits 16-23  which bodies of infinite mass it touched (kTouch*; kTouchMesh: any of the
//               scene's geometry bodies): the next step reads their
//               remembered stretch only if they were touched, and clears it when they no
//               longer are (a particle far from every wall moves no wall memory)
//   bit 31      a contact found no free memory slot (it ran without memory that step)
inline constexpr uint32_t kTouchWallX = 1u << 16, kTouchWallY = 1u << 17, kTouchWallZ = 1u << 18,
                          kTouchCollider = 1u << 19, kTouchPlate = 1u << 20, kTouchMesh = 1u << 21,
                          kSlotlessBit = 1u << 31;

PLAB_HD inline uint32_t contact_word(uint32_t contacts, uint32_t sliding, uint32_t touched,
                                     bool slotless) {
    const uint32_t c = contacts < 255u ? contacts : 255u, s = sliding < 255u ? sliding : 255u;
    return c | s << 8 | (touched & 0x00ff0000u) | (slotless ? kSlotlessBit : 0u);
}
PLAB_HD inline uint32_t word_contacts(uint32_t w) { return w & 0xffu; }
PLAB_HD inline uint32_t word_sliding(uint32_t w) { return (w >> 8) & 0xffu; }
PLAB_HD inline bool word_slotless(uint32_t w) { return (w & kSlotlessBit) != 0; }

inline FrictionStats summarize_contacts(std::span<const uint32_t> contact_info) {
    FrictionStats s;
    s.active = !contact_info.empty();
    s.particles = contact_info.size();
    for (const uint32_t info : contact_info) {
        s.contacts += word_contacts(info);
        s.sliding += word_sliding(info);
        s.slotless += word_slotless(info) ? 1 : 0;
    }
    return s;
}

}  // namespace plab::sim
