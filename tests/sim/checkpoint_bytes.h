#pragma once
// Reading checkpoint bytes in tests: read them as a file named x.plab, take the reader's
// message, and reseal a deliberately changed file so that it gets past the checksum.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "sim/core/error.h"
#include "sim/io/checkpoint.h"
#include "support/error_of.h"

namespace plab::sim::testing {

inline Checkpoint read(const std::string& bytes) {
    return read_checkpoint(std::as_bytes(std::span(bytes.data(), bytes.size())), "x.plab");
}

// The message read() throws, "" when it reads.
inline std::string error_of(const std::string& bytes) {
    return test::error_of([&] { read(bytes); });
}

// Rewrites the trailing checksum.
inline void reseal(std::string& bytes) {
    const std::uint64_t h =
        checkpoint_checksum(std::as_bytes(std::span(bytes.data(), bytes.size() - 8)));
    std::memcpy(bytes.data() + bytes.size() - 8, &h, 8);
}

}  // namespace plab::sim::testing
