#pragma once
// What the render suites share: one headless EGL context per suite (only one EglContext should
// live at a time, and bringing up llvmpipe per test would only cost time), skipped with the
// reason where no EGL display can be made, and pixel helpers for read-backs.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "render/egl_context.h"
#include "sim/core/error.h"

namespace plab::render::testing {

using Rgba = std::array<int, 4>;

class EglTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        try {
            context_ = std::make_unique<EglContext>();
            std::printf("EGL: %s\nGL_RENDERER: %s\nGL_VERSION: %s\n", context_->source().c_str(),
                        context_->renderer().c_str(), context_->version().c_str());
        } catch (const EglUnavailable& e) {
            skip_reason_ = e.what();
        } catch (const Error& e) {
            failure_ = e.what();
        }
    }
    static void TearDownTestSuite() { context_.reset(); }

    void SetUp() override {
        if (!skip_reason_.empty()) GTEST_SKIP() << skip_reason_;
        ASSERT_TRUE(failure_.empty()) << "EGL context failed: " << failure_;
        ASSERT_NE(context_, nullptr);
    }

    inline static std::unique_ptr<EglContext> context_;
    inline static std::string skip_reason_;
    inline static std::string failure_;
};

// The pixel at (x, y) counted from the top row of an RGBA8 read-back `width` pixels wide.
inline Rgba pixel_at(const std::vector<std::uint8_t>& rgba, int width, int x, int y_top) {
    const std::size_t i = (static_cast<std::size_t>(y_top) * width + x) * 4;
    return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
}

inline std::string to_string(const Rgba& c) {
    return "(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) +
           ", " + std::to_string(c[3]) + ")";
}

}  // namespace plab::render::testing
