#include "app/lab/interrupt.h"

#include <signal.h>

#include <csignal>
#include <iterator>

namespace plab::app {
namespace {

// The one piece of process state a signal handler may touch (an async-signal-safe write).
volatile std::sig_atomic_t g_signal = 0;

constexpr int kSignals[] = {SIGINT, SIGTERM};

extern "C" void on_signal(int number) {
    if (g_signal != 0) {
        // A second signal: the run did not stop in time (or was asked twice); end it now.
        ::signal(number, SIG_DFL);
        ::raise(number);
        return;
    }
    g_signal = number;
}

}  // namespace

struct InterruptHandler::Saved {
    struct sigaction previous[std::size(kSignals)];
    bool installed[std::size(kSignals)] = {};
};

InterruptHandler::InterruptHandler() : saved_(std::make_unique<Saved>()) {
    g_signal = 0;
    for (std::size_t i = 0; i < std::size(kSignals); ++i) {
        struct sigaction current {};
        if (::sigaction(kSignals[i], nullptr, &current) != 0) continue;
        if (current.sa_handler == SIG_IGN) continue;  // the parent wants it ignored
        struct sigaction action {};
        action.sa_handler = on_signal;
        sigemptyset(&action.sa_mask);
        // Restarted system calls: a write interrupted by the signal completes, and the loop
        // sees the flag at its next check.
        action.sa_flags = SA_RESTART;
        saved_->installed[i] = ::sigaction(kSignals[i], &action, &saved_->previous[i]) == 0;
    }
}

InterruptHandler::~InterruptHandler() {
    for (std::size_t i = 0; i < std::size(kSignals); ++i)
        if (saved_->installed[i]) ::sigaction(kSignals[i], &saved_->previous[i], nullptr);
}

bool interrupted() { return g_signal != 0; }

std::string interrupt_name() {
    switch (g_signal) {
        case SIGINT:
            return "SIGINT";
        case SIGTERM:
            return "SIGTERM";
        default:
            return g_signal == 0 ? "" : "signal " + std::to_string(g_signal);
    }
}

int interrupt_exit_code() { return g_signal == 0 ? 0 : 128 + g_signal; }

void throw_if_interrupted(std::string_view where) {
    if (g_signal != 0)
        throw Interrupted("interrupted by " + interrupt_name() + " " + std::string(where));
}

}  // namespace plab::app
