#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace plab::test {
namespace {

// "Suite/Param.Name/0" -> "Suite_Param_Name_0": a file name on every system, short enough
// for NAME_MAX with its prefix and suffix.
std::string running_test_stem() {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    if (!info) return "test";
    std::string stem = std::string(info->test_suite_name()) + "_" + info->name();
    for (char& c : stem)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    if (stem.size() > 120) stem.resize(120);
    return stem;
}

}  // namespace

TempDir::TempDir() : TempDir(running_test_stem()) {}

TempDir::TempDir(const std::string& stem) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("plab_" + stem + "_XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        throw std::runtime_error("mkdtemp " + pattern + ": " + std::strerror(errno));
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
    if (ec)
        std::fprintf(stderr, "TempDir: cannot remove %s: %s\n", path_.c_str(),
                     ec.message().c_str());
}

}  // namespace plab::test
