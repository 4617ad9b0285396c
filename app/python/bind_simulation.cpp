// particle_lab.Simulation: the bindings of app/python/simulation.h. Every call that works
// releases the GIL and takes the simulation's lock, so other Python threads run meanwhile and
// two threads never drive one simulator at once. The long calls (step, bench) answer Ctrl-C.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <csignal>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <string>

#include "app/lab/bench_config.h"
#include "app/lab/interrupt.h"
#include "app/python/bindings.h"
#include "app/python/convert.h"
#include "app/python/device_views.h"
#include "app/python/simulation.h"
#include "sim/core/enum_names.h"
#include "sim/core/error.h"
#include "sim/core/input_limits.h"

namespace pyb = pybind11;

namespace plab::app::py {
namespace {

// Runs `f` without the GIL, holding the simulation's lock. `f` must not touch Python objects.
template <class F>
auto unlocked(Simulation& s, F&& f) {
    pyb::gil_scoped_release nogil;
    std::lock_guard<std::mutex> lock(s.mutex());
    return f();
}

bool on_main_thread() {
    const pyb::module_ threading = pyb::module_::import("threading");
    return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

// unlocked(), stoppable by Ctrl-C or SIGTERM. While the call runs without the GIL, Python
// cannot run its own SIGINT handler, so on the main thread the lab's handler (interrupt.h)
// stands in for it and the step loops stop between steps when it fires (the steps run so far
// stay). Then KeyboardInterrupt is raised, or, for SIGTERM, the signal is raised again under
// Python's own handler. Other threads get no signals in Python: they run as unlocked().
template <class F>
auto interruptible(Simulation& s, F&& f) {
    if (!on_main_thread()) return unlocked(s, std::forward<F>(f));
    using Result = decltype(f());
    std::optional<std::conditional_t<std::is_void_v<Result>, bool, Result>> result;
    int signal = 0;
    {
        const InterruptHandler handler;
        try {
            if constexpr (std::is_void_v<Result>) {
                unlocked(s, std::forward<F>(f));
                result = true;
            } else {
                result = unlocked(s, std::forward<F>(f));
            }
        } catch (const Interrupted&) {  // a loop that stops by throwing (bench)
        }
        if (interrupted()) signal = interrupt_exit_code() - 128;
    }
    if (signal == SIGINT) {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw pyb::error_already_set();
    }
    if (signal != 0) {
        std::raise(signal);
        if (PyErr_CheckSignals() != 0) throw pyb::error_already_set();
    }
    if constexpr (!std::is_void_v<Result>) return std::move(*result);
}

pyb::array_t<float> float_array(const std::vector<float>& v, std::size_t rows, std::size_t cols) {
    std::vector<pyb::ssize_t> shape{static_cast<pyb::ssize_t>(rows)};
    if (cols > 1) shape.push_back(static_cast<pyb::ssize_t>(cols));
    pyb::array_t<float> a(shape);
    if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(float));
    return a;
}

void require_liquid(const Simulation& s, const char* what) {
    PLAB_REQUIRE(s.params().model == sim::Model::Sph,
                 std::string(what) + " exists for SPH liquids only; this run is " +
                     std::string(sim::model_name(s.params().model)) + " (" + s.label() + ")");
}

std::unique_ptr<Simulation> make(const std::optional<std::string>& preset,
                                 const std::optional<std::string>& scene,
                                 const pyb::object& particles, const std::string& backend,
                                 const pyb::kwargs& params) {
    // An empty name would mean the default preset; it is refused, as `--preset ''` is.
    PLAB_REQUIRE(!preset || !preset->empty(),
                 "preset is empty; give one of " + sim::enum_choices(sim::preset_names()));
    PLAB_REQUIRE(!scene || !scene->empty(),
                 "scene is empty; give the name of a shipped scene (particle_lab.scenes()) or "
                 "the path of a scene file");
    SimulationRequest r;
    r.preset = preset.value_or(scene ? "" : "classic");
    r.scene = scene.value_or("");
    if (!particles.is_none())
        r.particles = static_cast<std::size_t>(
            whole_number(particles, "particles", 1, static_cast<std::int64_t>(sim::kMaxParticles)));
    r.backend = sim::parse_backend(backend);
    // Keyword parameters, in the order given, are --set assignments.
    for (const auto& [name, value] : params) {
        const std::string key = pyb::str(name).cast<std::string>();
        r.assignments.push_back(key + "=" + value_text(value, key));
    }
    auto folders = scene_folders();
    pyb::gil_scoped_release nogil;  // building a large scene takes a while
    return std::make_unique<Simulation>(std::move(r), std::move(folders));
}

pyb::dict bench_dict(const BenchSummary& b) {
    pyb::dict d;
    d["backend"] = b.backend;
    d["device"] = b.device;
    d["particles"] = b.particles;
    d["steps"] = b.steps;
    d["window"] = b.window;
    d["valid"] = b.invalid.empty();
    d["invalid"] = b.invalid;
    d["notes"] = b.notes;
    d["integrate_fused"] = b.integrate_fused;
    d["step_ms"] = b.step_ms;
    d["wall_ms"] = b.wall_ms;
    d["steps_per_second"] = b.wall_ms > 0 ? 1000.0 * b.steps / b.wall_ms : 0.0;
    const char* keys[] = {"median_ms", "p10_ms", "p90_ms"};
    for (int k = 0; k < 3; ++k) {
        pyb::dict stage;
        for (const auto& [name, v] : b.stages) stage[pyb::str(name)] = v[k];
        d[keys[k]] = stage;
    }
    return d;
}

pyb::dict params_dict(const sim::Params& p) {
    pyb::dict d;
    for (const sim::ParamInfo& info : sim::param_table()) {
        if (info.kind() == sim::ParamKind::Int)
            d[pyb::str(std::string(info.name))] = static_cast<long long>(info.get(p));
        else
            d[pyb::str(std::string(info.name))] = info.get(p);
    }
    return d;
}

// A view of the device state: positions, velocities (x, y, z of each row), the SPH density
// (the w of each velocity) or the ids.
DeviceView device_view(const pyb::object& self, int which) {
    PLAB_REQUIRE(PLAB_HAS_CUDA, "device views need the CUDA backend; this build has none");
    Simulation& s = self.cast<Simulation&>();
    const sim::DeviceArrays st = unlocked(s, [&] { return s.simulator().device_arrays(); });
    PLAB_REQUIRE(st.on_device(), "device views need the CUDA backend; this simulation runs on " +
                                     std::string(sim::backend_name(s.backend())) +
                                     " (use positions() and velocities() for host copies)");
    DeviceView v;
    const auto n = static_cast<std::int64_t>(st.count);
    v.device = st.device;
    v.owner = self;
    v.generation = s.generation();
    v.owner_generation = &s.generation();
    const auto row = static_cast<std::int64_t>(st.row_bytes);
    switch (which) {
        case 0:  // positions: x, y, z of each Float4
        case 1:  // velocities
            v.base = reinterpret_cast<std::uintptr_t>(which == 0 ? st.pos : st.vel);
            v.shape = {n, 3};
            v.strides = {row, 4};
            break;
        case 2:  // SPH density: the w of each velocity
            require_liquid(s, "device_density");
            v.base = reinterpret_cast<std::uintptr_t>(st.vel);
            v.byte_offset = 3 * sizeof(float);
            v.shape = {n};
            v.strides = {row};
            break;
        default:  // ids
            v.base = reinterpret_cast<std::uintptr_t>(st.id);
            v.kind = 'u';
            v.shape = {n};
            v.strides = {static_cast<std::int64_t>(st.id_bytes)};
    }
    v.data = v.base + v.byte_offset;
    return v;
}

}  // namespace

void bind_simulation(pyb::module_& m) {
    using S = Simulation;
    pyb::class_<S>(m, "Simulation", R"(One run of the simulation.

Simulation(preset=None, scene=None, particles=None, backend='auto', **params)

preset: 'classic', 'granular' or 'water' (default 'classic' without a scene). scene: the name
of a shipped scene (particle_lab.scenes()) or the path of a scene file; it names its own preset.
particles: the count (default: the scene file's, else 65536). backend: 'auto', 'cpu' or 'cuda'.
params: parameter=value, applied as `--set name=value` is (particle_lab.parameters()).
The run is resolved exactly as `particle-lab bench` resolves the same request.)")
        .def(pyb::init(&make), pyb::arg("preset") = pyb::none(), pyb::arg("scene") = pyb::none(),
             pyb::arg("particles") = pyb::none(), pyb::arg("backend") = "auto")
        .def(
            "step",
            [](S& s, const pyb::object& n) {
                const std::int64_t steps =
                    whole_number(n, "step: n", 0, std::numeric_limits<std::int64_t>::max());
                interruptible(s, [&] { s.step(steps); });
            },
            pyb::arg("n") = 1,
            "Advances n steps of dt (the GIL is released meanwhile). Ctrl-C stops it between "
            "steps with KeyboardInterrupt; the steps run so far stay.")
        .def_property_readonly("time", &S::time, "Simulated time since the start, s.")
        .def_property_readonly("steps", &S::steps, "Steps run since the start.")
        .def_property_readonly("particles", &S::particle_count)
        .def_property_readonly(
            "backend", [](const S& s) { return std::string(sim::backend_name(s.backend())); })
        .def_property_readonly("device", &S::device_name)
        .def_property_readonly(
            "model", [](const S& s) { return std::string(sim::model_name(s.params().model)); })
        .def_property_readonly("label", &S::label, "What runs: the preset or scene file.")
        .def_property_readonly(
            "domain",
            [](const S& s) {
                const sim::Domain& d = s.domain();
                return pyb::make_tuple(pyb::make_tuple(d.min.x, d.min.y, d.min.z),
                                       pyb::make_tuple(d.max.x, d.max.y, d.max.z));
            },
            "The box's walls, m: ((xmin, ymin, zmin), (xmax, ymax, zmax)).")
        .def_property_readonly("fallback_reason", &S::fallback,
                               "Why backend='auto' did not take CUDA ('' otherwise).")
        .def_property_readonly(
            "warnings",
            [](const S& s) {
                std::vector<std::string> w;
                for (const auto& r : s.warnings()) w.push_back(r.text);
                return w;
            },
            "What the start-up checks found suspicious (the program's WARNING lines).")
        .def_property_readonly(
            "params", [](const S& s) { return params_dict(s.params()); },
            "The parameters in effect: {name: value}.")
        .def_property_readonly("pending_reset", &S::pending_reset,
                               "Parameters set that take effect at reset().")
        .def(
            "set",
            [](S& s, const std::string& name, const pyb::object& value) {
                const std::string text = value_text(value, name);
                unlocked(s, [&] { s.set(name, text); });
            },
            pyb::arg("name"), pyb::arg("value"),
            "Sets a parameter, checked as `--set name=value`; one that needs a reset takes "
            "effect at reset(), the others at the next step.")
        .def_property_readonly(
            "bodies", [](S& s) { return unlocked(s, [&] { return s.body_names(); }); },
            "The scene's geometry bodies by name, e.g. 'geometry[0] (cylinder)'.")
        .def(
            "body_spin",
            [](S& s, const pyb::object& body) {
                const auto i = static_cast<std::size_t>(whole_number(body, "body", 0, 1 << 20));
                return unlocked(s, [&] { return s.body_spin(i); });
            },
            pyb::arg("body"),
            "Body `body`'s spin, rev/min, or None when it cannot spin (only a cylinder or a "
            "plane of the scene file can).")
        .def(
            "set_body_spin",
            [](S& s, const pyb::object& body, const pyb::object& rpm) {
                const auto i = static_cast<std::size_t>(whole_number(body, "body", 0, 1 << 20));
                const double r =
                    real_number(rpm, "rpm", -sim::kMaxSpinRpm, sim::kMaxSpinRpm, "rev/min");
                unlocked(s, [&] { s.set_body_spin(i, static_cast<float>(r)); });
            },
            pyb::arg("body"), pyb::arg("rpm"),
            "Spins body `body` at `rpm` rev/min about its spin axis from the next step on "
            "(a drum turning faster, backwards or stopping); checked as the scene file's motion "
            "is.")
        .def(
            "reset", [](S& s) { unlocked(s, [&] { s.reset(); }); },
            "Starts the scene again (with the parameters set so far); after load(), goes back "
            "to the loaded checkpoint.")
        .def(
            "picture",
            [](S& s, const std::string& look, int width, int height) {
                const Picture p = unlocked(s, [&] { return s.picture(look, width, height); });
                pyb::array_t<std::uint8_t> a({p.height, p.width, 4});
                std::memcpy(a.mutable_data(), p.rgba.data(), p.rgba.size());
                return a;
            },
            pyb::arg("look") = "data", pyb::arg("width") = 640, pyb::arg("height") = 360,
            "A picture of the particles as the window's camera opens on them: a new (height, "
            "width, 4) uint8 RGBA array, top row first. look='data' colours by speed; "
            "'material' draws the liquid's surface (SPH) or shaded grains with occlusion and "
            "shadows (DEM), and the scene's bodies. Drawn on the CPU by the reference of the "
            "CUDA renderer's passes: seconds for a million particles.")
        .def(
            "positions",
            [](S& s) {
                const Arrays a = unlocked(s, [&] { return s.arrays(); });
                return float_array(a.pos, a.pos.size() / 3, 3);
            },
            "Positions, m: a new (N, 3) float32 array in particle-id order.")
        .def(
            "velocities",
            [](S& s) {
                const Arrays a = unlocked(s, [&] { return s.arrays(); });
                return float_array(a.vel, a.vel.size() / 3, 3);
            },
            "Velocities, m/s: a new (N, 3) float32 array in particle-id order.")
        .def(
            "density",
            [](S& s) {
                require_liquid(s, "density");
                const Arrays a = unlocked(s, [&] { return s.arrays(); });
                return float_array(a.density, a.density.size(), 1);
            },
            "SPH density at the last step, kg/m^3: a new (N,) float32 array in particle-id order.")
        .def(
            "pressure",
            [](S& s) {
                require_liquid(s, "pressure");
                const Arrays a = unlocked(s, [&] { return s.arrays(); });
                return float_array(a.pressure, a.pressure.size(), 1);
            },
            "SPH pressure (Tait equation of the density), Pa: a new (N,) float32 array.")
        .def(
            "arrays",
            [](S& s) {
                const Arrays a = unlocked(s, [&] { return s.arrays(); });
                pyb::dict d;
                d["positions"] = float_array(a.pos, a.pos.size() / 3, 3);
                d["velocities"] = float_array(a.vel, a.vel.size() / 3, 3);
                if (!a.density.empty() || s.params().model == sim::Model::Sph) {
                    d["density"] = float_array(a.density, a.density.size(), 1);
                    d["pressure"] = float_array(a.pressure, a.pressure.size(), 1);
                }
                return d;
            },
            "Every array of one download: positions, velocities (and density, pressure for SPH).")
        .def(
            "stats",
            [](S& s) {
                const sim::SimStats st = unlocked(s, [&] { return s.stats(); });
                pyb::dict d;
                d["max_speed"] = st.max_speed;
                d["kinetic_energy"] = st.kinetic_energy;
                d["non_finite"] = st.non_finite;
                d["density_min"] = st.density_min;
                d["density_max"] = st.density_max;
                d["density_mean"] = st.density_mean;
                return d;
            },
            "Max speed (m/s), kinetic energy (J), non-finite particles, SPH density range.")
        .def(
            "bench",
            [](S& s, const pyb::object& steps, const pyb::object& warmup, const std::string& window,
               const pyb::object& flow_time) {
                const auto most = static_cast<std::int64_t>(sim::kMaxBenchSteps);
                const auto n = static_cast<int>(whole_number(steps, "steps", 1, most));
                const auto w = static_cast<int>(whole_number(warmup, "warmup", 0, most));
                const double flow = real_number(flow_time, "flow_time", kMinFlowTime, kMaxFlowTime,
                                                "s of simulated time");
                const BenchSummary b =
                    interruptible(s, [&] { return s.bench(n, w, window, flow); });
                return bench_dict(b);
            },
            pyb::arg("steps") = 200, pyb::arg("warmup") = 20, pyb::arg("window") = "auto",
            pyb::arg("flow_time") = 1.0,
            R"(Times a fresh run of this simulation's request as `particle-lab bench` does.

Returns {'median_ms', 'p10_ms', 'p90_ms': {stage: ms} for the stages grid, reorder, forces,
integrate and step; 'step_ms', 'steps_per_second', 'valid', 'invalid', 'window', 'backend',
'device', 'particles', 'steps', ...}. window: 'auto' (settled pile for DEM, flow for SPH),
'start', 'settled' or 'flow'. This simulation's own state is left as it is. Ctrl-C stops it
with KeyboardInterrupt.)")
        .def(
            "save", [](S& s, const std::string& path) { unlocked(s, [&] { s.save(path); }); },
            pyb::arg("path"), "Writes a checkpoint (.plab) of the state, atomically.")
        .def(
            "load", [](S& s, const std::string& path) { unlocked(s, [&] { s.load(path); }); },
            pyb::arg("path"),
            "Replaces the run with a checkpoint's (state, parameters, time); nothing changes "
            "when the file is refused.")
        .def(
            "device_positions", [](const pyb::object& self) { return device_view(self, 0); },
            "CUDA: a zero-copy DeviceArray of the positions, (N, 3) float32, memory order.")
        .def(
            "device_velocities", [](const pyb::object& self) { return device_view(self, 1); },
            "CUDA: a zero-copy DeviceArray of the velocities, (N, 3) float32, memory order.")
        .def(
            "device_density", [](const pyb::object& self) { return device_view(self, 2); },
            "CUDA, SPH: a zero-copy DeviceArray of the densities, (N,) float32, memory order.")
        .def(
            "device_ids", [](const pyb::object& self) { return device_view(self, 3); },
            "CUDA: a zero-copy DeviceArray (N,) uint32, the particle id of each row of the other "
            "device views.")
        .def("__repr__", [](const S& s) {
            return "<particle_lab.Simulation " + s.label() + ", " +
                   std::to_string(s.particle_count()) + " particles on " +
                   std::string(sim::backend_name(s.backend())) +
                   ", t = " + std::to_string(s.time()) + " s>";
        });
}

}  // namespace plab::app::py
