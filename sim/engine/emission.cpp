#include "sim/engine/emission.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "sim/core/error.h"
#include "sim/model/bead_size.h"
#include "sim/model/grid.h"

namespace plab::sim {

void face_axes(Vec3 n, Vec3& a, Vec3& b) {
    const Vec3 ref = std::fabs(n.z) > 0.9f ? Vec3{1.f, 0.f, 0.f} : Vec3{0.f, 0.f, 1.f};
    a = cross(n, ref);
    a = a * (1.f / std::sqrt(length_squared(a)));
    b = cross(n, a);
}

namespace {

Vec3 unit(Vec3 v) { return v * (1.f / std::sqrt(length_squared(v))); }

// Lattice offsets along an axis of length `extent`: as many whole spacings as fit, centred.
std::vector<float> offsets(float extent, float spacing) {
    const int m = std::max(1, static_cast<int>(std::floor(extent / spacing + 1e-4f)));
    std::vector<float> out(m);
    for (int k = 0; k < m; ++k) out[k] = (float(k) - 0.5f * float(m - 1)) * spacing;
    return out;
}

// A small deterministic number in [−1, 1] from two counters (the DEM face's jitter).
float hashed_unit(std::uint64_t a, std::uint64_t b) {
    std::uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return float(double(x >> 11) / double(1ull << 52) - 1.0);
}

// Particles near points, by cell of `cell` m: is any within `reach` of x?
struct PointHash {
    float cell;
    std::unordered_map<std::uint64_t, std::vector<Vec3>> cells;

    std::uint64_t key(int i, int j, int k) const {
        return (std::uint64_t(std::uint32_t(i)) * 73856093ull) ^
               (std::uint64_t(std::uint32_t(j)) * 19349663ull) ^
               (std::uint64_t(std::uint32_t(k)) * 83492791ull);
    }
    int at(float x) const { return static_cast<int>(std::floor(x / cell)); }
    void add(Vec3 p) { cells[key(at(p.x), at(p.y), at(p.z))].push_back(p); }
    bool near(Vec3 x, float reach) const {
        const float r2 = reach * reach;
        for (int k = at(x.z) - 1; k <= at(x.z) + 1; ++k)
            for (int j = at(x.y) - 1; j <= at(x.y) + 1; ++j)
                for (int i = at(x.x) - 1; i <= at(x.x) + 1; ++i) {
                    const auto it = cells.find(key(i, j, k));
                    if (it == cells.end()) continue;
                    for (const Vec3& q : it->second)
                        if (length_squared(q - x) < r2) return true;
                }
        return false;
    }
};

// Keeps the particles `keep` says (true) in memory order; ids renumbered to stay a
// permutation: survivors in id order take 0 .. kept − 1. Frictional records follow, and
// partners that left are forgotten.
void remove_particles(InitialState& s, const std::vector<bool>& keep_slot) {
    const std::size_t n = s.pos.size();
    std::vector<bool> keep_id(n, true);
    for (std::size_t slot = 0; slot < n; ++slot)
        keep_id[s.order.empty() ? slot : s.order[slot]] = keep_slot[slot];
    std::vector<uint32_t> new_id(n, kFreeSlot);
    uint32_t next = 0;
    for (std::size_t id = 0; id < n; ++id)
        if (keep_id[id]) new_id[id] = next++;
    std::size_t w = 0;
    for (std::size_t slot = 0; slot < n; ++slot) {
        if (!keep_slot[slot]) continue;
        s.pos[w] = s.pos[slot];
        s.vel[w] = s.vel[slot];
        if (!s.order.empty()) s.order[w] = new_id[s.order[slot]];
        if (!s.pos_hi.empty()) s.pos_hi[w] = s.pos_hi[slot];
        if (!s.vel_hi.empty()) s.vel_hi[w] = s.vel_hi[slot];
        ++w;
    }
    s.pos.resize(w);
    s.vel.resize(w);
    if (!s.order.empty()) s.order.resize(w);
    if (!s.pos_hi.empty()) s.pos_hi.resize(w);
    if (!s.vel_hi.empty()) s.vel_hi.resize(w);
    // The frictional record is by id: keep the rows of kept ids, renumber the partners.
    for_each_friction_array(s.friction, [&](const char*, auto& array, std::size_t per) {
        if (array.empty()) return;
        std::size_t out = 0;
        for (std::size_t id = 0; id < n; ++id) {
            if (!keep_id[id]) continue;
            for (std::size_t k = 0; k < per; ++k) array[out * per + k] = array[id * per + k];
            ++out;
        }
        array.resize(out * per);
    });
    for (ContactSlot& c : s.friction.contacts)
        if (c.partner != kFreeSlot) c.partner = c.partner < n ? new_id[c.partner] : kFreeSlot;
}

// Appends one particle (the next id) at rest in every frictional array.
void append_particle(InitialState& s, Float4 pos, Float4 vel) {
    const auto id = static_cast<uint32_t>(s.pos.size());
    s.pos.push_back(pos);
    s.vel.push_back(vel);
    if (!s.order.empty()) s.order.push_back(id);
    if (!s.pos_hi.empty()) s.pos_hi.push_back(Double4{pos.x, pos.y, pos.z, pos.w});
    if (!s.vel_hi.empty()) s.vel_hi.push_back(Double4{vel.x, vel.y, vel.z, vel.w});
    for_each_friction_array(s.friction, [&](const char*, auto& array, std::size_t per) {
        if (array.empty()) return;
        using Entry = typename std::decay_t<decltype(array)>::value_type;
        for (std::size_t k = 0; k < per; ++k) array.push_back(Entry{});
    });
}

}  // namespace

float emission_spacing(const Params& p) {
    return p.model == Model::Sph ? 2.f * p.radius : 2.1f * p.radius * (1.f + p.radius_spread);
}

std::vector<Vec3> emitter_face(const Emitter& e, float spacing) {
    const Vec3 n = unit(e.normal);
    Vec3 a, b;
    face_axes(n, a, b);
    std::vector<Vec3> points;
    const bool disc = e.shape == EmitterShape::Disc;
    const float r2 = 0.25f * e.size.x * e.size.x * (1.f + 1e-4f);
    for (const float v : offsets(disc ? e.size.x : e.size.y, spacing))
        for (const float u : offsets(e.size.x, spacing)) {
            if (disc && u * u + v * v > r2) continue;
            points.push_back(e.center + a * u + b * v);
        }
    return points;
}

double face_rate(const Emitter& e, float spacing, std::size_t face_points) {
    return double(face_points) * e.speed / spacing;
}

double emitter_rate(const Emitter& e, float spacing, std::size_t face_points) {
    if (e.rate > 0) return e.rate;
    const double cell = double(spacing) * spacing * spacing;
    if (e.flow > 0) return e.flow / cell;
    return face_rate(e, spacing, face_points);
}

double emitter_owed(const Emitter& e, double rate, double t) {
    return t > e.start ? std::floor(rate * (std::min(t, e.stop) - e.start) + 1e-9) : 0.0;
}

double source_interval(const Sources& sources, float spacing) {
    double interval = kMaxSourceInterval;
    for (const Emitter& e : sources.emitters) {
        const std::size_t points = emitter_face(e, spacing).size();
        const double clear = double(spacing) / double(e.speed);
        const double rate = emitter_rate(e, spacing, points);
        const double face = rate > 0 ? double(points) / rate : clear;
        interval = std::min(interval, std::max(clear, face));
    }
    return interval;
}

SourceStep apply_sources(InitialState& state, const Sources& sources, const Params& params,
                         double t, SourceProgress& progress) {
    SourceStep step;
    progress.emitted.resize(sources.emitters.size(), 0);
    progress.next.resize(sources.emitters.size(), 0);
    const std::size_t n = state.pos.size();
    if (!sources.sinks.empty()) {
        std::vector<bool> keep(n, true);
        for (std::size_t slot = 0; slot < n; ++slot) {
            const Vec3 x = xyz(state.pos[slot]);
            for (const Sink& s : sources.sinks)
                if (domain_contains({s.min, s.max}, x, x)) {
                    keep[slot] = false;
                    ++step.sunk;
                    break;
                }
        }
        // A run holds at least one particle (the backends and the views need one): the
        // last to go stays.
        if (n > 0 && step.sunk == n) {
            keep[n - 1] = true;
            --step.sunk;
        }
        if (step.sunk > 0) remove_particles(state, keep);
        progress.sunk += step.sunk;
    }
    if (sources.emitters.empty()) return step;

    const float spacing = emission_spacing(params);
    // The particles near any face, to keep new ones off them.
    PointHash near{spacing, {}};
    std::vector<std::vector<Vec3>> faces;
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (const Emitter& e : sources.emitters) {
        faces.push_back(emitter_face(e, spacing));
        for (const Vec3& p : faces.back()) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
    }
    const Vec3 room{spacing, spacing, spacing};
    const Domain around{lo - room, hi + room};
    for (const Float4& q : state.pos)
        if (domain_contains(around, xyz(q), xyz(q))) near.add(xyz(q));
    const float reach = 0.9f * spacing;
    const bool liquid = params.model == Model::Sph;
    for (std::size_t i = 0; i < sources.emitters.size(); ++i) {
        const Emitter& e = sources.emitters[i];
        const std::vector<Vec3>& face = faces[i];
        if (t < e.start || face.empty()) continue;
        const double owed = emitter_owed(e, emitter_rate(e, spacing, face.size()), t);
        if (!(owed > double(progress.emitted[i]))) continue;
        const auto due = static_cast<std::uint64_t>(owed - double(progress.emitted[i]));
        progress.emitted[i] += due;  // laid, blocked or capped: never owed again
        const Vec3 dir = unit(e.normal);
        const Vec3 v = dir * e.speed;
        Vec3 across, up;  // the face's axes, for the beads' jitter
        face_axes(dir, across, up);
        std::uint64_t laid = 0;
        for (std::uint64_t tried = 0; laid < due && tried < face.size(); ++tried) {
            const std::size_t k = progress.next[i];
            progress.next[i] = (k + 1) % face.size();
            Vec3 x = face[k];
            if (!liquid) {
                // A jittered lattice: a twentieth of a spacing in the face's plane.
                const std::uint64_t serial = progress.emitted[i] + tried;
                x = x + across * (0.05f * spacing * hashed_unit(i, 2 * serial)) +
                    up * (0.05f * spacing * hashed_unit(i, 2 * serial + 1));
            }
            if (near.near(x, reach)) continue;
            if (sources.max_particles > 0 && state.pos.size() >= sources.max_particles) break;
            const auto id = static_cast<std::uint64_t>(state.pos.size());
            const float w = params.radius_spread > 0.f && !liquid
                                ? bead_deviation(id, 0u, params.radius_spread)
                                : 0.f;
            append_particle(state, to_float4(x, w),
                            to_float4(v, liquid ? params.rest_density : 0.f));
            near.add(x);
            ++laid;
        }
        // What was owed and not laid: no room left in the run, or on the face (its points
        // still taken, or more owed than it holds: a rate the speed cannot carry away).
        const bool full = sources.max_particles > 0 && state.pos.size() >= sources.max_particles;
        (full ? progress.capped : progress.blocked) += due - laid;
        step.emitted += laid;
    }
    return step;
}

}  // namespace plab::sim
