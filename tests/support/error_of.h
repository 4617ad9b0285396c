#pragma once
// The message of the plab::Error that a call throws, for the tests of refused input.
#include <string>
#include <utility>

#include "sim/core/error.h"

namespace plab::test {

// What `f()` throws as plab::Error; "" when it throws nothing. Any other exception passes
// through and fails the test.
template <typename F>
std::string error_of(F&& f) {
    try {
        std::forward<F>(f)();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace plab::test
