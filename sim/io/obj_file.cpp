#include "sim/io/obj_file.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "sim/core/input_limits.h"
#include "sim/io/mesh_builder.h"
#include "sim/io/stl_file.h"

namespace plab::sim {
namespace {

// Statements that carry nothing the contact needs.
constexpr std::array<std::string_view, 12> kIgnored = {"vt",     "vn",     "vp", "o", "g",  "s",
                                                       "usemtl", "mtllib", "l",  "p", "mg", "lod"};
// Free-form geometry, which would need evaluating into triangles.
constexpr std::array<std::string_view, 11> kFreeForm = {
    "cstype", "deg", "bmat", "step", "curv", "curv2", "surf", "parm", "trim", "hole", "con"};

std::vector<std::string_view> split_words(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t pos = 0;
    while (pos < line.size()) {
        while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
        const std::size_t start = pos;
        while (pos < line.size() && !std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
        if (pos > start) words.push_back(line.substr(start, pos - start));
    }
    return words;
}

bool lower_equal(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == y;
           });
}

}  // namespace

TriangleMesh read_obj(std::span<const std::byte> bytes, std::string_view name) {
    const std::string file(name);
    PLAB_REQUIRE(!bytes.empty(), file + ": empty file (an OBJ mesh)");
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    std::vector<Vec3> vertices;
    MeshBuilder mesh;
    std::size_t line_number = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_number;
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        const std::vector<std::string_view> w = split_words(line);
        if (w.empty()) continue;
        const std::string where = file + ":" + std::to_string(line_number);
        auto fail = [&](const std::string& why) { throw Error(where + ": " + why); };
        auto number = [&](std::string_view word) {
            float v = 0;
            const auto [stop, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
            if (ec != std::errc() || stop != word.data() + word.size())
                fail("expected a number, found '" + std::string(word.substr(0, 40)) + "'");
            return v;
        };
        if (line.back() == '\\' || w.back() == "\\")
            fail("a line continued with '\\' is not supported; join it");
        const std::string_view key = w[0];
        if (key == "v") {
            if (w.size() < 4 || w.size() > 7)
                fail("a vertex needs x y z (and at most a weight or a colour after them)");
            if (vertices.size() >= 3 * std::size_t{kMaxMeshTriangles})
                fail("more than " + std::to_string(3 * std::size_t{kMaxMeshTriangles}) +
                     " vertices");
            vertices.push_back({number(w[1]), number(w[2]), number(w[3])});
            for (std::size_t k = 4; k < w.size(); ++k) (void)number(w[k]);
        } else if (key == "f") {
            if (w.size() < 4) fail("a face needs at least three corners");
            std::vector<Vec3> corners;
            for (std::size_t k = 1; k < w.size(); ++k) {
                // v, v/t, v//n or v/t/n: the texture and normal indices are checked, not used.
                long long i = 0;
                std::string_view rest = w[k];
                for (int part = 0; part < 3 && !rest.empty(); ++part) {
                    const std::size_t slash = rest.find('/');
                    const std::string_view index = rest.substr(0, slash);
                    rest = slash == std::string_view::npos ? std::string_view{}
                                                           : rest.substr(slash + 1);
                    long long value = 0;
                    const auto [stop, ec] =
                        std::from_chars(index.data(), index.data() + index.size(), value);
                    const bool number = ec == std::errc() && stop == index.data() + index.size();
                    if ((part == 0 && (index.empty() || !number)) || (!index.empty() && !number) ||
                        (part == 2 && slash != std::string_view::npos))
                        fail("expected a vertex index (v, v/t, v//n or v/t/n), found '" +
                             std::string(w[k].substr(0, 40)) + "'");
                    if (part == 0) i = value;
                }
                const long long count = static_cast<long long>(vertices.size());
                const long long at = i < 0 ? count + i : i - 1;
                if (i == 0 || at < 0 || at >= count)
                    fail("vertex index " + std::to_string(i) + " names no vertex (" +
                         std::to_string(count) + " so far)");
                corners.push_back(vertices[static_cast<std::size_t>(at)]);
            }
            for (std::size_t k = 1; k + 1 < corners.size(); ++k) {
                if (mesh.triangle_count() >= kMaxMeshTriangles)
                    fail("more than " + std::to_string(kMaxMeshTriangles) + " triangles");
                mesh.add({corners[0], corners[k], corners[k + 1]}, where);
            }
        } else if (std::find_if(kFreeForm.begin(), kFreeForm.end(), [&](std::string_view f) {
                       return lower_equal(key, f);
                   }) != kFreeForm.end()) {
            fail("free-form geometry ('" + std::string(key) +
                 "') is not supported: export the surface as triangles or polygons");
        } else if (std::find(kIgnored.begin(), kIgnored.end(), key) == kIgnored.end()) {
            fail("unknown statement '" + std::string(key.substr(0, 40)) + "'");
        }
    }
    PLAB_REQUIRE(mesh.triangle_count() > 0, file + ": the mesh holds no faces");
    return std::move(mesh.mesh);
}

TriangleMesh load_obj(const std::filesystem::path& path) {
    const std::string bytes = read_input_file(path, kMaxMeshFileBytes, "an OBJ mesh");
    return read_obj(std::as_bytes(std::span(bytes.data(), bytes.size())), path.string());
}

TriangleMesh load_mesh(const std::filesystem::path& path) {
    const std::string ext = path.extension().string();
    if (lower_equal(ext, ".stl")) return load_stl(path);
    if (lower_equal(ext, ".obj")) return load_obj(path);
    throw Error(path.string() + ": unknown mesh format '" + ext +
                "'; meshes are STL (.stl) or Wavefront OBJ (.obj) files");
}

}  // namespace plab::sim
