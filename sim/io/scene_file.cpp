#include "sim/io/scene_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <sstream>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"
#include "sim/engine/emission.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/io/json_text.h"
#include "sim/io/obj_file.h"
#include "sim/model/block_lattice.h"
#include "sim/model/grid.h"

namespace plab::sim {
namespace {

using Json = nlohmann::json;

// Where in the file a value sits, for messages: "blocks[1].spacing".
struct Where {
    const std::string& source;
    std::string key;

    Where at(const std::string& child) const {
        return {source, key.empty() ? child : key + "." + child};
    }
    Where index(std::size_t i) const { return {source, key + "[" + std::to_string(i) + "]"}; }
    [[noreturn]] void fail(const std::string& problem) const {
        throw Error(source + ": " + (key.empty() ? "" : key + ": ") + problem);
    }
};

void require_only_keys(const Json& object, const Where& where,
                       std::initializer_list<std::string_view> allowed) {
    if (!object.is_object()) where.fail("expected an object");
    for (const auto& [key, value] : object.items()) {
        bool known = false;
        for (std::string_view a : allowed) known = known || key == a;
        if (!known) {
            std::string list;
            for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
            where.at(key).fail("unknown key (allowed here: " + list + ")");
        }
    }
}

double number(const Json& v, const Where& where) {
    if (!v.is_number()) where.fail("expected a number, got " + std::string(v.type_name()));
    const double d = v.get<double>();
    if (!std::isfinite(d)) where.fail("must be finite");
    return d;
}

// A number stored as float: one past float's range would become infinity.
float real(const Json& v, const Where& where) {
    const double d = number(v, where);
    if (!fits_float(d))
        where.fail(format_numbers("%g is beyond the range of float (magnitude at most %g)", d,
                                  std::numeric_limits<float>::max()));
    return static_cast<float>(d);
}

std::string text(const Json& v, const Where& where) {
    if (!v.is_string()) where.fail("expected a string, got " + std::string(v.type_name()));
    return v.get<std::string>();
}

Vec3 vec3(const Json& v, const Where& where) {
    if (!v.is_array() || v.size() != 3) where.fail("expected an array of 3 numbers");
    return {real(v[0], where.index(0)), real(v[1], where.index(1)), real(v[2], where.index(2))};
}

Domain domain(const Json& v, const Where& where) {
    require_only_keys(v, where, {"min", "max"});
    if (!v.contains("min") || !v.contains("max")) where.fail("needs both 'min' and 'max'");
    const Domain d{vec3(v["min"], where.at("min")), vec3(v["max"], where.at("max"))};
    if (!(d.min.x < d.max.x && d.min.y < d.max.y && d.min.z < d.max.z))
        where.fail("'min' must be below 'max' on every axis");
    return d;
}

ParticleBlock block(const Json& v, const Where& where) {
    require_only_keys(v, where, {"shape", "min", "max", "spacing", "jitter", "velocity"});
    for (const char* key : {"min", "max", "spacing"})
        if (!v.contains(key)) where.fail(std::string("missing '") + key + "'");
    ParticleBlock b;
    if (v.contains("shape")) {
        const std::string shape = text(v["shape"], where.at("shape"));
        if (shape == "box") {
            b.shape = BlockShape::Box;
        } else if (shape == "sphere") {
            b.shape = BlockShape::Sphere;
        } else {
            where.at("shape").fail("'" + shape + "' is not a shape (box or sphere)");
        }
    }
    b.min = vec3(v["min"], where.at("min"));
    b.max = vec3(v["max"], where.at("max"));
    b.spacing = real(v["spacing"], where.at("spacing"));
    if (!(b.spacing > 0.f)) where.at("spacing").fail("must be positive (m)");
    const LatticeDims d = lattice_dims(b);
    if (std::max({d.x, d.y, d.z}) > kMaxLatticeAxis)
        where.at("spacing").fail(format_numbers(
            "%g m puts more than %.0f lattice points along an axis of the block (float "
            "coordinates no longer tell them apart)",
            b.spacing, kMaxLatticeAxis));
    if (v.contains("jitter")) {
        b.jitter = real(v["jitter"], where.at("jitter"));
        if (b.jitter < 0.f) where.at("jitter").fail("must not be negative (m)");
    }
    if (v.contains("velocity")) b.velocity = vec3(v["velocity"], where.at("velocity"));
    return b;
}

SceneCamera camera(const Json& v, const Where& where) {
    require_only_keys(v, where, {"target", "distance", "yaw", "pitch"});
    for (const char* key : {"target", "distance", "yaw", "pitch"})
        if (!v.contains(key)) where.fail(std::string("missing '") + key + "'");
    SceneCamera c;
    c.target = vec3(v["target"], where.at("target"));
    c.distance = real(v["distance"], where.at("distance"));
    if (!(c.distance > 0.f)) where.at("distance").fail("must be positive (m)");
    c.yaw_deg = real(v["yaw"], where.at("yaw"));
    c.pitch_deg = real(v["pitch"], where.at("pitch"));
    if (!(c.pitch_deg > -89.f && c.pitch_deg < 89.f))
        where.at("pitch").fail("must be within (-89, 89) degrees");
    return c;
}

// A positive length (m).
float positive(const Json& v, const Where& where) {
    const float x = real(v, where);
    if (!(x > 0.f)) where.fail("must be positive (m)");
    return x;
}

Vec3 nonzero_direction(const Json& v, const Where& where) {
    const Vec3 d = vec3(v, where);
    if (!(length_squared(d) > 0.f)) where.fail("must not be the zero vector");
    return d;
}

BodyMotion motion(const Json& v, const Where& where) {
    require_only_keys(v, where, {"spin_axis", "spin_center", "spin_rpm", "velocity"});
    BodyMotion m;
    if (v.contains("spin_axis"))
        m.spin_axis = nonzero_direction(v["spin_axis"], where.at("spin_axis"));
    if (v.contains("spin_center")) m.spin_center = vec3(v["spin_center"], where.at("spin_center"));
    if (v.contains("spin_rpm")) {
        m.spin_rpm = real(v["spin_rpm"], where.at("spin_rpm"));
        if (std::fabs(m.spin_rpm) > kMaxSpinRpm)
            where.at("spin_rpm")
                .fail(format_numbers("%g is beyond ±%g rev/min", m.spin_rpm, kMaxSpinRpm));
    }
    if (v.contains("velocity")) m.velocity = vec3(v["velocity"], where.at("velocity"));
    return m;
}

// One entry of "geometry"; a mesh's file is read relative to the scene file's folder.
Body body(const Json& v, const Where& where, const std::filesystem::path& folder) {
    require_only_keys(v, where,
                      {"type", "file", "min", "max", "center", "axis", "radius", "length", "point",
                       "normal", "scale", "translate", "rotate", "inside", "friction", "motion"});
    if (!v.contains("type")) where.fail("missing 'type' (mesh, box, cylinder or plane)");
    const std::string type = text(v["type"], where.at("type"));
    Body b;
    auto need = [&](std::initializer_list<const char*> keys) {
        for (const char* key : keys)
            if (!v.contains(key)) where.fail("a " + type + " needs '" + key + "'");
    };
    // Keys of another shape are mistakes, not options.
    auto only = [&](std::initializer_list<const char*> keys) {
        for (const char* key :
             {"file", "min", "max", "center", "axis", "radius", "length", "point", "normal"}) {
            bool ok = false;
            for (const char* k : keys) ok = ok || std::string_view(k) == key;
            if (!ok && v.contains(key)) where.at(key).fail("not a key of a " + type);
        }
    };
    if (type == "mesh") {
        b.shape = BodyShape::Mesh;
        need({"file"});
        only({"file"});
        b.file = text(v["file"], where.at("file"));
        if (b.file.empty()) where.at("file").fail("must name a mesh file (.stl or .obj)");
        const std::filesystem::path path = folder / b.file;
        try {
            b.mesh = load_mesh(path);
        } catch (const Error& e) {
            where.at("file").fail(e.what());
        }
    } else if (type == "box") {
        b.shape = BodyShape::Box;
        need({"min", "max"});
        only({"min", "max"});
        b.box_min = vec3(v["min"], where.at("min"));
        b.box_max = vec3(v["max"], where.at("max"));
        if (!(b.box_min.x < b.box_max.x && b.box_min.y < b.box_max.y && b.box_min.z < b.box_max.z))
            where.fail("'min' must be below 'max' on every axis");
    } else if (type == "cylinder") {
        b.shape = BodyShape::Cylinder;
        need({"center", "radius", "length"});
        only({"center", "axis", "radius", "length"});
        b.center = vec3(v["center"], where.at("center"));
        if (v.contains("axis")) b.axis = nonzero_direction(v["axis"], where.at("axis"));
        b.radius = positive(v["radius"], where.at("radius"));
        b.length = positive(v["length"], where.at("length"));
    } else if (type == "plane") {
        b.shape = BodyShape::Plane;
        need({"point", "normal"});
        only({"point", "normal"});
        b.point = vec3(v["point"], where.at("point"));
        b.normal = nonzero_direction(v["normal"], where.at("normal"));
    } else {
        where.at("type").fail("'" + type + "' is not a body type (mesh, box, cylinder or plane)");
    }
    if (v.contains("scale")) {
        const Json& s = v["scale"];
        const Where w = where.at("scale");
        b.scale = s.is_array() ? vec3(s, w) : Vec3{real(s, w), real(s, w), real(s, w)};
        if (!(b.scale.x > 0.f && b.scale.y > 0.f && b.scale.z > 0.f))
            w.fail("must be positive (a number, or one per axis)");
    }
    if (v.contains("translate")) b.translate = vec3(v["translate"], where.at("translate"));
    if (v.contains("rotate")) b.rotate_deg = vec3(v["rotate"], where.at("rotate"));
    if (v.contains("inside")) {
        if (!v["inside"].is_boolean()) where.at("inside").fail("expected true or false");
        b.inside = v["inside"].get<bool>();
    }
    if (v.contains("friction")) {
        const float mu = real(v["friction"], where.at("friction"));
        if (!(mu >= 0.f && mu <= 10.f)) where.at("friction").fail("must be within [0, 10]");
        b.friction = mu;
    }
    if (v.contains("motion")) b.motion = motion(v["motion"], where.at("motion"));
    return b;
}

// One entry of "emitters". Its face must lie in the domain and hold at least one particle.
Emitter emitter(const Json& v, const Where& where, const Domain& d, const Params& params) {
    require_only_keys(
        v, where, {"shape", "center", "normal", "size", "speed", "rate", "flow", "start", "stop"});
    for (const char* key : {"center", "normal", "size", "speed"})
        if (!v.contains(key)) where.fail(std::string("missing '") + key + "'");
    Emitter e;
    if (v.contains("shape")) {
        const std::string shape = text(v["shape"], where.at("shape"));
        if (shape == "disc") {
            e.shape = EmitterShape::Disc;
        } else if (shape == "rect") {
            e.shape = EmitterShape::Rect;
        } else {
            where.at("shape").fail("'" + shape + "' is not an emitter shape (disc or rect)");
        }
    }
    e.center = vec3(v["center"], where.at("center"));
    if (!domain_contains(d, e.center, e.center)) where.at("center").fail("lies outside the domain");
    const Vec3 n = nonzero_direction(v["normal"], where.at("normal"));
    e.normal = n * (1.f / std::sqrt(length_squared(n)));
    const Where ws = where.at("size");
    if (e.shape == EmitterShape::Disc) {
        e.size.x = positive(v["size"], ws);  // the diameter
    } else {
        const Json& s = v["size"];
        if (!s.is_array() || s.size() != 2) ws.fail("a rect's size is [width, height] (m)");
        e.size.x = positive(s[0], ws.index(0));
        e.size.y = positive(s[1], ws.index(1));
    }
    e.speed = positive(v["speed"], where.at("speed"));
    if (e.speed > 1000.f) where.at("speed").fail("must be at most 1000 m/s");
    if (v.contains("rate") && v.contains("flow")) where.fail("give 'rate' or 'flow', not both");
    if (v.contains("rate")) {
        e.rate = number(v["rate"], where.at("rate"));
        if (!(e.rate > 0 && e.rate <= 1e12))
            where.at("rate").fail("must be in (0, 1e12] particles/s");
    }
    if (v.contains("flow")) {
        e.flow = number(v["flow"], where.at("flow"));
        if (!(e.flow > 0 && e.flow <= 1e6)) where.at("flow").fail("must be in (0, 1e6] m^3/s");
    }
    if (v.contains("start")) {
        e.start = number(v["start"], where.at("start"));
        if (!(e.start >= 0 && e.start <= 1e9)) where.at("start").fail("must be in [0, 1e9] s");
    }
    if (v.contains("stop")) {
        e.stop = number(v["stop"], where.at("stop"));
        if (!(e.stop > e.start && e.stop <= 1e9))
            where.at("stop").fail("must be after 'start' and at most 1e9 s");
    }
    const float spacing = emission_spacing(params);
    // Counted before the face is laid out: its points are rows of the lattice.
    constexpr double kMaxFaceAxis = 1024;
    if (std::max(e.size.x, e.size.y) / double(spacing) > kMaxFaceAxis)
        ws.fail(
            format_numbers("puts more than %.0f of the particles' spacing (%g m) across the "
                           "face",
                           kMaxFaceAxis, double(spacing)));
    const std::vector<Vec3> face = emitter_face(e, spacing);
    const std::size_t points = face.size();
    if (points == 0 || (e.shape == EmitterShape::Disc ? e.size.x : std::min(e.size.x, e.size.y)) <
                           0.999f * spacing)
        ws.fail(
            format_numbers("is narrower than the particles' spacing (%g m): the face holds "
                           "no whole row",
                           spacing));
    // More a second than a face each spacing travelled would lay particles on the last ones.
    const double carried = face_rate(e, spacing, points);
    const double asked = emitter_rate(e, spacing, points);
    if (asked > carried * (1 + 1e-9))
        where.fail(
            format_numbers("%.6g particles/s is more than its face carries away: %.0f "
                           "points moving at %g m/s, a spacing (%g m) apart, make %.6g "
                           "a second; raise 'speed' or 'size'",
                           asked, double(points), double(e.speed), double(spacing), carried));
    for (const Vec3& p : face)
        if (!domain_contains(d, p, p))
            ws.fail(format_numbers("the face reaches outside the domain (a point at [%g, %g, %g])",
                                   p.x, p.y, p.z));
    return e;
}

Sink sink(const Json& v, const Where& where, const Domain& d) {
    require_only_keys(v, where, {"min", "max"});
    if (!v.contains("min") || !v.contains("max")) where.fail("needs both 'min' and 'max'");
    Sink s{vec3(v["min"], where.at("min")), vec3(v["max"], where.at("max"))};
    if (!(s.min.x < s.max.x && s.min.y < s.max.y && s.min.z < s.max.z))
        where.fail("'min' must be below 'max' on every axis");
    if (s.max.x < d.min.x || s.min.x > d.max.x || s.max.y < d.min.y || s.min.y > d.max.y ||
        s.max.z < d.min.z || s.min.z > d.max.z)
        where.fail("lies wholly outside the domain: no particle can reach it");
    return s;
}

// "emitters", "sinks" and "max_particles", checked against the particles the scene starts
// with: emitters need a capacity, and without a sink what they lay over their windows must
// fit in it.
Sources sources(const Json& root, const Where& top, const SceneFile& f) {
    Sources out;
    const Domain& d = f.scene.domain;
    const float spacing = emission_spacing(f.params);
    std::vector<std::size_t> face_points;  // per emitter
    if (root.contains("emitters")) {
        const Json& list = root["emitters"];
        const Where w = top.at("emitters");
        if (!list.is_array()) w.fail("expected an array of emitters");
        if (list.size() > kMaxBodies)
            w.fail(std::to_string(list.size()) + " emitters; at most " +
                   std::to_string(kMaxBodies));
        // Every face's points are laid out at every application: at most 2^22 in all.
        constexpr double kMaxFacePoints = 4194304;
        double points = 0;
        for (std::size_t i = 0; i < list.size(); ++i) {
            out.emitters.push_back(emitter(list[i], w.index(i), d, f.params));
            face_points.push_back(emitter_face(out.emitters.back(), spacing).size());
            points += double(face_points.back());
            if (points > kMaxFacePoints)
                w.index(i).fail(
                    format_numbers("the emitters' faces hold more than %.0f particles "
                                   "in all",
                                   kMaxFacePoints));
        }
    }
    if (root.contains("sinks")) {
        const Json& list = root["sinks"];
        const Where w = top.at("sinks");
        if (!list.is_array()) w.fail("expected an array of sinks");
        if (list.size() > kMaxBodies)
            w.fail(std::to_string(list.size()) + " sinks; at most " + std::to_string(kMaxBodies));
        for (std::size_t i = 0; i < list.size(); ++i)
            out.sinks.push_back(sink(list[i], w.index(i), d));
    }
    if (root.contains("max_particles")) {
        const Json& n = root["max_particles"];
        const Where w = top.at("max_particles");
        if (!n.is_number_integer() || (!n.is_number_unsigned() && n.get<long long>() < 1))
            w.fail("expected a whole number of particles, 1 or more");
        const auto count = n.get<unsigned long long>();
        if (count > kMaxParticles)
            w.fail(std::to_string(count) + " is more than the limit of " +
                   std::to_string(kMaxParticles) + " particles");
        if (count < f.particles)
            w.fail(std::to_string(count) + " is fewer than the " + std::to_string(f.particles) +
                   " particles the scene starts with");
        out.max_particles = static_cast<std::size_t>(count);
    } else if (!out.emitters.empty()) {
        top.fail("emitters need 'max_particles': the most particles the run may hold");
    }
    if (!out.emitters.empty() && out.sinks.empty()) {
        double total = 0;
        for (std::size_t i = 0; i < out.emitters.size(); ++i) {
            const Emitter& e = out.emitters[i];
            total += emitter_rate(e, spacing, face_points[i]) * (e.stop - e.start);
        }
        const double room = double(out.max_particles) - double(f.particles);
        if (total > room)
            top.at("emitters")
                .fail(
                    (std::isfinite(total) ? format_numbers("they lay %.0f particles", total)
                                          : std::string("one runs without a 'stop'")) +
                    format_numbers(" and no sink takes any away, but max_particles leaves room for "
                                   "%.0f: give each a 'stop', a larger 'max_particles' or a sink",
                                   room));
    }
    return out;
}

}  // namespace

SceneFile parse_scene_file(std::string_view json_text, const std::string& source) {
    const Json root = parse_json(json_text, source);
    const Where top{source, ""};
    require_only_keys(root, top,
                      {"name", "description", "model", "preset", "params", "domain", "blocks",
                       "particles", "camera", "geometry", "emitters", "sinks", "max_particles"});

    SceneFile f;
    f.name = root.contains("name") ? text(root["name"], top.at("name"))
                                   : std::filesystem::path(source).stem().string();
    if (root.contains("description"))
        f.description = text(root["description"], top.at("description"));
    if (!root.contains("preset")) top.fail("missing 'preset' (classic, granular or water)");
    try {
        f.preset = parse_preset(text(root["preset"], top.at("preset")));
    } catch (const Error& e) {
        if (std::string(e.what()).rfind(source, 0) == 0) throw;
        top.at("preset").fail(e.what());
    }
    f.params = preset_params(f.preset);
    if (root.contains("model")) {
        // The model comes with the preset; stating it guards against a mismatched preset.
        Model model = Model::Dem;
        try {
            model = parse_model(text(root["model"], top.at("model")));
        } catch (const Error& e) {
            if (std::string(e.what()).rfind(source, 0) == 0) throw;
            top.at("model").fail(e.what());
        }
        if (model != f.params.model)
            top.at("model").fail("'" + std::string(model_name(model)) +
                                 "' does not match preset '" + std::string(preset_name(f.preset)) +
                                 "', which is " + std::string(model_name(f.params.model)));
    }

    if (root.contains("params")) {
        const Json& params = root["params"];
        const Where where = top.at("params");
        if (!params.is_object()) where.fail("expected an object of name: value");
        for (const auto& [key, value] : params.items()) {
            const Where w = where.at(key);
            const double v = number(value, w);
            std::ostringstream s;
            s.precision(17);
            s << v;
            try {
                set_param(f.params, key, s.str());
            } catch (const Error& e) {
                w.fail(e.what());
            }
            f.param_keys.push_back(key);
        }
    }

    if (root.contains("camera")) f.camera = camera(root["camera"], top.at("camera"));

    const bool has_blocks = root.contains("blocks");
    if (root.contains("particles")) {
        const Json& n = root["particles"];
        const Where w = top.at("particles");
        // Signed and unsigned integers apart, so neither wraps into the other.
        if (!n.is_number_integer() || (n.is_number_unsigned() ? false : n.get<long long>() < 0))
            w.fail("expected a whole number of particles, 0 or more");
        const auto count = n.get<unsigned long long>();
        if (count > kMaxParticles)
            w.fail(std::to_string(count) + " is more than the limit of " +
                   std::to_string(kMaxParticles) + " particles");
        f.particles = static_cast<std::size_t>(count);
    } else if (!has_blocks) {
        top.fail("without 'blocks', 'particles' says how many the preset's scene gets");
    }

    if (has_blocks) {
        if (!root.contains("domain")) top.fail("'blocks' need a 'domain'");
        f.scene.name = f.name;
        f.scene.domain = domain(root["domain"], top.at("domain"));
        const Json& blocks = root["blocks"];
        if (!blocks.is_array() || blocks.empty())
            top.at("blocks").fail("expected a non-empty array of blocks");
        if (blocks.size() > kMaxBlocks)
            top.at("blocks").fail(std::to_string(blocks.size()) + " blocks; at most " +
                                  std::to_string(kMaxBlocks));
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            const Where w = top.at("blocks").index(i);
            const ParticleBlock b = block(blocks[i], w);
            const Domain& d = f.scene.domain;
            if (!(b.min.x >= d.min.x && b.min.y >= d.min.y && b.min.z >= d.min.z &&
                  b.max.x <= d.max.x && b.max.y <= d.max.y && b.max.z <= d.max.z))
                w.fail(format_numbers("[%g, %g, %g] to [%g, %g, %g] m lies outside the domain ",
                                      b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z) +
                       format_numbers("[%g, %g, %g] to [%g, %g, %g] m", d.min.x, d.min.y, d.min.z,
                                      d.max.x, d.max.y, d.max.z));
            f.scene.blocks.push_back(b);
        }
        f.has_own_blocks = true;
        const std::size_t capacity = scene_capacity(f.scene);  // at most kMaxParticles + 1
        if (!root.contains("particles") && capacity > kMaxParticles)
            top.at("blocks").fail("they place more than the limit of " +
                                  std::to_string(kMaxParticles) +
                                  " particles; give 'particles' or a coarser spacing");
        if (capacity == 0)
            top.at("blocks").fail(
                "they place no particles: every block is smaller than its "
                "spacing (or, for a sphere, its lattice misses the sphere)");
        if (!root.contains("particles")) f.particles = capacity;
        if (f.particles > capacity)
            top.at("particles")
                .fail(std::to_string(f.particles) + " is more than the blocks can place (" +
                      std::to_string(capacity) + ")");
    } else {
        if (root.contains("domain")) top.at("domain").fail("only used together with 'blocks'");
        f.scene = preset_scene(f.preset, f.particles, f.params);
        f.scene.name = f.name;
    }
    if (root.contains("geometry")) {
        const Json& list = root["geometry"];
        const Where w = top.at("geometry");
        if (!list.is_array()) w.fail("expected an array of bodies");
        if (list.size() > kMaxBodies)
            w.fail(std::to_string(list.size()) + " bodies; at most " + std::to_string(kMaxBodies));
        const std::filesystem::path folder = std::filesystem::path(source).parent_path();
        for (std::size_t i = 0; i < list.size(); ++i)
            f.bodies.push_back(body(list[i], w.index(i), folder));
        // Placed against the domain now, so a body outside it fails with the file's name.
        try {
            place_bodies(f.bodies, f.scene.domain);
        } catch (const Error& e) {
            top.fail(e.what());
        }
    }
    f.sources = sources(root, top, f);
    // Whatever the scene itself cannot start (a grid too large for the domain and radius)
    // fails here, with the file's name, instead of when a run starts.
    try {
        check_scene(f.scene, f.params, f.particles);
    } catch (const Error& e) {
        top.fail(e.what());
    }
    return f;
}

SceneFile load_scene_file(const std::filesystem::path& path) {
    return parse_scene_file(read_input_file(path, kMaxSceneFileBytes, "scene file"), path.string());
}

}  // namespace plab::sim
