#include "sim/engine/source_outline.h"

#include <cmath>
#include <numbers>

#include "sim/engine/emission.h"

namespace plab::sim {

std::vector<Vec3> sink_outline_edges(const Sources& sources) {
    std::vector<Vec3> ends;
    for (const Sink& s : sources.sinks) {
        const Vec3 lo = s.min, hi = s.max;
        const auto corner = [&](int i) {
            return Vec3{i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z};
        };
        // Corners i and i with one bit flipped are joined: 12 edges.
        for (int i = 0; i < 8; ++i)
            for (const int bit : {1, 2, 4})
                if ((i & bit) == 0) {
                    ends.push_back(corner(i));
                    ends.push_back(corner(i | bit));
                }
    }
    return ends;
}

std::vector<Vec3> emitter_outline_edges(const Sources& sources, int sides) {
    std::vector<Vec3> ends;
    for (const Emitter& e : sources.emitters) {
        const float length = std::sqrt(length_squared(e.normal));
        if (!(length > 0.f)) continue;
        const Vec3 n = e.normal * (1.f / length);
        Vec3 a, b;
        face_axes(n, a, b);
        std::vector<Vec3> border;
        if (e.shape == EmitterShape::Disc) {
            const float r = 0.5f * e.size.x;
            for (int k = 0; k < sides; ++k) {
                const float t = 2.f * std::numbers::pi_v<float> * float(k) / float(sides);
                border.push_back(e.center + a * (r * std::cos(t)) + b * (r * std::sin(t)));
            }
        } else {
            const Vec3 u = a * (0.5f * e.size.x), v = b * (0.5f * e.size.y);
            border = {e.center - u - v, e.center + u - v, e.center + u + v, e.center - u + v};
        }
        for (std::size_t k = 0; k < border.size(); ++k) {
            ends.push_back(border[k]);
            ends.push_back(border[(k + 1) % border.size()]);
        }
        ends.push_back(e.center);
        ends.push_back(e.center + n * (0.5f * e.size.x));
    }
    return ends;
}

}  // namespace plab::sim
