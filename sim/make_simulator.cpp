#include <string>

#include "sim/cpu_simulator.h"
#include "sim/error.h"
#include "sim/simulator.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#endif

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

std::string cuda_unavailable_reason() {
#if PLAB_HAS_CUDA
    return cuda::device_unusable_reason();
#else
    return "this build has no CUDA backend (no CUDA compiler was found when it was configured)";
#endif
}

std::unique_ptr<Simulator> make_simulator(Backend wanted, std::string* fallback_reason,
                                          const SimulatorOptions& options) {
    if (fallback_reason) fallback_reason->clear();
    auto cpu = [&] {
        auto s = std::make_unique<CpuSimulator>();
        s->set_options(options);
        return s;
    };
    if (wanted == Backend::Cpu) return cpu();
    const std::string why = cuda_unavailable_reason();
    if (!why.empty()) {
        if (wanted == Backend::Cuda) throw Error("CUDA backend unavailable: " + why);
        if (fallback_reason) *fallback_reason = why;
        return cpu();
    }
#if PLAB_HAS_CUDA
    return std::make_unique<cuda::CudaSimulator>(options);
#else
    return cpu();
#endif
}

}  // namespace plab::sim
