#include "app/lab/particle_export.h"

#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/lab/output_file.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/physics/sph_kernel.h"

namespace plab::app {
namespace {

// The shortest text that reads back as the same value (so CSV and titles lose nothing).
template <typename T>
void put_number(std::string& out, T v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// Simulated time as text: 12 significant digits, far below the step's float precision, so
// that 429 × 0.00014 reads 0.06006 rather than the double's 0.060059999999999995.
std::string time_text(double t) { return sim::format_numbers("%.12g", t); }

// Big-endian, as VTK's legacy binary format is defined (whatever the writing machine is).
void put_be32(std::string& out, std::uint32_t v) {
    const char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                       static_cast<char>(v >> 8), static_cast<char>(v)};
    out.append(b, 4);
}
void put_be_float(std::string& out, float v) { put_be32(out, std::bit_cast<std::uint32_t>(v)); }
void put_be_double(std::string& out, double v) {
    const auto u = std::bit_cast<std::uint64_t>(v);
    put_be32(out, static_cast<std::uint32_t>(u >> 32));
    put_be32(out, static_cast<std::uint32_t>(u));
}

void put_scalars(std::string& out, const char* name, const std::vector<float>& values) {
    out += "SCALARS ";
    out += name;
    out += " float 1\nLOOKUP_TABLE default\n";
    for (float v : values) put_be_float(out, v);
    out += '\n';
}

// One float array of a FIELD section: "name components tuples type", then the values.
void put_field_array(std::string& out, const char* name, const std::vector<float>& values) {
    out += name;
    out += " 1 " + std::to_string(values.size()) + " float\n";
    for (float v : values) put_be_float(out, v);
    out += '\n';
}

// A CSV cell: empty for NaN and infinities (no value), as the app's other CSV files do.
void put_cell(std::string& out, float v) {
    if (std::isfinite(v)) put_number(out, v);
}

}  // namespace

ExportFrame make_export_frame(sim::Snapshot snapshot, const sim::Params& params, double time) {
    PLAB_REQUIRE(snapshot.pos.size() == snapshot.vel.size(),
                 "export: " + std::to_string(snapshot.pos.size()) + " positions but " +
                     std::to_string(snapshot.vel.size()) + " velocities");
    PLAB_REQUIRE(std::isfinite(time), "export: the simulated time is not finite");
    ExportFrame f;
    f.time = time;
    f.model = params.model;
    f.particles = std::move(snapshot);
    const std::size_t n = f.count();
    f.speed.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const sim::Float4& v = f.particles.vel[i];
        f.speed[i] = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    }
    if (f.has_liquid()) {
        const sim::SphConstants c = sim::sph_constants(params);
        f.density.resize(n);
        f.pressure.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            f.density[i] = f.particles.vel[i].w;
            f.pressure[i] = sim::sph_pressure(f.density[i], c);
        }
    }
    return f;
}

std::string vtk_bytes(const ExportFrame& f) {
    const std::size_t n = f.count();
    // VERTICES counts 2n integers (a size and an index per particle) in a signed 32-bit int.
    PLAB_REQUIRE(n <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max() / 2),
                 "export: " + std::to_string(n) +
                     " particles exceed the VTK legacy format's 32-bit cell indices");
    const std::string count = std::to_string(n);
    std::string out;
    out.reserve(512 + n * (4 * (3 + 2 + 3 + 1) + (f.has_liquid() ? 8 : 0)));
    out += "# vtk DataFile Version 3.0\n";
    out += "particle-lab t=" + time_text(f.time) +
           " model=" + std::string(sim::model_name(f.model)) + "\n";
    out += "BINARY\nDATASET POLYDATA\n";
    // The time as field data too: it shows in ParaView's Information panel next to the arrays.
    out += "FIELD FieldData 1\nTimeValue 1 1 double\n";
    put_be_double(out, f.time);
    out += "\nPOINTS " + count + " float\n";
    for (const sim::Float4& p : f.particles.pos) {
        put_be_float(out, p.x);
        put_be_float(out, p.y);
        put_be_float(out, p.z);
    }
    // One vertex cell per particle, so that ParaView draws every point (points without cells
    // are not rendered by the default Surface representation).
    out += "\nVERTICES " + count + " " + std::to_string(2 * n) + "\n";
    for (std::size_t i = 0; i < n; ++i) {
        put_be32(out, 1);
        put_be32(out, static_cast<std::uint32_t>(i));
    }
    out += "\nPOINT_DATA " + count + "\nVECTORS velocity float\n";
    for (const sim::Float4& v : f.particles.vel) {
        put_be_float(out, v.x);
        put_be_float(out, v.y);
        put_be_float(out, v.z);
    }
    out += '\n';
    put_scalars(out, "speed", f.speed);
    // Density and pressure as field arrays of the point data, not as more SCALARS: VTK's
    // legacy readers take only the first SCALARS section unless told to read all of them,
    // while every field array is always read.
    if (f.has_liquid()) {
        out += "FIELD FieldData 2\n";
        put_field_array(out, "density", f.density);
        put_field_array(out, "pressure", f.pressure);
    }
    return out;
}

std::string csv_text(const ExportFrame& f) {
    const std::size_t n = f.count();
    std::string out;
    out.reserve(256 + n * 120);
    out += "# time=" + time_text(f.time) + " model=" + std::string(sim::model_name(f.model)) +
           " particles=" + std::to_string(n) + "\n";
    out += "# units: time s, x y z m, vx vy vz m/s, density kg/m^3, pressure Pa";
    out += f.has_liquid() ? "\n" : " (density and pressure empty: DEM grains)\n";
    out += "id,x,y,z,vx,vy,vz,density,pressure\n";
    for (std::size_t i = 0; i < n; ++i) {
        const sim::Float4& p = f.particles.pos[i];
        const sim::Float4& v = f.particles.vel[i];
        put_number(out, i);
        for (float x : {p.x, p.y, p.z, v.x, v.y, v.z}) {
            out += ',';
            put_cell(out, x);
        }
        // A density of 0 is "not computed yet" (no step since the start): no value, rather
        // than a density and a pressure that look measured.
        const bool liquid = f.has_liquid() && f.density[i] > 0.f;
        out += ',';
        if (liquid) put_cell(out, f.density[i]);
        out += ',';
        if (liquid) put_cell(out, f.pressure[i]);
        out += '\n';
    }
    return out;
}

std::string series_json(const std::vector<SeriesEntry>& entries) {
    std::string out = "{\n  \"file-series-version\": \"1.0\",\n  \"files\": [\n";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        PLAB_REQUIRE(std::isfinite(entries[i].time),
                     "export: frame '" + entries[i].file + "' has a time that is not finite");
        // File names are ours (frame_NNNNNN.vtk) but go through the JSON escaper anyway.
        out += "    {\"name\": " + nlohmann::json(entries[i].file).dump() +
               ", \"time\": " + time_text(entries[i].time) + "}";
        out += i + 1 < entries.size() ? ",\n" : "\n";
    }
    out += "  ]\n}\n";
    return out;
}

std::vector<SeriesEntry> read_series(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot open '" + path.string() + "': " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw Error("cannot read '" + path.string() + "'");
    const auto not_series = [&](const std::string& why) {
        return Error("'" + path.string() + "' is not a ParaView file-series list (" + why +
                     "); move it away or export into another folder");
    };
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        throw not_series(e.what());
    }
    if (!doc.is_object() || !doc.contains("files") || !doc["files"].is_array())
        throw not_series("no \"files\" list");
    std::vector<SeriesEntry> entries;
    for (const auto& f : doc["files"]) {
        if (!f.is_object() || !f.contains("name") || !f["name"].is_string() ||
            !f.contains("time") || !f["time"].is_number())
            throw not_series("an entry without a \"name\" and a numeric \"time\"");
        entries.push_back({f["name"].get<std::string>(), f["time"].get<double>()});
    }
    return entries;
}

void write_vtk(const std::filesystem::path& path, const ExportFrame& frame) {
    write_whole_file(path, vtk_bytes(frame));
}

void write_csv(const std::filesystem::path& path, const ExportFrame& frame) {
    write_whole_file(path, csv_text(frame));
}

}  // namespace plab::app
