#include "sim/io/scene_writer.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/core/error.h"
#include "sim/io/output_file.h"

namespace plab::sim {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// The shortest decimal that reads back to the same float, as a double (so the text shows
// 0.1, not 0.100000001490116).
double short_float(float v) {
    char text[32];
    for (int digits = 6; digits <= 9; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(v));
        if (std::strtof(text, nullptr) == v) break;
    }
    return std::strtod(text, nullptr);
}

bool differs(Vec3 a, Vec3 b) { return a.x != b.x || a.y != b.y || a.z != b.z; }

Json vec3(Vec3 v) { return Json::array({short_float(v.x), short_float(v.y), short_float(v.z)}); }

Json block_json(const ParticleBlock& b) {
    Json j;
    j["shape"] = b.shape == BlockShape::Sphere ? "sphere" : "box";
    j["min"] = vec3(b.min);
    j["max"] = vec3(b.max);
    j["spacing"] = short_float(b.spacing);
    if (b.jitter != 0.f) j["jitter"] = short_float(b.jitter);
    if (differs(b.velocity, Vec3{})) j["velocity"] = vec3(b.velocity);
    return j;
}

Json body_json(const Body& b, const fs::path& from, const fs::path& to) {
    Json j;
    j["type"] = std::string(body_shape_name(b.shape));
    switch (b.shape) {
        case BodyShape::Mesh: {
            // Relative to the new file where a relative path exists, else absolute.
            const fs::path mesh = fs::absolute(from / b.file).lexically_normal();
            const fs::path relative = mesh.lexically_relative(fs::absolute(to).lexically_normal());
            j["file"] = (relative.empty() ? mesh : relative).generic_string();
            break;
        }
        case BodyShape::Box:
            j["min"] = vec3(b.box_min);
            j["max"] = vec3(b.box_max);
            break;
        case BodyShape::Cylinder:
            j["center"] = vec3(b.center);
            j["axis"] = vec3(b.axis);
            j["radius"] = short_float(b.radius);
            j["length"] = short_float(b.length);
            break;
        case BodyShape::Plane:
            j["point"] = vec3(b.point);
            j["normal"] = vec3(b.normal);
            break;
    }
    if (differs(b.scale, Vec3{1.f, 1.f, 1.f})) j["scale"] = vec3(b.scale);
    if (differs(b.rotate_deg, Vec3{})) j["rotate"] = vec3(b.rotate_deg);
    if (differs(b.translate, Vec3{})) j["translate"] = vec3(b.translate);
    if (b.inside) j["inside"] = true;
    if (b.friction) j["friction"] = short_float(*b.friction);
    if (b.motion.spin_rpm != 0.f || differs(b.motion.velocity, Vec3{})) {
        Json m;
        m["spin_axis"] = vec3(b.motion.spin_axis);
        m["spin_center"] = vec3(b.motion.spin_center);
        m["spin_rpm"] = short_float(b.motion.spin_rpm);
        if (differs(b.motion.velocity, Vec3{})) m["velocity"] = vec3(b.motion.velocity);
        j["motion"] = m;
    }
    return j;
}

Json emitter_json(const Emitter& e) {
    Json j;
    j["shape"] = e.shape == EmitterShape::Rect ? "rect" : "disc";
    j["center"] = vec3(e.center);
    j["normal"] = vec3(e.normal);
    if (e.shape == EmitterShape::Rect) {
        j["size"] = Json::array({short_float(e.size.x), short_float(e.size.y)});
    } else {
        j["size"] = short_float(e.size.x);
    }
    j["speed"] = short_float(e.speed);
    if (e.rate > 0) j["rate"] = e.rate;
    if (e.flow > 0) j["flow"] = e.flow;
    if (e.start != 0) j["start"] = e.start;
    if (std::isfinite(e.stop)) j["stop"] = e.stop;
    return j;
}

}  // namespace

std::string scene_file_text(const SceneFile& f, const fs::path& from_folder,
                            const fs::path& to_folder) {
    Json root;
    root["name"] = f.name;
    if (!f.description.empty()) root["description"] = f.description;
    root["model"] = std::string(model_name(f.params.model));
    root["preset"] = std::string(preset_name(f.preset));
    // The parameters that differ from the preset's: the preset supplies the rest on reading.
    const Params preset = preset_params(f.preset);
    Json params = Json::object();
    for (const ParamInfo& info : param_table()) {
        const double v = info.get(f.params);
        if (v == info.get(preset)) continue;
        params[std::string(info.name)] =
            info.kind() == ParamKind::Int ? v : short_float(static_cast<float>(v));
    }
    if (!params.empty()) root["params"] = params;
    if (f.has_own_blocks) {
        root["domain"] = {{"min", vec3(f.scene.domain.min)}, {"max", vec3(f.scene.domain.max)}};
        Json blocks = Json::array();
        for (const ParticleBlock& b : f.scene.blocks) blocks.push_back(block_json(b));
        root["blocks"] = blocks;
    }
    root["particles"] = f.particles;
    if (!f.bodies.empty()) {
        Json bodies = Json::array();
        for (const Body& b : f.bodies) bodies.push_back(body_json(b, from_folder, to_folder));
        root["geometry"] = bodies;
    }
    if (!f.sources.emitters.empty()) {
        Json list = Json::array();
        for (const Emitter& e : f.sources.emitters) list.push_back(emitter_json(e));
        root["emitters"] = list;
    }
    if (!f.sources.sinks.empty()) {
        Json list = Json::array();
        for (const Sink& s : f.sources.sinks)
            list.push_back({{"min", vec3(s.min)}, {"max", vec3(s.max)}});
        root["sinks"] = list;
    }
    if (f.sources.max_particles > 0) root["max_particles"] = f.sources.max_particles;
    if (f.camera) {
        const SceneCamera& c = *f.camera;
        root["camera"] = {{"target", vec3(c.target)},
                          {"distance", short_float(c.distance)},
                          {"yaw", short_float(c.yaw_deg)},
                          {"pitch", short_float(c.pitch_deg)}};
    }
    return root.dump(2) + "\n";
}

void save_scene_file(const SceneFile& file, const fs::path& from_folder, const fs::path& path) {
    const fs::path folder = path.parent_path();
    if (!folder.empty()) make_folder(folder);
    const std::string text = scene_file_text(file, from_folder, folder.empty() ? "." : folder);
    // Checked before it replaces anything: a scene the reader refuses is not written.
    (void)parse_scene_file(text, path.string());
    write_whole_file(path, text);
}

}  // namespace plab::sim
