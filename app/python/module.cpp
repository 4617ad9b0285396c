// particle_lab: the simulation core from Python. The tables (presets, scenes, parameters), the
// Error type every plab::Error becomes, and the module's entry point; the Simulation class is
// bound in bind_simulation.cpp, the device views in device_views.cpp.
#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "app/lab/scene_dirs.h"
#include "app/python/bindings.h"
#include "app/python/device_views.h"
#include "sim/core/error.h"
#include "sim/engine/simulator.h"
#include "sim/io/scene_file.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "sim/run/make_simulator.h"
#include "sim/validation/sph_validation.h"

namespace pyb = pybind11;

namespace plab::app::py {
namespace {

// The file this module was loaded from (its scene folder is found relative to it).
std::filesystem::path module_file() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&module_file), &info) == 0 || !info.dli_fname) return {};
    return info.dli_fname;
}

pyb::list parameters() {
    pyb::list out;
    for (const sim::ParamInfo& p : sim::param_table()) {
        pyb::dict d;
        d["name"] = std::string(p.name);
        d["unit"] = std::string(p.unit);
        d["min"] = p.min;
        d["max"] = p.max;
        d["kind"] = p.kind() == sim::ParamKind::Int ? "int" : "float";
        d["help"] = std::string(p.help);
        d["needs_reset"] = p.needs_reset;
        pyb::list models;
        for (const auto& m : sim::model_names())
            if (sim::applies_to(p.models, m.value)) models.append(std::string(m.name));
        d["models"] = models;
        pyb::dict defaults;
        for (const auto& preset : sim::preset_names())
            defaults[pyb::str(std::string(preset.name))] = p.get(sim::preset_params(preset.value));
        d["defaults"] = defaults;
        out.append(d);
    }
    return out;
}

pyb::list presets() {
    pyb::list out;
    for (const auto& p : sim::preset_names()) {
        pyb::dict d;
        d["name"] = std::string(p.name);
        d["model"] = std::string(sim::model_name(sim::preset_params(p.value).model));
        out.append(d);
    }
    return out;
}

pyb::list scenes() {
    pyb::list out;
    for (const std::string& path : list_scene_files(scene_folders())) {
        const sim::SceneFile f = sim::load_scene_file(path);
        pyb::dict d;
        d["name"] = std::filesystem::path(path).stem().string();
        d["path"] = path;
        d["model"] = std::string(sim::model_name(f.params.model));
        d["preset"] = std::string(sim::preset_name(f.preset));
        d["particles"] = f.particles;
        d["description"] = f.description;
        out.append(d);
    }
    return out;
}

}  // namespace

std::vector<std::filesystem::path> scene_folders() {
    return scene_dirs(module_scene_dir(module_file()));
}

}  // namespace plab::app::py

PYBIND11_MODULE(particle_lab, m) {
    using namespace plab::app::py;
    m.doc() = R"(Particle Lab's simulation core: DEM grains and an SPH liquid on the CPU (OpenMP)
or CUDA backend, started through the same run recipe as the particle-lab program.

    import particle_lab as pl
    sim = pl.Simulation(preset="water", particles=20000, backend="cpu")
    sim.step(100)
    x = sim.positions()   # (N, 3) float32, m, in particle-id order

Errors raise particle_lab.Error (a ValueError and a RuntimeError) with the program's message.)";
    m.attr("__version__") = PLAB_VERSION;

    // One exception type for every plab::Error: bad input (a ValueError) and failures while
    // running (a RuntimeError) both come from it, with the message the program prints.
    static pyb::object error = pyb::reinterpret_steal<pyb::object>(PyErr_NewExceptionWithDoc(
        "particle_lab.Error",
        "A Particle Lab error: the message is the one the particle-lab program gives.",
        pyb::make_tuple(pyb::handle(PyExc_ValueError), pyb::handle(PyExc_RuntimeError)).ptr(),
        nullptr));
    m.attr("Error") = error;
    pyb::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const plab::Error& e) {
            PyErr_SetString(error.ptr(), e.what());
        }
    });

    m.def("presets", &presets, "The presets: a list of {'name', 'model'}.");
    m.def("scenes", &scenes,
          "The shipped scene files: a list of {'name', 'path', 'model', 'preset', 'particles', "
          "'description'} (installed ones beside the module, else the source tree's).");
    m.def("parameters", &parameters,
          "The parameter table: a list of {'name', 'unit', 'min', 'max', 'kind', 'help', "
          "'needs_reset', 'models', 'defaults' (each preset's value)}.");
    m.def(
        "martin_moyce_points",
        [] {
            std::vector<std::pair<double, double>> out;
            for (const plab::sim::SurgePoint& p : plab::sim::martin_moyce_points())
                out.emplace_back(p.t, p.z);
            return out;
        },
        "Martin & Moyce's (1952) dam-break surge front, (T, Z) with T = t sqrt(2g/a), Z = x/a: "
        "the measurements `particle-lab validate dam-break` compares with.");
    m.def(
        "cuda_available", [] { return plab::sim::cuda_unavailable_reason().empty(); },
        "True when this build has the CUDA backend and a usable device.");
    m.def("cuda_unavailable_reason", &plab::sim::cuda_unavailable_reason,
          "Why the CUDA backend cannot run here ('' when it can).");

    bind_device_views(m);
    bind_simulation(m);
}
