#pragma once
// A body of the scene's geometry as a scene file describes it: a triangle mesh (STL) or a
// primitive (box, cylinder, plane), placed by scale, rotation and translation, with the
// friction of its surface and a prescribed motion. Every body becomes triangles
// (body_surface), so both contact laws and both backends meet one kind of surface.
//
// Motion gives the surface its velocity (the contact uses it); the shape itself stays put.
// That is exact for the motions that map the body onto itself: a cylinder spinning about its
// own axis (a rotating drum) and a plane sliding along itself or spinning about its normal (a
// conveyor, a turntable). Other motions would move the triangles every step and are refused
// (check_body) until moving triangles are supported.
#include <optional>
#include <string>
#include <string_view>

#include "sim/core/vec.h"
#include "sim/geometry/triangle_mesh.h"
#include "sim/model/grid.h"

namespace plab::sim {

enum class BodyShape { Mesh, Box, Cylinder, Plane };

// mesh, box, cylinder, plane.
std::string_view body_shape_name(BodyShape shape);

struct BodyMotion {
    Vec3 spin_axis{0.f, 1.f, 0.f};  // any length but 0
    Vec3 spin_center;               // m, a point on the spin axis
    float spin_rpm = 0.f;           // revolutions a minute, right-handed about spin_axis
    Vec3 velocity;                  // m/s

    bool moves() const;
    // rad/s, along the unit spin axis.
    Vec3 omega() const;
};

struct Body {
    BodyShape shape = BodyShape::Box;
    std::string file;                   // mesh: the path as the scene file wrote it
    TriangleMesh mesh;                  // mesh: as read from `file`, before the placement
    Vec3 box_min, box_max;              // box, m
    Vec3 center, axis{0.f, 1.f, 0.f};   // cylinder: middle of the axis, direction
    float radius = 0.f, length = 0.f;   // cylinder, m (length end to end)
    Vec3 point, normal{0.f, 1.f, 0.f};  // plane
    Vec3 scale{1.f, 1.f, 1.f}, rotate_deg, translate;  // placement: scale, rotate, translate
    bool inside = false;                               // particles live inside it (a drum, a tank)
    std::optional<float> friction;                     // μ_s, else the run's wall_friction
    BodyMotion motion;
};

// Sides of the polygon a cylinder is drawn with: its flat sides lie within 0.054% of the
// radius of the true surface.
inline constexpr int kCylinderSides = 96;

// The body's surface in world space: its mesh or its primitive cut into triangles (a
// cylinder with its two end caps; a plane as a square centred on the domain's centre and
// twice its diagonal wide, so it crosses the whole domain), scaled, rotated about x, then y,
// then z (degrees), then translated.
TriangleMesh body_surface(const Body& body, const Domain& domain);

// The middle of the body's shape before its placement: a box's or a mesh's bounds' centre, a
// cylinder's centre, a plane's point (the window drags a body by it).
Vec3 body_middle(const Body& body);

// Places a point as body_surface places the body's vertices; a surface normal is scaled by
// the inverse scale (so it stays normal) and rotated, not normalised.
Vec3 place_point(const Body& body, Vec3 p);
Vec3 place_normal(const Body& body, Vec3 n);

// Throws plab::Error (without a prefix: the caller names the body) when the body cannot run:
// a placed surface that misses the domain entirely, a motion that would move its shape (see
// the top of this file), an `inside` body whose surface is open (its count of open edges), a
// surface of no triangles.
void check_body(const Body& body, const TriangleMesh& surface, const Domain& domain);

}  // namespace plab::sim
