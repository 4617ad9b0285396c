#include "support/shell.h"

#include <sys/wait.h>

#include <cstdlib>

#include "support/file_text.h"

namespace plab::test {

bool on_path(const std::string& tool) {
    return run_command("command -v '" + tool + "' >/dev/null 2>&1") == 0;
}

int run_command(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

CommandOutput run_logged(const std::string& command, const std::filesystem::path& log) {
    CommandOutput out;
    out.code = run_command(command + " >'" + log.string() + "' 2>&1");
    out.output = read_text(log);
    return out;
}

}  // namespace plab::test
