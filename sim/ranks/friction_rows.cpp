#include "sim/ranks/friction_rows.h"

#include <cstring>
#include <type_traits>

namespace plab::sim {
namespace {

template <typename T>
constexpr bool kIsSlot = std::is_same_v<std::decay_t<T>, ContactSlot>;

// Rewrites the partner of every slot among `count` slots at `at`.
void map_partners(std::byte* at, std::size_t count, const std::function<uint32_t(uint32_t)>& map) {
    for (std::size_t k = 0; k < count; ++k) {
        ContactSlot s;
        std::memcpy(&s, at + k * sizeof(ContactSlot), sizeof(ContactSlot));
        if (s.partner == kFreeSlot) continue;
        s.partner = map(s.partner);
        if (s.partner == kFreeSlot) s = ContactSlot{};
        std::memcpy(at + k * sizeof(ContactSlot), &s, sizeof(ContactSlot));
    }
}

}  // namespace

std::size_t friction_row_bytes() {
    std::size_t bytes = 0;
    FrictionRecord r;
    for_each_friction_array(r, [&](const char*, auto& v, std::size_t per) {
        bytes += per * sizeof(typename std::decay_t<decltype(v)>::value_type);
    });
    return bytes;
}

void append_friction_row(std::vector<std::byte>& rows, const FrictionRecord& record, std::size_t i,
                         const std::function<uint32_t(uint32_t)>& to_global) {
    for_each_friction_array(record, [&](const char*, const auto& v, std::size_t per) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        const auto* from = reinterpret_cast<const std::byte*>(v.data() + i * per);
        const std::size_t at = rows.size();
        rows.insert(rows.end(), from, from + per * sizeof(T));
        if constexpr (kIsSlot<T>) map_partners(rows.data() + at, per, to_global);
    });
}

void append_resting_friction_row(std::vector<std::byte>& rows) {
    FrictionRecord one;
    fill_absent_friction_arrays(one, 1);  // every array's default: zero, free slots
    append_friction_row(rows, one, 0, [](uint32_t p) { return p; });
}

FrictionRecord friction_record_of(const std::vector<const std::byte*>& rows,
                                  const std::function<uint32_t(uint32_t)>& to_local) {
    FrictionRecord r;
    const std::size_t n = rows.size();
    std::size_t offset = 0;
    for_each_friction_array(r, [&](const char*, auto& v, std::size_t per) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        v.resize(n * per);
        auto* to = reinterpret_cast<std::byte*>(v.data());
        for (std::size_t m = 0; m < n; ++m) {
            std::memcpy(to + m * per * sizeof(T), rows[m] + offset, per * sizeof(T));
            if constexpr (kIsSlot<T>) map_partners(to + m * per * sizeof(T), per, to_local);
        }
        offset += per * sizeof(T);
    });
    return r;
}

}  // namespace plab::sim
