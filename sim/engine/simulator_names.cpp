#include "sim/engine/simulator.h"

#include <string>

#include "sim/core/error.h"

namespace plab::sim {

namespace {

constexpr EnumName<Backend> kBackendNames[] = {
    {Backend::Auto, "auto"}, {Backend::Cpu, "cpu"}, {Backend::Cuda, "cuda"}};

// In the order of the panel's radio buttons.
constexpr EnumName<ColorMode> kColorModeNames[] = {
    {ColorMode::Speed, "speed"},     {ColorMode::ParticleId, "id"},     {ColorMode::Cell, "cell"},
    {ColorMode::Density, "density"}, {ColorMode::Pressure, "pressure"}, {ColorMode::Spin, "spin"}};

}  // namespace

std::span<const EnumName<Backend>> backend_names() { return kBackendNames; }

Backend parse_backend(std::string_view name) {
    return parse_enum(backend_names(), name, "backend");
}

std::string_view backend_name(Backend b) { return enum_name(backend_names(), b); }

std::span<const EnumName<ColorMode>> color_mode_names() { return kColorModeNames; }

ColorMode parse_color_mode(std::string_view name) {
    return parse_enum(color_mode_names(), name, "colour mode");
}

std::string_view color_mode_name(ColorMode mode) { return enum_name(color_mode_names(), mode); }

std::string color_mode_note(ColorMode mode, const Params& params) {
    if (mode != ColorMode::Spin || has_rotation(params)) return {};
    return "only the frictional contact law rotates particles (DEM with contact = frictional); " +
           std::string(params.model == Model::Dem ? "this run has contact = classic"
                                                  : "this run is SPH");
}

}  // namespace plab::sim
