#pragma once
// A picture of a run without GL or a GPU, for Python (Simulation.picture): the particles drawn
// by the CPU reference of the CUDA renderer's passes (render/splat_reference.h for the data
// look, render/material_reference.h for the material look), from the camera the window opens
// with (the domain framed, or the scene file's camera). Slow next to the renderers (one core,
// every pixel of every sphere), meant for figures and notebooks.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/run/run.h"

namespace plab::app {

// Pictures are 16 to 4096 pixels a side.
inline constexpr int kMinPictureSide = 16;
inline constexpr int kMaxPictureSide = 4096;

struct Picture {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;  // height rows of width RGBA8 pixels, the top row first
};

// `look`: "data" (colour by speed, the ramp's top the fastest particle) or "material" (the
// liquid or the grains, and the scene's bodies). Throws plab::Error for another look or a
// size outside the limits.
Picture draw_picture(sim::Run& run, const std::string& look, int width, int height);

}  // namespace plab::app
