// libFuzzer target: the `bench --sweep` parser. Each line of the input is one --sweep axis
// ("key=v1,v2,..."); the axes are parsed and expanded over the default bench configuration as
// `bench` does before it measures anything. Any input is either expanded or refused with
// plab::Error, and an expansion never holds more than kMaxSweepPoints points.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "app/lab/sweep.h"
#include "sim/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<plab::app::SweepAxis> axes;
    try {
        for (std::size_t start = 0; start <= text.size();) {
            std::size_t end = text.find('\n', start);
            if (end == std::string_view::npos) end = text.size();
            axes.push_back(plab::app::parse_sweep_axis(text.substr(start, end - start)));
            start = end + 1;
        }
        const auto points = plab::app::expand_sweep(plab::app::BenchConfig{}, axes);
        if (points.size() > plab::app::kMaxSweepPoints) std::abort();
    } catch (const plab::Error&) {
    }
    return 0;
}
