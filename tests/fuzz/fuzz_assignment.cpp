// libFuzzer target: the `--set name=value` parser and the parameter checks. Each line of the
// input is one assignment; every assignment either applies or throws plab::Error and leaves
// the parameters unchanged, and whatever was accepted must still validate.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "sim/core/error.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace plab::sim;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    // The first byte picks the model, so both parameter sets are reached.
    Params p =
        (size > 0 && (data[0] & 1)) ? preset_params(Preset::Water) : preset_params(Preset::Classic);
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        const Params before = p;
        try {
            apply_assignment(p, line);
        } catch (const plab::Error&) {
            // A refused assignment must leave every parameter as it was.
            // (bytes, not ==: a NaN would never equal itself).
            if (std::memcmp(&p, &before, sizeof p) != 0) __builtin_trap();
            continue;
        }
        try {
            validate(p);
        } catch (const plab::Error&) {
            // set_param checks one range; cross-parameter rules may still refuse.
        }
    }
    return 0;
}
