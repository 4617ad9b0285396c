#include "sim/io/stl_file.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/core/input_limits.h"
#include "sim/io/mesh_builder.h"
#include "sim/io/output_file.h"

namespace plab::sim {
namespace {

constexpr std::size_t kHeaderBytes = 80;
constexpr std::size_t kBinaryTriangleBytes = 50;  // normal, three corners (12 floats), u16

float read_f32(const std::byte* p) {
    float f;
    std::memcpy(&f, p, 4);  // little-endian, as the format and x86-64 are
    return f;
}

TriangleMesh read_binary(std::span<const std::byte> bytes, uint32_t count, std::string_view name) {
    MeshBuilder w;
    w.mesh.triangles.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        const std::byte* t =
            bytes.data() + kHeaderBytes + 4 + std::size_t{i} * kBinaryTriangleBytes;
        std::array<Vec3, 3> c;
        for (int k = 0; k < 3; ++k)
            c[k] = {read_f32(t + 12 + 12 * k), read_f32(t + 16 + 12 * k),
                    read_f32(t + 20 + 12 * k)};
        w.add(c, name);
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
    MeshBuilder w;
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
        w.add(c, name);
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
