#include "app/lab/checkpoint_options.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "app/lab/output_file.h"
#include "sim/core/error.h"
#include "sim/io/checkpoint.h"

namespace plab::app {

SaveEvery parse_save_every(const std::vector<std::string>& words) {
    if (words.empty()) return {};
    PLAB_REQUIRE(words.size() == 2, "--save-every takes two words, SECONDS DIR");
    const std::string& text = words[0];
    double seconds = 0;
    const char* last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(text.data(), last, seconds);
    if (text.empty() || ec != std::errc() || end != last || !std::isfinite(seconds) ||
        seconds < 1e-9 || seconds > 1e9)
        throw Error("--save-every: '" + text +
                    "' is not a number of simulated seconds in [1e-09, 1e+09]");
    PLAB_REQUIRE(!words[1].empty(), "--save-every: the folder (DIR) is empty");
    return {seconds, words[1]};
}

void require_writable(const SaveEvery& every) {
    if (!every.on()) return;
    require_writable(std::filesystem::path(every.dir) / sim::checkpoint_file_name(0));
}

std::string save_every_path(const SaveEvery& every, unsigned long long steps) {
    return (std::filesystem::path(every.dir) / sim::checkpoint_file_name(steps)).string();
}

}  // namespace plab::app
