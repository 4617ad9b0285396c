#pragma once
// The checkpoint options the window and `bench` share: `--save-every SECONDS DIR`.
#include <string>
#include <vector>

namespace plab::app {

struct SaveEvery {
    double seconds = 0;  // simulated seconds between checkpoints; 0: off
    std::string dir;     // where they go, named by step (sim::checkpoint_file_name)

    bool on() const { return seconds > 0; }
};

// The two words of --save-every (none: off). Throws plab::Error naming the flag unless
// SECONDS is a finite number of simulated seconds in [1e-9, 1e9] and DIR is not empty.
SaveEvery parse_save_every(const std::vector<std::string>& words);

// Makes the folder and checks a checkpoint can be written in it (before the work starts);
// nothing when off. Throws plab::Error naming the path.
void require_writable(const SaveEvery& every);

// The checkpoint's path for a run at `steps` steps.
std::string save_every_path(const SaveEvery& every, unsigned long long steps);

}  // namespace plab::app
