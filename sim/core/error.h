#pragma once
// One exception type for every failure the app reports: it carries the failed call or the
// rule that was broken, and the file and line that found it, and is caught at the app's edge.
// A broken rule (PLAB_REQUIRE: mostly input a person gave) says only the rule; its source
// location is kept apart (Error::where), for a verbose report. A failed CUDA or GL call
// (throw_error) keeps the location in its message too: the call is the report.
#include <stdexcept>
#include <string>

namespace plab {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
    Error(const std::string& what, std::string where)
        : std::runtime_error(what), where_(std::move(where)) {}
    // "file.cpp:219" of the check that threw; "" when not known (an Error made by hand, or one
    // rethrown with more context).
    const std::string& where() const { return where_; }

  private:
    std::string where_;
};

// A failed call or an internal failure: the message ends with " (file.cpp:line)".
[[noreturn]] void throw_error(const std::string& what, const char* file, int line);
// A broken rule: the message as given, the location in Error::where().
[[noreturn]] void throw_broken_rule(const std::string& what, const char* file, int line);

// Whether reports should show the source location of every error: PLAB_ERROR_LOCATIONS=1 in
// the environment (for whoever debugs the program; users do not need them).
bool error_locations_wanted();

// `e`'s message, with its location appended when error_locations_wanted() and it has one.
std::string error_report(const std::exception& e);

}  // namespace plab

// Throws plab::Error with the message (the location kept in where()) when the condition is
// false.
#define PLAB_REQUIRE(cond, msg)                                            \
    do {                                                                   \
        if (!(cond)) ::plab::throw_broken_rule((msg), __FILE__, __LINE__); \
    } while (0)
