#include "sim/model/block_lattice.h"

#include <algorithm>
#include <cmath>

#include "sim/core/input_limits.h"

namespace plab::sim {
namespace {

// The sphere's centre and radius as the inside test computes them (float).
struct Ball {
    Vec3 c;
    float r = 0;
};

Ball ball_of(const ParticleBlock& b) {
    const Vec3 c = (b.min + b.max) * 0.5f;
    const Vec3 half = (b.max - b.min) * 0.5f;
    return {c, std::fmin(half.x, std::fmin(half.y, half.z))};
}

bool inside_shape(const ParticleBlock& b, Vec3 p) {
    if (b.shape == BlockShape::Box) return true;
    const Ball s = ball_of(b);
    return length_squared(p - s.c) <= s.r * s.r;
}

// Coordinate of lattice index i along one axis: the same float expression as lattice_point.
float coord(float lo, float spacing, uint64_t i) {
    return lo + spacing * (static_cast<float>(i) + 0.5f);
}

// Clamps a double index estimate into [lo, hi] before converting it (NaN gives lo).
uint64_t to_index(double v, uint64_t lo, uint64_t hi) {
    if (!(v > static_cast<double>(lo))) return lo;
    if (v >= static_cast<double>(hi)) return hi;
    return static_cast<uint64_t>(v);
}

// The first t in [lo, hi] with pred(t), for a predicate that is false and then true on
// [lo, hi], taken as true at hi without asking it there. Gallops from `guess`, then bisects:
// O(log distance) evaluations, a few when the guess is close.
template <typename Pred>
uint64_t first_true(uint64_t lo, uint64_t hi, uint64_t guess, Pred&& pred) {
    guess = std::clamp(guess, lo, hi);
    uint64_t a = lo, b = hi;  // the answer lies in [a, b]
    if (guess == hi || pred(guess)) {
        b = guess;
        for (uint64_t step = 1; b > lo; step *= 2) {
            const uint64_t t = b - std::min(step, b - lo);
            if (!pred(t)) {
                a = t + 1;
                break;
            }
            b = t;
        }
    } else {
        a = guess + 1;
        for (uint64_t step = 1; a < b; step *= 2) {
            const uint64_t t = std::min(a + step - 1, b - 1);
            if (pred(t)) {
                b = t;
                break;
            }
            a = t + 1;
        }
    }
    while (a < b) {
        const uint64_t m = a + (b - a) / 2;
        if (pred(m)) {
            b = m;
        } else {
            a = m + 1;
        }
    }
    return b;
}

// The index whose coordinate is nearest `centre` on an axis of n ≥ 1 points (coordinates
// grow with the index, so a bisection finds it).
uint64_t nearest_index(float lo, float spacing, uint64_t n, float centre) {
    const uint64_t j =
        first_true(0, n, n / 2, [&](uint64_t i) { return coord(lo, spacing, i) >= centre; });
    if (j == 0) return 0;
    if (j == n) return n - 1;
    const float below = std::fabs(coord(lo, spacing, j - 1) - centre);
    const float above = std::fabs(coord(lo, spacing, j) - centre);
    return below <= above ? j - 1 : j;
}

// The squared distance of a point to the centre only grows away from the nearest index on
// each axis (float rounding is monotonic), so the points inside form one interval on every
// line of the lattice: slabs along z, rows along y within a slab, points along x within a
// row. Each interval holds the nearest index and is found by first_true from both sides,
// guessed from the sphere's equation in double.
class SphereRows {
  public:
    SphereRows(const ParticleBlock& b, LatticeDims d) : b_(b), d_(d), ball_(ball_of(b)) {
        centre_[0] = nearest_index(b.min.x, b.spacing, d.x, ball_.c.x);
        centre_[1] = nearest_index(b.min.y, b.spacing, d.y, ball_.c.y);
        centre_[2] = nearest_index(b.min.z, b.spacing, d.z, ball_.c.z);
    }

    void visit(const std::function<bool(const LatticeRow&)>& row) const {
        const uint64_t cx = centre_[0], cy = centre_[1], cz = centre_[2];
        if (!in(cx, cy, cz)) return;
        const double r = ball_.r;
        const Interval zs = interval(2, d_.z, r, [&](uint64_t z) { return in(cx, cy, z); });
        for (uint64_t z = zs.first; z < zs.end; ++z) {
            const double dz = static_cast<double>(coord(b_.min.z, b_.spacing, z)) - ball_.c.z;
            const double rz = std::sqrt(std::max(0.0, r * r - dz * dz));
            const Interval ys = interval(1, d_.y, rz, [&](uint64_t y) { return in(cx, y, z); });
            for (uint64_t y = ys.first; y < ys.end; ++y) {
                const double dy = static_cast<double>(coord(b_.min.y, b_.spacing, y)) - ball_.c.y;
                const double ry = std::sqrt(std::max(0.0, rz * rz - dy * dy));
                const Interval xs = interval(0, d_.x, ry, [&](uint64_t x) { return in(x, y, z); });
                if (!row({y, z, xs.first, xs.end})) return;
            }
        }
    }

  private:
    struct Interval {
        uint64_t first = 0, end = 0;
    };

    bool in(uint64_t x, uint64_t y, uint64_t z) const {
        return inside_shape(b_, lattice_point(b_, x, y, z));
    }

    // The indices along `axis` (n points) where `inside` holds, given it holds at the centre
    // index; `half_width` (m) is the estimated reach of the sphere on this line.
    template <typename Inside>
    Interval interval(int axis, uint64_t n, double half_width, Inside&& inside) const {
        const float lo = axis == 0 ? b_.min.x : axis == 1 ? b_.min.y : b_.min.z;
        const float c = axis == 0 ? ball_.c.x : axis == 1 ? ball_.c.y : ball_.c.z;
        const double s = b_.spacing;
        const double centre = (static_cast<double>(c) - lo) / s - 0.5;  // fractional index
        const double w = half_width / s;
        const uint64_t mid = centre_[axis];
        const uint64_t first = first_true(0, mid, to_index(std::ceil(centre - w), 0, mid), inside);
        const uint64_t end = first_true(mid + 1, n, to_index(std::floor(centre + w) + 1, 0, n),
                                        [&](uint64_t i) { return !inside(i); });
        return {first, end};
    }

    const ParticleBlock& b_;
    LatticeDims d_;
    Ball ball_;
    uint64_t centre_[3] = {};
};

}  // namespace

LatticeDims lattice_dims(const ParticleBlock& b) {
    if (!(b.spacing > 0.f)) return {};
    auto n = [&](float lo, float hi) -> uint64_t {
        const double cells = std::floor((static_cast<double>(hi) - lo) / b.spacing + 1e-4);
        if (!(cells > 0)) return 0;  // NaN too
        // Compared in double before the conversion, which would be undefined past 2^64.
        if (cells > static_cast<double>(kMaxLatticeAxis)) return kMaxLatticeAxis + 1;
        return static_cast<uint64_t>(cells);
    };
    return {n(b.min.x, b.max.x), n(b.min.y, b.max.y), n(b.min.z, b.max.z)};
}

Vec3 lattice_point(const ParticleBlock& b, uint64_t ix, uint64_t iy, uint64_t iz) {
    return {coord(b.min.x, b.spacing, ix), coord(b.min.y, b.spacing, iy),
            coord(b.min.z, b.spacing, iz)};
}

void for_each_row(const ParticleBlock& b, const std::function<bool(const LatticeRow&)>& row) {
    const LatticeDims d = lattice_dims(b);
    if (d.x == 0 || d.y == 0 || d.z == 0) return;
    if (b.shape == BlockShape::Sphere) {
        SphereRows(b, d).visit(row);
        return;
    }
    for (uint64_t z = 0; z < d.z; ++z)
        for (uint64_t y = 0; y < d.y; ++y)
            if (!row({y, z, 0, d.x})) return;
}

uint64_t block_capacity(const ParticleBlock& b, uint64_t limit) {
    const LatticeDims d = lattice_dims(b);
    if (b.shape == BlockShape::Box) {
        // Exact in double below 2^53, far above any limit.
        const double n =
            static_cast<double>(d.x) * static_cast<double>(d.y) * static_cast<double>(d.z);
        return n >= static_cast<double>(limit) ? limit : static_cast<uint64_t>(n);
    }
    uint64_t n = 0;
    for_each_row(b, [&](const LatticeRow& r) {
        n += r.end_x - r.first_x;
        return n < limit;
    });
    return std::min(n, limit);
}

}  // namespace plab::sim
