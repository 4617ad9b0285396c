#include "sim/io/stl_file.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"
#include "sim/io/output_file.h"

namespace plab::sim {
namespace {

constexpr std::size_t kHeaderBytes = 80;
constexpr std::size_t kBinaryTriangleBytes = 50;  // normal, three corners (12 floats), u16

// Corners welded by their exact bits (-0 counted as +0): an STL repeats each shared corner.
struct Welder {
    struct Hash {
        std::size_t operator()(const std::array<uint32_t, 3>& k) const {
            return (std::size_t{k[0]} * 0x9e3779b97f4a7c15ull) ^ (std::size_t{k[1]} << 21) ^
                   (std::size_t{k[2]} * 0xbf58476d1ce4e5b9ull);
        }
    };
    std::unordered_map<std::array<uint32_t, 3>, uint32_t, Hash> index;
    TriangleMesh mesh;

    uint32_t vertex(Vec3 v) {
        v = {v.x + 0.f, v.y + 0.f, v.z + 0.f};
        const std::array<uint32_t, 3> key{std::bit_cast<uint32_t>(v.x),
                                          std::bit_cast<uint32_t>(v.y),
                                          std::bit_cast<uint32_t>(v.z)};
        const auto [it, fresh] = index.try_emplace(key, uint32_t(mesh.vertices.size()));
        if (fresh) mesh.vertices.push_back(v);
        return it->second;
    }
};

// Throws when a corner is not finite or too far out, or the triangle has no area: its sides
// are parallel to within 1e-10 rad (or a corner repeats).
void check_triangle(const std::array<Vec3, 3>& c, std::size_t index, std::string_view name) {
    const std::string where = std::string(name) + ": triangle " + std::to_string(index);
    for (const Vec3& v : c)
        for (const float x : {v.x, v.y, v.z}) {
            PLAB_REQUIRE(std::isfinite(x), where + " has a corner that is not a finite number");
            PLAB_REQUIRE(std::fabs(x) <= kMaxMeshCoordinate,
                         where + format_numbers(" has a corner at %g m, beyond the limit of %g m",
                                                double(x), kMaxMeshCoordinate));
        }
    const double ux = double(c[1].x) - c[0].x, uy = double(c[1].y) - c[0].y,
                 uz = double(c[1].z) - c[0].z;
    const double vx = double(c[2].x) - c[0].x, vy = double(c[2].y) - c[0].y,
                 vz = double(c[2].z) - c[0].z;
    const double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const double cross = std::sqrt(cx * cx + cy * cy + cz * cz);
    const double longest = std::max(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz);
    PLAB_REQUIRE(cross > 1e-10 * longest && cross > 0,
                 where + " has no area (a corner repeats, or its corners lie on one line)");
}

void add_triangle(Welder& w, const std::array<Vec3, 3>& c, std::string_view name) {
    check_triangle(c, w.mesh.triangles.size(), name);
    w.mesh.triangles.push_back({w.vertex(c[0]), w.vertex(c[1]), w.vertex(c[2])});
}

float read_f32(const std::byte* p) {
    float f;
    std::memcpy(&f, p, 4);  // little-endian, as the format and x86-64 are
    return f;
}

TriangleMesh read_binary(std::span<const std::byte> bytes, uint32_t count, std::string_view name) {
    Welder w;
    w.mesh.triangles.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        const std::byte* t =
            bytes.data() + kHeaderBytes + 4 + std::size_t{i} * kBinaryTriangleBytes;
        std::array<Vec3, 3> c;
        for (int k = 0; k < 3; ++k)
            c[k] = {read_f32(t + 12 + 12 * k), read_f32(t + 16 + 12 * k),
                    read_f32(t + 20 + 12 * k)};
        add_triangle(w, c, name);
    }
    return std::move(w.mesh);
}

// Whitespace-separated words of the ASCII form, with the line each starts on.
struct Words {
    std::string_view text;
    std::size_t pos = 0, line = 1;

    std::string_view next() {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) {
            if (text[pos] == '\n') ++line;
            ++pos;
        }
        const std::size_t start = pos;
        while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
        return text.substr(start, pos - start);
    }
    void skip_line() {
        while (pos < text.size() && text[pos] != '\n') ++pos;
    }
};

TriangleMesh read_ascii(std::string_view text, std::string_view name) {
    Words words{text};
    const auto where = [&] { return std::string(name) + ":" + std::to_string(words.line) + ": "; };
    const auto expect = [&](std::string_view word) {
        const std::string_view got = words.next();
        PLAB_REQUIRE(got == word, where() + "expected '" + std::string(word) + "', found '" +
                                      std::string(got.substr(0, 40)) + "'");
    };
    const auto number = [&] {
        const std::string_view got = words.next();
        float v = 0;
        const auto [end, ec] = std::from_chars(got.data(), got.data() + got.size(), v);
        PLAB_REQUIRE(ec == std::errc() && end == got.data() + got.size() && !got.empty(),
                     where() + "expected a number, found '" + std::string(got.substr(0, 40)) + "'");
        return v;
    };
    expect("solid");
    words.skip_line();  // the solid's name
    Welder w;
    for (;;) {
        const std::string_view word = words.next();
        if (word == "endsolid") break;
        PLAB_REQUIRE(!word.empty(), where() + "the file ends without 'endsolid'");
        PLAB_REQUIRE(word == "facet", where() + "expected 'facet' or 'endsolid', found '" +
                                          std::string(word.substr(0, 40)) + "'");
        PLAB_REQUIRE(
            w.mesh.triangles.size() < kMaxMeshTriangles,
            std::string(name) + ": more than " + std::to_string(kMaxMeshTriangles) + " triangles");
        expect("normal");
        for (int k = 0; k < 3; ++k) (void)number();  // recomputed from the corners
        expect("outer");
        expect("loop");
        std::array<Vec3, 3> c;
        for (Vec3& v : c) {
            expect("vertex");
            v.x = number();
            v.y = number();
            v.z = number();
        }
        expect("endloop");
        expect("endfacet");
        add_triangle(w, c, name);
    }
    return std::move(w.mesh);
}

}  // namespace

TriangleMesh read_stl(std::span<const std::byte> bytes, std::string_view name) {
    const std::string file(name);
    PLAB_REQUIRE(!bytes.empty(), file + ": empty file (an STL mesh)");
    TriangleMesh mesh;
    uint32_t count = 0;
    if (bytes.size() >= kHeaderBytes + 4) std::memcpy(&count, bytes.data() + kHeaderBytes, 4);
    const bool binary =
        bytes.size() >= kHeaderBytes + 4 &&
        bytes.size() == kHeaderBytes + 4 + std::size_t{count} * kBinaryTriangleBytes;
    if (binary) {
        PLAB_REQUIRE(count <= kMaxMeshTriangles, file + ": " + std::to_string(count) +
                                                     " triangles, more than the limit of " +
                                                     std::to_string(kMaxMeshTriangles));
        mesh = read_binary(bytes, count, name);
    } else {
        const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        const std::size_t first = text.find_first_not_of(" \t\r\n");
        if (first == std::string_view::npos || text.substr(first, 5) != "solid") {
            const std::string expected =
                bytes.size() >= kHeaderBytes + 4
                    ? "; as binary its header counts " + std::to_string(count) +
                          " triangles, which take " +
                          std::to_string(kHeaderBytes + 4 +
                                         std::size_t{count} * kBinaryTriangleBytes) +
                          " bytes, and the file has " + std::to_string(bytes.size())
                    : "";
            throw Error(file +
                        ": not an STL mesh: neither binary (80-byte header, a triangle count, "
                        "50 bytes a triangle) nor ASCII (starting with 'solid')" +
                        expected);
        }
        mesh = read_ascii(text, name);
    }
    PLAB_REQUIRE(!mesh.triangles.empty(), file + ": the mesh holds no triangles");
    return mesh;
}

TriangleMesh load_stl(const std::filesystem::path& path) {
    const std::string bytes = read_input_file(path, kMaxMeshFileBytes, "an STL mesh");
    return read_stl(std::as_bytes(std::span(bytes.data(), bytes.size())), path.string());
}

std::string encode_stl(const TriangleMesh& mesh, std::string_view header) {
    std::string out(kHeaderBytes, '\0');
    std::memcpy(out.data(), header.data(), std::min(header.size(), kHeaderBytes));
    const auto put = [&out](const void* p, std::size_t n) {
        out.append(static_cast<const char*>(p), n);
    };
    const auto count = static_cast<uint32_t>(mesh.triangles.size());
    put(&count, 4);
    for (const auto& t : mesh.triangles) {
        const Vec3 a = mesh.vertices[t[0]], b = mesh.vertices[t[1]], c = mesh.vertices[t[2]];
        const Vec3 u = b - a, v = c - a;
        Vec3 n{u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
        const float len = std::sqrt(length_squared(n));
        n = len > 0 ? n * (1.f / len) : Vec3{};
        const float values[12] = {n.x, n.y, n.z, a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z};
        put(values, sizeof values);
        const uint16_t attribute = 0;
        put(&attribute, 2);
    }
    return out;
}

void write_stl(const std::filesystem::path& path, const TriangleMesh& mesh) {
    write_whole_file(path, encode_stl(mesh));
}

}  // namespace plab::sim
