#pragma once
// The frictional contact law's state of single particles (sim/physics/friction_record.h) as rows
// of bytes that travel with the particles between ranks: every array's entries of one particle
// in for_each_friction_array's order, the remembered partners by global id. A rank turns the
// rows of its particles and halo into the record its simulator restarts from (partners by the
// simulator's own ids) and the record it captures back into rows.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/physics/friction_record.h"

namespace plab::sim {

// Bytes of one particle's row.
std::size_t friction_row_bytes();

// Appends particle i's row of `record` (complete for its particles), each remembered partner p
// written as to_global(p).
void append_friction_row(std::vector<std::byte>& rows, const FrictionRecord& record, std::size_t i,
                         const std::function<uint32_t(uint32_t)>& to_global);
// Appends the row of a particle the law has not touched: no rotation, every slot free.
void append_resting_friction_row(std::vector<std::byte>& rows);

// The record of particles whose rows are rows[k] (friction_row_bytes() each), in that order;
// a remembered partner p becomes to_local(p), and a slot whose partner is not among them
// (to_local gives kFreeSlot) is freed: such a partner is out of reach of the particle, so the
// step would open that contact anyway.
FrictionRecord friction_record_of(const std::vector<const std::byte*>& rows,
                                  const std::function<uint32_t(uint32_t)>& to_local);

}  // namespace plab::sim
