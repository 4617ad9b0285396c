// libFuzzer target: the checkpoint reader (`.plab` files for --load, bench --load and the
// panel). Half of the inputs are read as they are; the other half get the checksum their bytes
// need appended first, so the mutations reach the header, parameter and array checks behind
// the checksum instead of stopping at it. Any input is either read or refused with plab::Error.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/core/error.h"
#include "sim/io/checkpoint.h"

namespace {
// The bytes and the checksum the format ends with, little-endian.
std::vector<std::byte> with_checksum(const std::uint8_t* data, std::size_t size) {
    const auto* b = reinterpret_cast<const std::byte*>(data);
    std::vector<std::byte> out(b, b + size);
    const std::uint64_t h = plab::sim::checkpoint_checksum(out);
    for (int k = 0; k < 8; ++k) out.push_back(std::byte(static_cast<std::uint8_t>(h >> (8 * k))));
    return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    // The first byte only chooses the route, so a seed keeps its meaning under both.
    const bool add_checksum = data[0] & 1;
    ++data;
    --size;
    std::vector<std::byte> bytes;
    if (add_checksum) {
        bytes = with_checksum(data, size);
    } else {
        const auto* b = reinterpret_cast<const std::byte*>(data);
        bytes.assign(b, b + size);
    }
    try {
        const plab::sim::Checkpoint c = plab::sim::read_checkpoint(bytes, "fuzz.plab");
        // What was accepted must encode again (the arrays agree with each other).
        (void)plab::sim::encode_checkpoint(c);
    } catch (const plab::Error&) {
    }
    return 0;
}
