#pragma once
// Ending long runs cleanly on SIGINT (Ctrl-C) and SIGTERM. The handler only records the
// signal (async-signal-safe); the loops of the window, bench, sweeps, export and validate poll
// interrupted(), finish what they write, say what was kept and exit with 128 + the signal's
// number (130 for SIGINT, 143 for SIGTERM). A second signal ends the process at once, with the
// default action, for the stretch of a run that does not poll (building a large scene).
#include <memory>
#include <string>
#include <string_view>

#include "sim/core/error.h"

namespace plab::app {

// Installs the handlers for its lifetime and restores the previous ones after; clears the
// record of earlier signals. A signal that was ignored when it was installed (`nohup`, a
// background job of a shell script) stays ignored.
class InterruptHandler {
  public:
    InterruptHandler();
    ~InterruptHandler();
    InterruptHandler(const InterruptHandler&) = delete;
    InterruptHandler& operator=(const InterruptHandler&) = delete;

  private:
    struct Saved;  // the handlers it replaced
    std::unique_ptr<Saved> saved_;
};

// True once SIGINT or SIGTERM arrived while an InterruptHandler was installed.
bool interrupted();
// "SIGINT" or "SIGTERM" (empty when none arrived).
std::string interrupt_name();
// 128 + the signal's number (0 when none arrived).
int interrupt_exit_code();

// Thrown by a loop that stops on a signal; the command prints its message and exits with
// exit_code(). Derives from plab::Error, so a `catch (const Error&)` that turns errors into
// messages must let it through first.
class Interrupted : public Error {
  public:
    explicit Interrupted(const std::string& what) : Error(what) {}
    int exit_code() const { return interrupt_exit_code(); }
};

// Throws Interrupted("interrupted by <signal> <where>") when a signal arrived.
void throw_if_interrupted(std::string_view where);

}  // namespace plab::app
