#pragma once
// One exception type for every failure the app reports: it carries the failed call or the
// rule that was broken, with file and line, and is caught at the app's edge.
#include <stdexcept>
#include <string>

namespace plab {

class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_error(const std::string& what, const char* file, int line);

}  // namespace plab

// Throws plab::Error with the message and the location when the condition is false.
#define PLAB_REQUIRE(cond, msg)                                      \
    do {                                                             \
        if (!(cond)) ::plab::throw_error((msg), __FILE__, __LINE__); \
    } while (0)
