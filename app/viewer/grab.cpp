#include "app/viewer/grab.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "app/viewer/brush.h"

namespace plab::app {

std::optional<Grab> grab_particles(const sim::InitialState& state, glm::vec3 origin,
                                   glm::vec3 direction, glm::vec3 view, float radius) {
    const std::optional<glm::vec3> hit = first_on_ray(state.pos, origin, direction, radius);
    if (!hit) return std::nullopt;
    struct Near {
        float d2;
        uint32_t id;
        glm::vec3 offset;
    };
    std::vector<Near> near;
    for (std::size_t i = 0; i < state.pos.size(); ++i) {
        const glm::vec3 offset = glm::vec3(state.pos[i].x, state.pos[i].y, state.pos[i].z) - *hit;
        const float d2 = glm::dot(offset, offset);
        if (d2 > radius * radius) continue;
        // A capture lists ids by memory slot; a fresh state is in id order.
        const auto id = state.order.empty() ? static_cast<uint32_t>(i) : state.order[i];
        near.push_back({d2, id, offset});
    }
    if (near.size() > sim::kMaxPulledParticles) {
        std::nth_element(near.begin(), near.begin() + sim::kMaxPulledParticles, near.end(),
                         [](const Near& a, const Near& b) { return a.d2 < b.d2; });
        near.resize(sim::kMaxPulledParticles);
    }
    std::sort(near.begin(), near.end(), [](const Near& a, const Near& b) { return a.id < b.id; });
    Grab g;
    g.plane_normal = view;
    g.pull.target = {hit->x, hit->y, hit->z};
    for (const Near& n : near) {
        g.pull.ids.push_back(n.id);
        g.pull.offsets.push_back({n.offset.x, n.offset.y, n.offset.z});
    }
    return g;
}

glm::vec3 grab_point(const Grab& grab, glm::vec3 origin, glm::vec3 direction) {
    const glm::vec3 target{grab.pull.target.x, grab.pull.target.y, grab.pull.target.z};
    const float across = glm::dot(direction, grab.plane_normal);
    if (std::abs(across) < 1e-6f) return target;
    const float along = glm::dot(target - origin, grab.plane_normal) / across;
    return origin + along * direction;
}

}  // namespace plab::app
