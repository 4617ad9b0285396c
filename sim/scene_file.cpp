#include "sim/scene_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "sim/error.h"

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

std::string text(const Json& v, const Where& where) {
    if (!v.is_string()) where.fail("expected a string, got " + std::string(v.type_name()));
    return v.get<std::string>();
}

Vec3 vec3(const Json& v, const Where& where) {
    if (!v.is_array() || v.size() != 3) where.fail("expected an array of 3 numbers");
    return {static_cast<float>(number(v[0], where.index(0))),
            static_cast<float>(number(v[1], where.index(1))),
            static_cast<float>(number(v[2], where.index(2)))};
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
    b.spacing = static_cast<float>(number(v["spacing"], where.at("spacing")));
    if (!(b.spacing > 0.f)) where.at("spacing").fail("must be positive (m)");
    if (v.contains("jitter")) {
        b.jitter = static_cast<float>(number(v["jitter"], where.at("jitter")));
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
    c.distance = static_cast<float>(number(v["distance"], where.at("distance")));
    if (!(c.distance > 0.f)) where.at("distance").fail("must be positive (m)");
    c.yaw_deg = static_cast<float>(number(v["yaw"], where.at("yaw")));
    c.pitch_deg = static_cast<float>(number(v["pitch"], where.at("pitch")));
    if (!(c.pitch_deg > -89.f && c.pitch_deg < 89.f))
        where.at("pitch").fail("must be within (-89, 89) degrees");
    return c;
}

// Line and column of a byte offset, for JSON syntax errors.
std::string line_and_column(std::string_view s, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < s.size(); ++i) {
        if (s[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

SceneFile parse_scene_file(std::string_view json_text, const std::string& source) {
    Json root;
    try {
        root = Json::parse(json_text.begin(), json_text.end());
    } catch (const Json::parse_error& e) {
        // e.byte is one past the offending character.
        const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
        std::string what = e.what();
        const auto colon = what.rfind(": ");
        if (colon != std::string::npos) what = what.substr(colon + 2);
        throw Error(source + ":" + line_and_column(json_text, at) + ": invalid JSON: " + what);
    }
    const Where top{source, ""};
    require_only_keys(root, top,
                      {"name", "description", "model", "preset", "params", "domain", "blocks",
                       "particles", "camera"});

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
        }
    }

    if (root.contains("camera")) f.camera = camera(root["camera"], top.at("camera"));

    const bool has_blocks = root.contains("blocks");
    if (root.contains("particles")) {
        const Json& n = root["particles"];
        if (!n.is_number_integer() || n.get<long long>() < 0)
            top.at("particles").fail("expected a whole number of particles, 0 or more");
        f.particles = n.get<std::size_t>();
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
        for (std::size_t i = 0; i < blocks.size(); ++i)
            f.scene.blocks.push_back(block(blocks[i], top.at("blocks").index(i)));
        f.has_own_blocks = true;
        const std::size_t capacity = scene_capacity(f.scene);
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
    return f;
}

SceneFile load_scene_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string() + ": cannot open the scene file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw Error(path.string() + ": cannot read the scene file");
    return parse_scene_file(text.str(), path.string());
}

}  // namespace plab::sim
