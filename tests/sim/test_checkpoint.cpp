// Checkpoints (sim/io/checkpoint.h): continuing from one is bit for bit the run that did not stop
// (CPU backend), and every kind of bad file is refused with its name and the reason.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "sim/checkpoint_bytes.h"
#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/io/checkpoint.h"
#include "sim/model/presets.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

namespace fs = std::filesystem;

struct Case {
    Preset preset;
    std::size_t particles;
    SimulatorOptions options;
    const char* what;
};

Params run_params_of(Preset preset) {
    Params p = preset_params(preset);
    p.substeps = 1;
    if (preset == Preset::Water) p.xsph = 0.1f;  // XSPH reads neighbours' velocities too
    return p;
}

template <typename T>
void expect_same_bytes(const std::vector<T>& a, const std::vector<T>& b, const char* what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    // (memcmp of an empty vector's null data is undefined, even for zero bytes)
    if (!a.empty()) {
        EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(T)), 0) << what << " differ";
    }
}

void expect_same_state(const InitialState& a, const InitialState& b) {
    expect_same_bytes(a.pos, b.pos, "positions");
    expect_same_bytes(a.vel, b.vel, "velocities");
    expect_same_bytes(a.order, b.order, "memory order");
    expect_same_bytes(a.pos_hi, b.pos_hi, "double positions");
    expect_same_bytes(a.vel_hi, b.vel_hi, "double velocities");
}

class Continuation : public ::testing::TestWithParam<Case> {};

// Restores the OpenMP thread count on the way out.
struct OmpThreads {
    explicit OmpThreads(int n) : before(omp_get_max_threads()) { omp_set_num_threads(n); }
    ~OmpThreads() { omp_set_num_threads(before); }
    int before;
};

TEST_P(Continuation, FromACheckpointIsBitIdenticalToNotStopping) {
    const Case& run = GetParam();
    // Scattered forces add with atomics, whose order varies between runs on several threads
    // (as on the GPU): one thread makes the run itself repeatable.
    const OmpThreads threads(run.options.scatter_forces == kOn ? 1 : omp_get_max_threads());
    const Params p = run_params_of(run.preset);
    const InitialState init =
        build_initial_state(preset_scene(run.preset, run.particles, p), p, run.particles);
    const int n = 40, m = 30;

    CpuSimulator straight;
    straight.set_options(run.options);
    straight.reset(init, p);
    for (int i = 0; i < n + m; ++i) straight.step(p);

    const test::TempDir dir;
    const fs::path file = dir / "state.plab";
    {
        CpuSimulator first;
        first.set_options(run.options);
        first.reset(init, p);
        for (int i = 0; i < n; ++i) first.step(p);
        RunDescription d;
        d.preset = std::string(preset_name(run.preset));
        d.label = run.what;
        d.options = run.options;
        d.steps = n;
        d.time = n * double(p.dt);
        save_checkpoint(file, first, p, d);
    }
    const Checkpoint c = load_checkpoint(file);
    EXPECT_EQ(c.run.steps, std::uint64_t(n));
    EXPECT_EQ(c.run.options, run.options);
    EXPECT_EQ(c.params, p);
    EXPECT_TRUE(c.notes.empty());
    EXPECT_EQ(c.state.pos_hi.empty(), !run.options.double_state);
    CpuSimulator resumed;
    resumed.set_options(c.run.options);
    restore_checkpoint(resumed, c);
    for (int i = 0; i < m; ++i) resumed.step(c.params);

    const InitialState a = straight.capture_state(), b = resumed.capture_state();
    expect_same_state(a, b);
    const Snapshot sa = straight.download(), sb = resumed.download();
    expect_same_bytes(sa.pos, sb.pos, "downloaded positions");
    expect_same_bytes(sa.vel, sb.vel, "downloaded velocities");
    // The run moved: a checkpoint of a frozen state would prove nothing.
    EXPECT_GT(straight.stats(p).max_speed, 0.f);
    EXPECT_NE(std::memcmp(a.pos.data(), c.state.pos.data(), a.pos.size() * sizeof(Float4)), 0);
}

// An auto/off/on row asked on.
SimulatorOptions on(int SimulatorOptions::*field) {
    SimulatorOptions o;
    o.*field = kOn;
    return o;
}

SimulatorOptions with(bool SimulatorOptions::*field, bool value) {
    SimulatorOptions o;
    o.*field = value;
    return o;
}

INSTANTIATE_TEST_SUITE_P(
    Cpu, Continuation,
    ::testing::Values(Case{Preset::Classic, 2500, {}, "classic"},
                      Case{Preset::Granular, 2000, {}, "granular"},
                      Case{Preset::Water, 2000, {}, "water"},
                      Case{Preset::Classic, 2500, with(&SimulatorOptions::double_state, true),
                           "classic_double_state"},
                      Case{Preset::Classic, 2500, on(&SimulatorOptions::scatter_forces),
                           "classic_scatter_forces"},
                      Case{Preset::Classic, 2500, with(&SimulatorOptions::sorted_memory, false),
                           "classic_unsorted"},
                      Case{Preset::Classic, 2500, on(&SimulatorOptions::neighbour_list),
                           "classic_neighbour_list"},
                      Case{Preset::Water, 2000, on(&SimulatorOptions::neighbour_list),
                           "water_neighbour_list"}),
    [](const ::testing::TestParamInfo<Case>& c) { return std::string(c.param.what); });

// A small checkpoint to break in every way.
Checkpoint small_checkpoint(Preset preset = Preset::Classic, bool hi = false) {
    const Params p = run_params_of(preset);
    CpuSimulator s;
    SimulatorOptions o;
    o.double_state = hi;
    s.set_options(o);
    s.reset(build_initial_state(preset_scene(preset, 64, p), p, 64), p);
    for (int i = 0; i < 5; ++i) s.step(p);
    Checkpoint c;
    c.run.preset = std::string(preset_name(preset));
    c.run.scene = "assets/scenes/none.json";
    c.run.label = "preset " + c.run.preset;
    c.run.options = o;
    c.run.steps = 5;
    c.run.time = 5 * double(p.dt);
    c.params = p;
    c.state = s.capture_state();
    return c;
}

using testing::error_of;
using testing::read;
using testing::reseal;

TEST(Checkpoint, RoundTripsEveryField) {
    for (bool hi : {false, true}) {
        const Checkpoint c = small_checkpoint(Preset::Classic, hi);
        const Checkpoint r = read(encode_checkpoint(c));
        EXPECT_EQ(r.run.preset, c.run.preset);
        EXPECT_EQ(r.run.scene, c.run.scene);
        EXPECT_EQ(r.run.label, c.run.label);
        EXPECT_EQ(r.run.options, c.run.options);
        EXPECT_EQ(r.run.steps, c.run.steps);
        EXPECT_EQ(r.run.time, c.run.time);
        EXPECT_EQ(r.params, c.params);
        EXPECT_EQ(r.state.domain.min.x, c.state.domain.min.x);
        EXPECT_EQ(r.state.grid.num_cells(), c.state.grid.num_cells());
        expect_same_state(r.state, c.state);
        EXPECT_EQ(r.state.pos_hi.size(), hi ? 64u : 0u);
    }
    const Checkpoint water = read(encode_checkpoint(small_checkpoint(Preset::Water)));
    EXPECT_EQ(water.params.model, Model::Sph);
}

TEST(Checkpoint, RefusesEveryTruncation) {
    const std::string bytes = encode_checkpoint(small_checkpoint());
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        const std::string message = error_of(bytes.substr(0, size));
        ASSERT_NE(message, "") << "a file cut at " << size << " bytes was read";
        EXPECT_EQ(message.rfind("x.plab: ", 0), 0u) << message;
    }
    EXPECT_NE(error_of(bytes.substr(0, bytes.size() - 100)).find("truncated"), std::string::npos);
}

TEST(Checkpoint, RefusesEveryFlippedByte) {
    const std::string bytes = encode_checkpoint(small_checkpoint(Preset::Water));
    for (std::size_t i = 0; i < bytes.size(); i += 7) {
        std::string bad = bytes;
        bad[i] = static_cast<char>(bad[i] ^ 0x10);
        ASSERT_NE(error_of(bad), "") << "a flipped byte " << i << " was read";
    }
    std::string bad = bytes;
    bad[bad.size() / 2] ^= 1;
    EXPECT_NE(error_of(bad).find("checksum mismatch"), std::string::npos) << error_of(bad);
    EXPECT_NE(error_of(bytes + "x").find("past the end"), std::string::npos);
}

TEST(Checkpoint, NamesAWrongMagicVersionModelOrValue) {
    const std::string good = encode_checkpoint(small_checkpoint());
    EXPECT_NE(error_of("GIF89a..........").find("not a Particle Lab checkpoint"),
              std::string::npos);

    std::string version = good;
    version[8] = 9;
    reseal(version);
    EXPECT_NE(error_of(version).find("format version 9; this build reads 1 to 4"),
              std::string::npos)
        << error_of(version);

    std::string model = good;
    const std::size_t at = model.find("dem");
    ASSERT_NE(at, std::string::npos);
    model.replace(at, 3, "xyz");
    reseal(model);
    EXPECT_NE(error_of(model).find("model 'xyz'"), std::string::npos) << error_of(model);

    // A parameter out of its range names it (dt = -1).
    std::string dt = good;
    const std::size_t name = dt.find(std::string("\x02\0\0\0dt", 6));
    ASSERT_NE(name, std::string::npos);
    const double minus_one = -1.0;
    std::memcpy(dt.data() + name + 6, &minus_one, 8);
    reseal(dt);
    EXPECT_NE(error_of(dt).find("dt"), std::string::npos) << error_of(dt);

    // A memory order that is not a permutation (the first id repeated).
    Checkpoint c = small_checkpoint();
    c.state.order[1] = c.state.order[0];
    EXPECT_NE(error_of(encode_checkpoint(c)).find("not a permutation"), std::string::npos);
}

// A checkpoint whose checksum is right but whose state means nothing is refused with the
// reason: non-finite values (not "diverged ... lower dt"), no particles, particles far outside
// the domain (one at 1e30 m, or a domain shrunk under the beads).
TEST(Checkpoint, RefusesAStateWithoutMeaningNamingWhy) {
    const auto refused = [](const Checkpoint& c) {
        const std::string why = error_of(encode_checkpoint(c));
        EXPECT_TRUE(why.starts_with("x.plab: ")) << why;
        return why;
    };
    for (bool hi : {false, true}) {
        Checkpoint nan = small_checkpoint(hi ? Preset::Classic : Preset::Water, hi);
        const std::size_t slot = 7;
        nan.state.pos[slot].y = std::numeric_limits<float>::quiet_NaN();
        // The double state (where the run keeps one) holds the same NaN.
        if (!nan.state.pos_hi.empty())
            nan.state.pos_hi[slot].y = std::numeric_limits<double>::quiet_NaN();
        const std::string why = refused(nan);
        EXPECT_NE(why.find("the file holds non-finite values: 1 of 64 particles have a NaN or "
                           "infinite position or velocity (the first, particle " +
                           std::to_string(nan.state.order.empty() ? slot : nan.state.order[slot]) +
                           ", at ["),
                  std::string::npos)
            << why;
        EXPECT_EQ(why.find("diverged ("), std::string::npos) << why;
        EXPECT_EQ(why.find("Lower dt"), std::string::npos) << why;
    }
    Checkpoint fast = small_checkpoint();
    fast.state.vel[3].x = std::numeric_limits<float>::infinity();
    EXPECT_NE(refused(fast).find("non-finite values: 1 of 64"), std::string::npos);

    Checkpoint empty = small_checkpoint();
    empty.state.pos.clear();
    empty.state.vel.clear();
    empty.state.order.clear();
    EXPECT_NE(refused(empty).find("it holds no particles"), std::string::npos) << refused(empty);

    Checkpoint far = small_checkpoint();
    far.state.pos[5].x = 1e30f;
    const std::string far_why = refused(far);
    EXPECT_NE(far_why.find("1 of 64 particles lie outside the domain"), std::string::npos)
        << far_why;
    EXPECT_NE(far_why.find("at [1e+30, "), std::string::npos) << far_why;

    Checkpoint tiny = small_checkpoint(Preset::Granular);
    tiny.state.domain = {{0.f, 0.f, 0.f}, {1e-30f, 1e-30f, 1e-30f}};
    const std::string tiny_why = refused(tiny);
    EXPECT_NE(tiny_why.find("particles lie outside the domain"), std::string::npos) << tiny_why;

    // A DEM state labelled SPH (or the reverse): no run changes its preset's model.
    Checkpoint relabelled = small_checkpoint(Preset::Classic);
    relabelled.params.model = Model::Sph;
    const std::string model_why = refused(relabelled);
    EXPECT_NE(model_why.find("model 'sph' does not match preset 'classic', which runs dem"),
              std::string::npos)
        << model_why;
    Checkpoint dry = small_checkpoint(Preset::Water);
    dry.params.model = Model::Dem;
    EXPECT_NE(refused(dry).find("model 'dem' does not match preset 'water', which runs sph"),
              std::string::npos);

    // A particle just past a wall (as a step may leave one) still reads.
    Checkpoint grazing = small_checkpoint();
    grazing.state.pos[2].x = grazing.state.domain.max.x + 0.5f * grazing.params.radius;
    EXPECT_EQ(error_of(encode_checkpoint(grazing)), "");
}

TEST(Checkpoint, SkipsAParameterItDoesNotKnowWithANote) {
    std::string bytes = encode_checkpoint(small_checkpoint());
    // Rename "spring" to "sprung": a parameter of some other version.
    const std::size_t at = bytes.find("spring");
    ASSERT_NE(at, std::string::npos);
    bytes.replace(at, 6, "sprung");
    reseal(bytes);
    const Checkpoint c = read(bytes);
    ASSERT_EQ(c.notes.size(), 1u);
    EXPECT_NE(c.notes[0].find("sprung"), std::string::npos);
    EXPECT_EQ(c.params.spring, preset_params(Preset::Classic).spring);  // the preset's value
}

TEST(Checkpoint, AFileWithoutTheWallsCoefficientRunsThemWithTheBeadsOne) {
    Checkpoint c = small_checkpoint();
    c.params.friction = 0.3f;
    c.params.wall_friction = 0.45f;
    EXPECT_EQ(read(encode_checkpoint(c)).params.wall_friction, 0.45f);
    // An earlier version's file has no wall_friction entry: rename it to one this version
    // skips. Its walls ran with the beads' coefficient, so that is what it gets back.
    std::string bytes = encode_checkpoint(c);
    const std::size_t at = bytes.find("wall_friction");
    ASSERT_NE(at, std::string::npos);
    bytes[at + 12] = 'X';
    reseal(bytes);
    const Checkpoint r = read(bytes);
    EXPECT_EQ(r.params.wall_friction, 0.3f);
    EXPECT_EQ(r.params.friction, 0.3f);
    ASSERT_EQ(r.notes.size(), 2u);
    EXPECT_NE(r.notes[0].find("wall_frictioX"), std::string::npos) << r.notes[0];
    EXPECT_NE(r.notes[1].find("wall_friction set to friction"), std::string::npos) << r.notes[1];
}

TEST(Checkpoint, RefusesFilesThatAreNotCheckpointsByName) {
    const test::TempDir dir;
    EXPECT_THROW(load_checkpoint(dir / "missing.plab"), Error);
    try {
        load_checkpoint(dir.path());
        FAIL() << "a folder was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("directory"), std::string::npos) << e.what();
    }
    // Larger than the cap: a sparse file, refused before it is read.
    const fs::path huge = dir / "huge.plab";
    std::ofstream(huge).put('P');
    fs::resize_file(huge, kMaxCheckpointBytes + 1);
    try {
        load_checkpoint(huge);
        FAIL() << "a file past the cap was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("more than"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("huge.plab"), std::string::npos) << e.what();
    }
}

TEST(Checkpoint, IsWrittenWholeOrNotAtAll) {
    const test::TempDir dir;
    const fs::path file = dir / "state.plab";
    write_checkpoint(file, small_checkpoint());
    const auto size = fs::file_size(file);
    // A folder in the way fails, naming the path, and the old file stays.
    EXPECT_THROW(write_checkpoint(dir / "state.plab" / "inner.plab", small_checkpoint()), Error);
    EXPECT_EQ(fs::file_size(file), size);
    for (const auto& entry : fs::directory_iterator(dir.path()))
        EXPECT_EQ(entry.path().filename(), "state.plab") << "left behind: " << entry.path();
}

TEST(Checkpoint, AFailedRestoreLeavesTheSimulatorAsItWas) {
    const Params p = run_params_of(Preset::Classic);
    CpuSimulator s;
    s.reset(build_initial_state(preset_scene(Preset::Classic, 500, p), p, 500), p);
    s.step(p);
    const InitialState before = s.capture_state();
    Checkpoint c = small_checkpoint(Preset::Classic, true);
    c.state.vel_hi.clear();  // inconsistent: double positions without velocities
    EXPECT_THROW(restore_checkpoint(s, c), Error);
    expect_same_state(s.capture_state(), before);
}

TEST(Checkpoint, FileNamesSortByStep) {
    EXPECT_EQ(checkpoint_file_name(1200), "step_000001200.plab");
    EXPECT_LT(checkpoint_file_name(999), checkpoint_file_name(1000));
}

}  // namespace
}  // namespace plab::sim
