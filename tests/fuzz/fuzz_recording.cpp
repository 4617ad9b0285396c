// libFuzzer target: the recording reader (the CSV files `--record` writes and the panel and
// `bench --compare` read back). Any input is either read or refused with plab::Error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "app/lab/recording.h"
#include "sim/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const plab::app::Recording r = plab::app::parse_recording(text, "fuzz.csv");
        // What was read must write back out without trouble.
        (void)plab::app::recording_to_csv(r);
    } catch (const plab::Error&) {
    }
    return 0;
}
