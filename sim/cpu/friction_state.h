#pragma once
// The CPU backend's frictional state (dem_frictional_step.h): rotations and contact memory per
// particle id, and the two sums the stats report.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/vec.h"
#include "sim/physics/dem_frictional_step.h"
#include "sim/physics/friction_record.h"

namespace plab::sim {

class FrictionState {
  public:
    // Zero rotation and no remembered contacts for `count` particles.
    void reset(std::size_t count) {
        omega_.assign(count, Float4{});
        omega_next_.assign(count, Float4{});
        contacts_.assign(count, ContactMemory::free_slots());
        wall_xi_.assign(count * 3, Float4{});
        collider_xi_.assign(count, Float4{});
        plate_xi_.assign(count, Float4{});
        contact_info_.assign(count, 0u);
        mesh_xi_.assign(count * kMeshSlots, Float4{});
    }
    std::size_t size() const { return omega_.size(); }
    FrictionBuffers buffers() {
        return {omega_.data(),       omega_next_.data(), contacts_.data(),     wall_xi_.data(),
                collider_xi_.data(), plate_xi_.data(),   contact_info_.data(), mesh_xi_.data()};
    }
    // No remembered contact with any body (the bodies were replaced); the rest stays.
    void forget_mesh_contacts() { std::fill(mesh_xi_.begin(), mesh_xi_.end(), Float4{}); }
    // After a pass: the rotations it wrote become the current ones.
    void swap_rotation() { omega_.swap(omega_next_); }

    const std::vector<Float4>& omega() const { return omega_; }
    const std::vector<uint32_t>& contact_info() const { return contact_info_; }
    FrictionSnapshot snapshot() const { return {omega_, contact_info_, slots_of(contacts_)}; }

    // The state a capture carries (empty before the law first runs), and its restore: a
    // record checked by friction_record_problem, empty for zero rotation and no memory.
    FrictionRecord capture() const {
        if (omega_.empty()) return {};
        return {omega_,       slots_of(contacts_), rolling_of(contacts_), wall_xi_,
                collider_xi_, plate_xi_,           contact_info_,         mesh_xi_};
    }
    void restore(const FrictionRecord& r) {
        reset(0);
        if (r.empty()) return;
        FrictionRecord full = r;
        fill_absent_friction_arrays(full, r.omega.size());
        omega_ = std::move(full.omega);
        omega_next_.assign(omega_.size(), Float4{});
        contacts_ = memory_of(full.contacts, full.rolling);
        wall_xi_ = std::move(full.wall_xi);
        collider_xi_ = std::move(full.collider_xi);
        plate_xi_ = std::move(full.plate_xi);
        contact_info_ = std::move(full.contact_info);
        mesh_xi_ = std::move(full.mesh_xi);
    }

  private:
    std::vector<Float4> omega_, omega_next_;
    std::vector<ContactMemory> contacts_;  // by id
    std::vector<Float4> wall_xi_, collider_xi_, plate_xi_;
    std::vector<uint32_t> contact_info_;
    std::vector<Float4> mesh_xi_;  // by id, kMeshSlots each
};

}  // namespace plab::sim
