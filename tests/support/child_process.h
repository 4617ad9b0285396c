#pragma once
// The real binary as a child process, for the tests that signal it mid-run or time how soon it
// fails: started with its output in a file, signalled, waited for with a time limit.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace plab::test {

// A child process with its output in a file; killed and reaped when the object goes.
class Child {
  public:
    // Starts argv[0] (looked up on PATH) with stdout and stderr into `log`.
    Child(const std::vector<std::string>& argv, const std::filesystem::path& log);
    ~Child();
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    pid_t pid() const { return pid_; }
    // False once it ended (its wait status is then kept).
    bool running();
    // Its exit code once it exited within `limit`; -1 when it was killed by a signal, or did
    // not end in time (it is then killed).
    int wait(std::chrono::milliseconds limit);

  private:
    pid_t pid_ = -1;
    std::optional<int> status_;
};

// Polls `done` every 20 ms for up to `limit`; true once it holds.
bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit);

}  // namespace plab::test
