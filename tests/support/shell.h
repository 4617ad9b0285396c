#pragma once
// Shell commands from tests: is a tool installed, and what did a command print and return.
#include <filesystem>
#include <string>

namespace plab::test {

// Whether `tool` is found on PATH.
bool on_path(const std::string& tool);

// The shell command's exit code, or -1 when it did not exit normally.
int run_command(const std::string& command);

// A finished command: its exit code (-1 when it did not exit normally) and its output.
struct CommandOutput {
    int code = -1;
    std::string output;
    bool succeeded() const { return code == 0; }
};

// Runs the shell command with stdout and stderr into `log`, then reads the log back.
CommandOutput run_logged(const std::string& command, const std::filesystem::path& log);

}  // namespace plab::test
