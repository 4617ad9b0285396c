#include "sim/engine/stage_bytes.h"

#include <string>

#include "sim/core/format_numbers.h"

namespace plab::sim {

StageBytes stage_bytes(const Params& p, const SimulatorOptions& variants, std::size_t particles,
                       std::size_t cells, bool integrate_fused) {
    const double n = double(particles);
    const bool frictional = runs_frictional_law(p);
    const double hi = variants.double_state ? 64.0 : 0.0;  // double position and velocity
    StageBytes b;
    b.grid = n * 8 + double(cells) * 12;
    if (variants.sorted_memory)
        b.reorder = n * (2 * 36 + 8 + 2 * hi);
    else
        b.reorder = n * (8 + 4);
    double forces = 0, written = 16;
    if (p.model == Model::Sph) {
        forces = (16 + 4) + 36;
    } else {
        forces = 32 + (frictional ? 32 : 0);
    }
    if (integrate_fused) {
        written = 32;
        forces += 2 * hi;
    } else {
        b.integrate = n * (48 + 32 + 2 * hi);
    }
    b.forces = n * (forces + written);
    return b;
}

std::string rate_text(double bytes_per_s) {
    // A host's rates read in GB/s, a GPU's in TB/s.
    return bytes_per_s < 1e11 ? format_numbers("%.1f GB/s", bytes_per_s * 1e-9)
                              : format_numbers("%.2f TB/s", bytes_per_s * 1e-12);
}

double floor_ratio(double ms, double bytes, const MemoryRates& rates) {
    if (!(ms > 0) || !(bytes > 0) || !(rates.copy_bytes_per_s > 0)) return 0.0;
    return ms / (1e3 * bytes / rates.copy_bytes_per_s);
}

std::string roofline_cells(double ms, double bytes, const MemoryRates& rates) {
    const double ratio = floor_ratio(ms, bytes, rates);
    if (ratio == 0.0) return {};
    const std::string r = rate_text(bytes / (ms * 1e-3));
    return format_numbers("%9.4f ms %9.1f MB ", ms, bytes * 1e-6) +
           std::string(r.size() < 12 ? 12 - r.size() : 0, ' ') + r +
           format_numbers(" %6.1fx its floor", ratio);
}

}  // namespace plab::sim
