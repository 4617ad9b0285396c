#pragma once
// Bad scene files: the error parse_scene_file gives for a JSON text read as "test.json".
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "sim/io/scene_file.h"
#include "support/error_of.h"

namespace plab::sim::testing {

// The message parsing `json` throws; "" when it parses.
inline std::string error_of(const std::string& json) {
    return test::error_of([&] { parse_scene_file(json, "test.json"); });
}

// Parsing `json` fails with a message that starts with the file's name and holds every part.
inline void expect_error(const std::string& json, std::initializer_list<const char*> parts) {
    const std::string msg = error_of(json);
    ASSERT_FALSE(msg.empty()) << "no error for " << json;
    EXPECT_EQ(msg.rfind("test.json", 0), 0u) << msg;
    for (const char* part : parts) EXPECT_NE(msg.find(part), std::string::npos) << msg;
}

}  // namespace plab::sim::testing
