#include <string>

#include "sim/cpu_simulator.h"
#include "sim/error.h"
#include "sim/simulator.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#endif

namespace plab::sim {

Backend parse_backend(std::string_view name) {
    if (name == "auto") return Backend::Auto;
    if (name == "cpu") return Backend::Cpu;
    if (name == "cuda") return Backend::Cuda;
    throw Error("unknown backend '" + std::string(name) + "'; use auto, cpu or cuda");
}

std::string_view backend_name(Backend b) {
    switch (b) {
        case Backend::Auto: return "auto";
        case Backend::Cpu: return "cpu";
        case Backend::Cuda: return "cuda";
    }
    return "?";
}

ColorMode parse_color_mode(std::string_view name) {
    if (name == "speed") return ColorMode::Speed;
    if (name == "id") return ColorMode::ParticleId;
    if (name == "cell") return ColorMode::Cell;
    if (name == "density") return ColorMode::Density;
    if (name == "pressure") return ColorMode::Pressure;
    throw Error("unknown colour mode '" + std::string(name) +
                "'; use speed, id, cell, density or pressure");
}

std::string_view color_mode_name(ColorMode mode) {
    switch (mode) {
        case ColorMode::Speed: return "speed";
        case ColorMode::ParticleId: return "id";
        case ColorMode::Cell: return "cell";
        case ColorMode::Density: return "density";
        case ColorMode::Pressure: return "pressure";
    }
    return "?";
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
