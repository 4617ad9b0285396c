// The grab tool on the CUDA backend (Simulator::pull): a kernel over the state between steps,
// on the simulator's stream, outside any captured step (a graph replays unchanged; the pull
// changes only velocities, which neither the grid's hash nor the lists' skin depend on).
#include <algorithm>
#include <vector>

#include "sim/cuda/cuda_simulator_impl.cuh"
#include "sim/physics/pull_spring.h"

namespace plab::sim::cuda {

namespace {

// `hi`: the double state holds the current state, and the step reads its velocities.
__global__ void pull_kernel(const Float4* __restrict__ pos, Float4* __restrict__ vel,
                            const Double4* __restrict__ pos_hi, Double4* __restrict__ vel_hi,
                            const uint32_t* __restrict__ id, uint32_t count,
                            const uint32_t* __restrict__ pulled, const Float4* __restrict__ offsets,
                            uint32_t pulled_count, Vec3 target, float k, float c, float dt) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const int at = find_pulled(pulled, pulled_count, id[i]);
    if (at < 0) return;
    const Vec3 goal = target + xyz(offsets[at]);
    if (vel_hi) {
        const Vec3 v =
            pulled_velocity(xyz(to_float4(vel_hi[i])), xyz(to_float4(pos_hi[i])), goal, k, c, dt);
        vel_hi[i] = {v.x, v.y, v.z, vel_hi[i].w};
    }
    const Float4 old = vel[i];
    vel[i] = to_float4(pulled_velocity(xyz(old), xyz(pos[i]), goal, k, c, dt), old.w);
}

bool same_float4s(const std::vector<Float4>& a, const std::vector<Float4>& b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](Float4 p, Float4 q) {
               return p.x == q.x && p.y == q.y && p.z == q.z && p.w == q.w;
           });
}

}  // namespace

void CudaSimulator::pull(const ParticlePull& pull, float seconds) {
    check_pull(pull);
    Impl& m = *impl_;
    if (m.count == 0 || pull.ids.empty()) return;
    cudaStream_t s = m.stream.get();
    std::vector<Float4> offsets(pull.offsets.size());
    std::transform(pull.offsets.begin(), pull.offsets.end(), offsets.begin(),
                   [](Vec3 v) { return to_float4(v); });
    if (pull.ids != m.pull_ids_held || !same_float4s(offsets, m.pull_offsets_held)) {
        m.pull_ids_held = pull.ids;
        m.pull_offsets_held = std::move(offsets);
        m.pull_ids.resize(m.pull_ids_held.size());
        m.pull_offsets.resize(m.pull_offsets_held.size());
        m.pull_ids.upload(m.pull_ids_held, s);
        m.pull_offsets.upload(m.pull_offsets_held, s);
    }
    ParticleArrays& a = m.particles;
    pull_kernel<<<blocks_for(m.count, 256), 256, 0, s>>>(
        a.pos.data(), a.vel.data(), a.hi_active ? a.pos_hi.data() : nullptr,
        a.hi_active ? a.vel_hi.data() : nullptr, a.id.data(), m.count, m.pull_ids.data(),
        m.pull_offsets.data(), static_cast<uint32_t>(pull.ids.size()), pull.target, pull.stiffness,
        pull.damping, seconds);
    m.check_launch();
}

}  // namespace plab::sim::cuda
