#include "sim/io/checkpoint.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <type_traits>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"
#include "sim/engine/host_state.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/io/checkpoint_content.h"
#include "sim/io/output_file.h"
#include "sim/model/presets.h"

namespace plab::sim {
namespace {

static_assert(std::endian::native == std::endian::little,
              "checkpoints are little-endian and written as the memory holds them");
static_assert(sizeof(Float4) == 16 && sizeof(Double4) == 32);
static_assert(sizeof(GeoTriangle) == 52, "a triangle is stored as its 13 four-byte fields");

constexpr std::uint32_t kFlagDoubleState = 1u;
constexpr std::uint32_t kFlagFriction = 2u;  // version 2 on
constexpr std::uint32_t kFlagGeometry = 4u;  // version 3 on
constexpr std::uint32_t kFlagSources = 8u;   // version 4 on
constexpr std::uint32_t kMaxFrictionArrays = 64;
constexpr std::uint32_t kMaxText = 4096;     // bytes of one string field
constexpr std::uint32_t kMaxEntries = 1024;  // parameters or variants in one file
constexpr std::size_t kChecksumBytes = 8;

std::uint64_t fnv1a64(const unsigned char* data, std::size_t n) {
    return checkpoint_checksum({reinterpret_cast<const std::byte*>(data), n});
}

std::string hex(std::uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
    return text;
}

class Writer {
  public:
    template <typename T>
    void put(const T& v) {
        bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void text(std::string_view s) {
        PLAB_REQUIRE(s.size() <= kMaxText, "checkpoint text field longer than 4096 bytes");
        put(static_cast<std::uint32_t>(s.size()));
        bytes_.append(s);
    }
    template <typename T>
    void array(const std::vector<T>& v) {
        bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    }
    std::string& bytes() { return bytes_; }

  private:
    std::string bytes_;
};

// Reads fields in order; running past the end is a truncated (or corrupted) file.
class Reader {
  public:
    Reader(std::span<const std::byte> bytes, std::string_view name)
        : data_(reinterpret_cast<const unsigned char*>(bytes.data())),
          size_(bytes.size()),
          name_(name) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(std::string(name_) + ": " + what);
    }
    void need(std::size_t n, std::string_view what) const {
        if (n > size_ - at_)
            fail("truncated: the file ends at byte " + std::to_string(size_) + " inside " +
                 std::string(what) + " (" + std::to_string(n) + " bytes needed at byte " +
                 std::to_string(at_) + ")");
    }
    template <typename T>
    T get(std::string_view what) {
        need(sizeof(T), what);
        T v;
        std::memcpy(&v, data_ + at_, sizeof v);
        at_ += sizeof v;
        return v;
    }
    std::string text(std::string_view what) {
        const auto n = get<std::uint32_t>(what);
        if (n > kMaxText)
            fail(std::string(what) + " is " + std::to_string(n) +
                 " bytes long, more than the 4096 allowed (corrupted)");
        need(n, what);
        std::string s(reinterpret_cast<const char*>(data_ + at_), n);
        at_ += n;
        return s;
    }
    void skip(std::size_t n) { at_ += n; }  // need()ed by the caller
    // What follows `end` (the checksum) is out of reach of get, text and need.
    void limit(std::size_t end) { size_ = end; }
    template <typename T>
    std::vector<T> array(std::size_t count) {
        std::vector<T> v(count);
        // Sizes checked by the caller. An empty vector's data() may be null, which memcpy may
        // not be given even for zero bytes.
        if (count > 0) std::memcpy(v.data(), data_ + at_, count * sizeof(T));
        at_ += count * sizeof(T);
        return v;
    }
    std::size_t at() const { return at_; }
    std::size_t size() const { return size_; }
    const unsigned char* data() const { return data_; }

  private:
    const unsigned char* data_;
    std::size_t size_;
    std::size_t at_ = 0;
    std::string_view name_;
};

std::string number_text(double v) {
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, v);
    return std::string(text, written.ptr);
}

// The parameters by name over the preset's (a file of an older version may lack some).
Params read_params(Reader& r, Model model, Preset preset, std::vector<std::string>& notes) {
    Params p = preset_params(preset);
    p.model = model;
    const auto count = r.get<std::uint32_t>("the parameter count");
    if (count > kMaxEntries)
        r.fail("parameter count " + std::to_string(count) + " is more than 1024 (corrupted)");
    bool wall_friction = false;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string name = r.text("a parameter name");
        const auto value = r.get<double>("parameter " + name);
        wall_friction = wall_friction || name == "wall_friction";
        if (!find_param(name)) {
            notes.push_back("skipped the parameter '" + name + "', which this version lacks");
            continue;
        }
        if (!std::isfinite(value))
            r.fail("parameter " + name + " = " + number_text(value) + " is not finite");
        try {
            set_param(p, name, number_text(value));
        } catch (const Error& e) {
            r.fail(e.what());
        }
    }
    if (!wall_friction && p.wall_friction != p.friction) {
        // Files from before the parameter: the walls had the grains' friction.
        notes.push_back("wall_friction set to friction (" + number_text(p.friction) +
                        "), as files without it ran");
        p.wall_friction = p.friction;
    }
    return p;
}

SimulatorOptions read_variants(Reader& r, std::vector<std::string>& notes) {
    SimulatorOptions o;
    const auto count = r.get<std::uint32_t>("the variant count");
    if (count > kMaxEntries)
        r.fail("variant count " + std::to_string(count) + " is more than 1024 (corrupted)");
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string name = r.text("a variant name");
        const std::string value = r.text("variant " + name);
        const VariantInfo* info = find_variant(name);
        if (!info) {
            notes.push_back("skipped the variant '" + name + "', which this version lacks");
            continue;
        }
        try {
            info->set(o, value);
        } catch (const Error& e) {
            r.fail(e.what());
        }
    }
    return o;
}

Domain read_domain(Reader& r) {
    float v[6];
    for (float& x : v) x = r.get<float>("the domain");
    const Domain d{{v[0], v[1], v[2]}, {v[3], v[4], v[5]}};
    for (int a = 0; a < 3; ++a) {
        if (!(std::isfinite(v[a]) && std::isfinite(v[a + 3]) && v[a] < v[a + 3]))
            r.fail("the domain is not a box (each min below its max, all finite)");
    }
    return d;
}

// The frictional section: each array of the record that holds anything, by name.
void write_friction(Writer& w, const FrictionRecord& f) {
    std::uint32_t count = 0;
    for_each_friction_array(
        f, [&](const char*, const auto& v, std::size_t) { count += v.empty() ? 0 : 1; });
    w.put(count);
    for_each_friction_array(f, [&](const char* name, const auto& v, std::size_t) {
        if (v.empty()) return;
        w.text(name);
        w.put(static_cast<std::uint64_t>(v.size() * sizeof(v[0])));
        w.array(v);
    });
}

// By name: an array this version lacks is skipped with a note, one the file lacks stays
// empty (restored as its default); a known one must hold exactly `n` particles' entries.
FrictionRecord read_friction(Reader& r, std::uint64_t n, std::vector<std::string>& notes) {
    FrictionRecord f;
    const auto count = r.get<std::uint32_t>("the frictional array count");
    if (count > kMaxFrictionArrays)
        r.fail("frictional array count " + std::to_string(count) + " is more than " +
               std::to_string(kMaxFrictionArrays) + " (corrupted)");
    std::vector<std::string> seen;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string name = r.text("a frictional array name");
        const std::string what = "the frictional array '" + name + "'";
        const auto bytes = r.get<std::uint64_t>(what);
        r.need(bytes, what);
        for (const std::string& s : seen)
            if (s == name) r.fail(what + " appears twice (corrupted)");
        seen.push_back(name);
        bool known = false;
        for_each_friction_array(f, [&](const char* key, auto& v, std::size_t per) {
            if (name != key) return;
            known = true;
            using T = typename std::decay_t<decltype(v)>::value_type;
            const std::uint64_t want = n * per * sizeof(T);
            if (bytes != want)
                r.fail(what + " is " + std::to_string(bytes) + " bytes; " + std::to_string(n) +
                       " particles need " + std::to_string(want) + " (corrupted)");
            v = r.array<T>(n * per);
        });
        if (!known) {
            notes.push_back("skipped the frictional array '" + name +
                            "', which this version lacks");
            r.skip(bytes);
        }
    }
    if (f.empty()) r.fail("the frictional section has no rotations (array 'omega'; corrupted)");
    return f;
}

// The geometry section: the bodies, then every triangle as placed in the world.
void write_geometry(Writer& w, const SceneGeometry& g) {
    w.put(static_cast<std::uint32_t>(g.bodies.size()));
    for (std::size_t i = 0; i < g.bodies.size(); ++i) {
        const GeoBody& b = g.bodies[i];
        w.text(i < g.body_names.size() ? g.body_names[i] : std::string());
        for (const Vec3 v : {b.velocity, b.spin_center, b.omega}) {
            w.put(v.x);
            w.put(v.y);
            w.put(v.z);
        }
        w.put(b.friction);
    }
    w.put(static_cast<std::uint32_t>(g.triangles.size()));
    w.array(g.triangles);
}

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

std::shared_ptr<const SceneGeometry> read_geometry(Reader& r) {
    auto g = std::make_shared<SceneGeometry>();
    const auto bodies = r.get<std::uint32_t>("the body count");
    if (bodies < 1 || bodies > kMaxBodies)
        r.fail("body count " + std::to_string(bodies) + " is not within 1 to " +
               std::to_string(kMaxBodies) + " (corrupted)");
    for (std::uint32_t i = 0; i < bodies; ++i) {
        const std::string what = "body " + std::to_string(i);
        GeoBody b;
        g->body_names.push_back(r.text(what + "'s name"));
        for (Vec3* v : {&b.velocity, &b.spin_center, &b.omega}) {
            v->x = r.get<float>(what);
            v->y = r.get<float>(what);
            v->z = r.get<float>(what);
        }
        b.friction = r.get<float>(what);
        if (!finite(b.velocity) || !finite(b.spin_center) || !finite(b.omega))
            r.fail(what + " has a non-finite velocity, spin centre or spin (corrupted)");
        if (!(b.friction == -1.f || (b.friction >= 0.f && b.friction <= 10.f)))
            r.fail(what + "'s friction " + number_text(b.friction) +
                   " is neither -1 (the walls') nor within [0, 10] (corrupted)");
        g->bodies.push_back(b);
    }
    const auto triangles = r.get<std::uint32_t>("the triangle count");
    if (triangles < 1 || triangles > kMaxMeshTriangles)
        r.fail("triangle count " + std::to_string(triangles) + " is not within 1 to " +
               std::to_string(kMaxMeshTriangles) + " (corrupted)");
    r.need(std::size_t{triangles} * sizeof(GeoTriangle), "the triangles");
    g->triangles = r.array<GeoTriangle>(triangles);
    for (std::size_t i = 0; i < g->triangles.size(); ++i) {
        const GeoTriangle& t = g->triangles[i];
        const std::string what = "triangle " + std::to_string(i);
        if (!finite(t.a) || !finite(t.b) || !finite(t.c))
            r.fail(what + " has a non-finite corner (corrupted)");
        if (!(length_squared(cross(t.b - t.a, t.c - t.a)) > 0.f))
            r.fail(what + " has no area (corrupted)");
        if (t.body >= bodies)
            r.fail(what + " belongs to body " + std::to_string(t.body) + " of " +
                   std::to_string(bodies) + " (corrupted)");
    }
    g->sides = liquid_sides(g->triangles, g->bodies.size());
    return g;
}

// The sources section: the emitters' counts and next face points, the sinks' count, what was
// blocked and capped, and when they apply next.
void write_sources(Writer& w, const SourceProgress& p, double next) {
    PLAB_REQUIRE(p.emitted.size() == p.next.size(), "checkpoint: the emitters' progress is torn");
    w.put(static_cast<std::uint32_t>(p.emitted.size()));
    for (std::size_t i = 0; i < p.emitted.size(); ++i) {
        w.put(p.emitted[i]);
        w.put(static_cast<std::uint64_t>(p.next[i]));
    }
    w.put(p.sunk);
    w.put(p.blocked);
    w.put(p.capped);
    w.put(next);
}

SourceProgress read_sources(Reader& r, double& next) {
    SourceProgress p;
    const auto emitters = r.get<std::uint32_t>("the emitter count");
    if (emitters > kMaxBodies)
        r.fail("emitter count " + std::to_string(emitters) + " is more than " +
               std::to_string(kMaxBodies));
    for (std::uint32_t i = 0; i < emitters; ++i) {
        p.emitted.push_back(r.get<std::uint64_t>("an emitter's count"));
        const auto point = r.get<std::uint64_t>("an emitter's next face point");
        if (point > kMaxParticles) r.fail("an emitter's next face point is past any face");
        p.next.push_back(static_cast<std::size_t>(point));
    }
    p.sunk = r.get<std::uint64_t>("the sinks' count");
    p.blocked = r.get<std::uint64_t>("the blocked count");
    p.capped = r.get<std::uint64_t>("the capped count");
    next = r.get<double>("the sources' next time");
    if (!std::isfinite(next) || next < 0)
        r.fail("the sources' next time " + number_text(next) + " is not a finite time >= 0");
    return p;
}

}  // namespace

std::uint64_t checkpoint_checksum(std::span<const std::byte> bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const std::byte b : bytes) {
        h ^= static_cast<std::uint8_t>(b);
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string encode_checkpoint(const Checkpoint& c) {
    const InitialState& s = c.state;
    const std::size_t n = s.pos.size();
    PLAB_REQUIRE(s.vel.size() == n && s.order.size() == n,
                 "checkpoint state: positions, velocities and memory order differ in size");
    const bool hi = !s.pos_hi.empty();
    PLAB_REQUIRE(!hi || (s.pos_hi.size() == n && s.vel_hi.size() == n),
                 "checkpoint state: the double-precision state does not hold every particle");
    const std::string friction_problem = friction_record_problem(s.friction, n);
    PLAB_REQUIRE(friction_problem.empty(), "checkpoint state: " + friction_problem);
    const bool friction = !s.friction.empty();
    const bool geometry = s.geometry && !s.geometry->empty();
    const bool sources = c.run.sources.has_value();
    Writer w;
    w.bytes().append(kCheckpointMagic);
    // The lowest version that holds what is written, so that a run without bodies or sources
    // stays readable by builds that read version 2.
    w.put(sources ? std::uint32_t{4} : geometry ? std::uint32_t{3} : std::uint32_t{2});
    w.put((hi ? kFlagDoubleState : 0u) | (friction ? kFlagFriction : 0u) |
          (geometry ? kFlagGeometry : 0u) | (sources ? kFlagSources : 0u));
    w.text(model_name(c.params.model));
    w.text(c.run.preset);
    w.text(c.run.scene);
    w.text(c.run.label);
    const auto params = param_table();
    w.put(static_cast<std::uint32_t>(params.size()));
    for (const ParamInfo& info : params) {
        w.text(info.name);
        w.put(info.get(c.params));
    }
    const auto variants = variant_table();
    w.put(static_cast<std::uint32_t>(variants.size()));
    for (const VariantInfo& info : variants) {
        w.text(info.name);
        w.text(info.text(c.run.options));
    }
    for (float x : {s.domain.min.x, s.domain.min.y, s.domain.min.z, s.domain.max.x, s.domain.max.y,
                    s.domain.max.z})
        w.put(x);
    w.put(c.run.steps);
    w.put(c.run.time);
    w.put(static_cast<std::uint64_t>(n));
    w.array(s.pos);
    w.array(s.vel);
    w.array(s.order);
    if (hi) {
        w.array(s.pos_hi);
        w.array(s.vel_hi);
    }
    if (geometry) write_geometry(w, *s.geometry);
    if (friction) write_friction(w, s.friction);
    if (sources) write_sources(w, *c.run.sources, c.run.next_sources);
    const std::string& b = w.bytes();
    w.put(fnv1a64(reinterpret_cast<const unsigned char*>(b.data()), b.size()));
    return std::move(w.bytes());
}

Checkpoint read_checkpoint(std::span<const std::byte> bytes, std::string_view name) {
    Reader r(bytes, name);
    if (bytes.size() < kCheckpointMagic.size() ||
        std::memcmp(bytes.data(), kCheckpointMagic.data(), kCheckpointMagic.size()) != 0)
        r.fail("not a Particle Lab checkpoint (it does not start with \"PLABCKPT\")");
    r.get<std::uint64_t>("the magic");
    const auto version = r.get<std::uint32_t>("the format version");
    if (version < 1 || version > kCheckpointVersion)
        r.fail("checkpoint format version " + std::to_string(version) + "; this build reads 1 to " +
               std::to_string(kCheckpointVersion));
    const auto flags = r.get<std::uint32_t>("the flags");
    const std::uint32_t known_flags = kFlagDoubleState | (version >= 2 ? kFlagFriction : 0u) |
                                      (version >= 3 ? kFlagGeometry : 0u) |
                                      (version >= 4 ? kFlagSources : 0u);
    if ((flags & ~known_flags) != 0)
        r.fail("unknown flags 0x" + hex(flags) + " for format version " + std::to_string(version) +
               " (corrupted, or from a later version)");
    const bool hi = (flags & kFlagDoubleState) != 0;
    const bool friction = (flags & kFlagFriction) != 0;
    const bool geometry = (flags & kFlagGeometry) != 0;
    const bool sources = (flags & kFlagSources) != 0;
    // Sections whose size is inside them (their counts) follow the particles.
    const bool sized_inside = friction || geometry || sources;

    Checkpoint c;
    const std::string model = r.text("the model");
    const std::string preset = r.text("the preset");
    c.run.preset = preset;
    c.run.scene = r.text("the scene file");
    c.run.label = r.text("the label");
    const auto known_model = find_enum(model_names(), model);
    if (!known_model)
        r.fail("model '" + model + "' is not one this build runs (" + enum_choices(model_names()) +
               ")");
    const auto known_preset = find_enum(preset_names(), preset);
    if (!known_preset)
        r.fail("preset '" + preset + "' is not one this build has (" +
               enum_choices(preset_names()) + ")");
    // A run keeps its preset's model from start to end (a scene file's model must match its
    // preset's), so a file that pairs them otherwise was not saved by a run.
    if (const Model runs = preset_params(*known_preset).model; runs != *known_model)
        r.fail("model '" + model + "' does not match preset '" + preset + "', which runs " +
               std::string(model_name(runs)) +
               ": a run keeps its preset's model, so no run saved this state (the file was "
               "edited, or damaged behind an intact checksum); it cannot continue");
    c.params = read_params(r, *known_model, *known_preset, c.notes);
    c.run.options = read_variants(r, c.notes);
    c.state.domain = read_domain(r);
    c.run.steps = r.get<std::uint64_t>("the step count");
    c.run.time = r.get<double>("the simulated time");
    const auto n = r.get<std::uint64_t>("the particle count");
    if (n > kMaxParticles)
        r.fail("particle count " + std::to_string(n) + " is more than " +
               std::to_string(kMaxParticles));
    // Sizes before any allocation: a corrupted count cannot ask for memory the file lacks.
    const std::uint64_t per_particle =
        2 * sizeof(Float4) + sizeof(std::uint32_t) + (hi ? 2 * sizeof(Double4) : 0);
    // The frictional and geometry sections' sizes are in the sections (at least their counts).
    const std::uint64_t expected =
        r.at() + n * per_particle + kChecksumBytes + (friction ? sizeof(std::uint32_t) : 0) +
        (geometry ? 2 * sizeof(std::uint32_t) : 0) + (sources ? sizeof(std::uint32_t) + 4 * 8 : 0);
    if (r.size() < expected)
        r.fail("truncated: " + std::to_string(r.size()) + " bytes, but its " + std::to_string(n) +
               " particles need " + std::string(sized_inside ? "at least " : "") +
               std::to_string(expected));
    if (!sized_inside && r.size() > expected)
        r.fail(std::to_string(r.size() - expected) + " bytes past the end of the checkpoint (" +
               std::to_string(expected) + " expected; corrupted)");
    std::uint64_t stored = 0;
    std::memcpy(&stored, r.data() + r.size() - kChecksumBytes, sizeof stored);
    const std::uint64_t computed = fnv1a64(r.data(), r.size() - kChecksumBytes);
    if (stored != computed)
        r.fail("checksum mismatch (stored " + hex(stored) + ", computed " + hex(computed) +
               "): the file is corrupted");
    if (!std::isfinite(c.run.time) || c.run.time < 0)
        r.fail("simulated time " + number_text(c.run.time) + " is not a finite time >= 0");
    c.state.pos = r.array<Float4>(n);
    c.state.vel = r.array<Float4>(n);
    c.state.order = r.array<std::uint32_t>(n);
    if (hi) {
        c.state.pos_hi = r.array<Double4>(n);
        c.state.vel_hi = r.array<Double4>(n);
    }
    if (sized_inside) {
        r.limit(r.size() - kChecksumBytes);
        if (geometry) c.state.geometry = read_geometry(r);
        if (friction) c.state.friction = read_friction(r, n, c.notes);
        if (sources) c.run.sources = read_sources(r, c.run.next_sources);
        if (r.at() != r.size())
            r.fail(std::to_string(r.size() - r.at()) + " bytes past the end of the " +
                   (sources    ? "sources"
                    : friction ? "frictional"
                               : "geometry") +
                   " section (corrupted)");
    }
    try {
        validate(c.params);
        c.state.grid = scene_grid(c.state.domain, c.params);
        check_captured_state(c.state);
    } catch (const Error& e) {
        r.fail(e.what());
    }
    if (const std::string why = content_problem(c.state, c.params); !why.empty()) r.fail(why);
    return c;
}

Checkpoint load_checkpoint(const std::filesystem::path& path) {
    const std::string bytes = read_input_file(path, kMaxCheckpointBytes, "checkpoint");
    return read_checkpoint(std::as_bytes(std::span(bytes.data(), bytes.size())), path.string());
}

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& checkpoint) {
    write_whole_file(path, encode_checkpoint(checkpoint));
}

void save_checkpoint(const std::filesystem::path& path, Simulator& simulator, const Params& params,
                     const RunDescription& run) {
    Checkpoint c;
    c.run = run;
    c.params = params;
    c.state = simulator.capture_state();
    write_checkpoint(path, c);
}

void restore_checkpoint(Simulator& simulator, const Checkpoint& checkpoint) {
    simulator.reset(checkpoint.state, checkpoint.params);
}

std::string checkpoint_file_name(std::uint64_t steps) {
    char name[48];
    std::snprintf(name, sizeof name, "step_%09llu.plab", static_cast<unsigned long long>(steps));
    return name;
}

}  // namespace plab::sim
