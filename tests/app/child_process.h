#pragma once
// The real binary as a child process, for the tests that signal it mid-run or time how soon it
// fails: started with its output in a file, signalled, waited for with a time limit.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace plab::test {

inline std::string file_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A child process with its output in a file.
class Child {
  public:
    // Starts argv[0] (looked up on PATH) with stdout and stderr into `log`.
    Child(const std::vector<std::string>& argv, const std::filesystem::path& log) {
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        pid_ = ::fork();
        if (pid_ == 0) {
            const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0) ::_exit(126);
            ::dup2(fd, STDOUT_FILENO);
            ::dup2(fd, STDERR_FILENO);
            ::execvp(args[0], args.data());
            ::_exit(127);
        }
    }
    ~Child() {
        if (running()) ::kill(pid_, SIGKILL);
        if (!status_) ::waitpid(pid_, nullptr, 0);
    }
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    pid_t pid() const { return pid_; }
    // False once it ended (its wait status is then kept).
    bool running() {
        int status = 0;
        if (!status_ && pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
        return !status_ && pid_ > 0;
    }
    // Its exit code once it exited within `limit`; -1 when it was killed by a signal, or did
    // not end in time (it is then killed).
    int wait(std::chrono::milliseconds limit) {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (running() && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (running()) return -1;
        return status_ && WIFEXITED(*status_) ? WEXITSTATUS(*status_) : -1;
    }

  private:
    pid_t pid_ = -1;
    std::optional<int> status_;
};

// Polls `done` every 20 ms for up to `limit`; true once it holds.
inline bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

// The hidden temporaries of app/lab/output_file.h (".<name>.<pid>.part") in `dir`.
inline std::vector<std::filesystem::path> temporaries(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> found;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().ends_with(".part")) found.push_back(it->path());
    return found;
}

// A fresh folder under the system's temporary folder, removed at the end of the test.
class TempFolder {
  public:
    explicit TempFolder(const std::string& stem) {
        std::string pattern =
            (std::filesystem::temp_directory_path() / (stem + "_XXXXXX")).string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~TempFolder() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace plab::test
