// Emitters and sinks (sim/model/sources.h, sim/engine/emission.h, applied by sim::Run): an
// emitter's face holds its lattice; a sink takes what enters it and ids stay a permutation
// with the frictional memory following them; an emitter's count follows rate · t at every
// application until its stop or max_particles; an emitter and a sink reach a steady count;
// scene files with emitters and sinks that cannot work are refused, naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/error.h"
#include "sim/engine/emission.h"
#include "sim/io/checkpoint.h"
#include "sim/io/scene_file.h"
#include "sim/model/presets.h"
#include "sim/run/run.h"
#include "sim/sources_scene.h"
#include "support/temp_dir.h"

namespace plab::sim {
namespace {

TEST(Emission, AFaceHoldsItsLatticeInThePlaneOfTheFace) {
    Emitter disc;
    disc.center = {0.5f, 0.5f, 0.5f};
    disc.normal = {0.f, -1.f, 0.f};
    disc.size = {0.05f, 0.f, 0.f};
    const auto points = emitter_face(disc, 0.01f);
    // 5 × 5 lattice points 0.01 apart, centred; those within 0.025 of the centre: 21.
    EXPECT_EQ(points.size(), 21u);
    for (const Vec3& p : points) {
        EXPECT_NEAR(p.y, 0.5f, 1e-6f);
        EXPECT_LE(length_squared(p - disc.center), 0.025f * 0.025f * 1.001f);
    }
    Emitter rect = disc;
    rect.shape = EmitterShape::Rect;
    rect.normal = {1.f, 0.f, 0.f};
    rect.size = {0.03f, 0.02f, 0.f};
    const auto rows = emitter_face(rect, 0.01f);
    EXPECT_EQ(rows.size(), 6u);
    for (const Vec3& p : rows) EXPECT_NEAR(p.x, 0.5f, 1e-6f);
    // A full face each spacing / speed, else the flow over the lattice cell's volume.
    EXPECT_NEAR(emitter_rate(rect, 0.01f, rows.size()), 600.0, 1e-3);
    rect.flow = 2e-3;  // m³/s over (0.01 m)³ cells
    EXPECT_NEAR(emitter_rate(rect, 0.01f, rows.size()), 2000.0, 1e-3);
}

// A full face's emitter is applied each time its particles have moved a spacing; a sparse
// one each time it owes a whole face, at most every kMaxSourceInterval; one too fast for its
// face still waits for the face to clear; with two, the more pressing one sets the pace.
TEST(Emission, TheSourcesAreAppliedAsOftenAsTheEmittersNeed) {
    Emitter rect;  // 6 points 0.01 apart at 1 m/s: a full face each 0.01 s, 600 a second
    rect.shape = EmitterShape::Rect;
    rect.center = {0.5f, 0.5f, 0.5f};
    rect.normal = {1.f, 0.f, 0.f};
    rect.size = {0.03f, 0.02f, 0.f};
    rect.speed = 2.f;  // a spacing in 0.005 s
    Sources sources;
    sources.emitters = {rect};
    EXPECT_NEAR(source_interval(sources, 0.01f), 0.005, 1e-9);  // face rate: 1,200 a second
    sources.emitters[0].rate = 1000;                            // a face owed every 0.006 s
    EXPECT_NEAR(source_interval(sources, 0.01f), 0.006, 1e-9);
    sources.emitters[0].rate = 100;  // a face every 0.06 s: capped
    EXPECT_NEAR(source_interval(sources, 0.01f), kMaxSourceInterval, 1e-9);
    sources.emitters[0].rate = 5000;  // more than the face carries away
    EXPECT_NEAR(source_interval(sources, 0.01f), 0.005, 1e-9);
    Emitter fast = rect;
    fast.speed = 4.f;
    sources.emitters = {rect, fast};  // face rates: a spacing each 0.005 and 0.0025 s
    EXPECT_NEAR(source_interval(sources, 0.01f), 0.0025, 1e-9);
    sources.emitters.clear();  // sinks alone
    EXPECT_NEAR(source_interval(sources, 0.01f), kMaxSourceInterval, 1e-9);
}

// Ten particles in a row along x, ids 9 .. 0 in memory (reversed), the frictional record with
// particle 3 remembering 4 and particle 8 remembering 9: a sink over x in [0.38, 0.68] takes
// ids 4, 5 and 6.
TEST(Emission, ASinkTakesWhatEntersItAndIdsStayAPermutation) {
    InitialState s;
    s.domain = {{0.f, 0.f, 0.f}, {1.f, 1.f, 1.f}};
    for (int slot = 0; slot < 10; ++slot) {
        const int id = 9 - slot;
        s.pos.push_back({0.05f + 0.1f * id, 0.5f, 0.5f, 0.f});
        s.vel.push_back({float(id), 0.f, 0.f, 0.f});
        s.order.push_back(uint32_t(id));
    }
    s.friction.omega.assign(10, Float4{});
    for (int id = 0; id < 10; ++id) s.friction.omega[id].x = float(id);
    s.friction.contacts.assign(10 * kContactSlots, ContactSlot{});
    s.friction.contacts[3 * kContactSlots].partner = 4;  // 3 remembers 4 (which leaves)
    s.friction.contacts[8 * kContactSlots].partner = 9;  // 8 remembers 9 (which becomes 6)
    Sources src;
    src.sinks.push_back({{0.38f, 0.f, 0.f}, {0.68f, 1.f, 1.f}});
    SourceProgress progress;
    const SourceStep r = apply_sources(s, src, Params{}, 0.0, progress);
    EXPECT_EQ(r.sunk, 3u);
    EXPECT_EQ(progress.sunk, 3u);
    ASSERT_EQ(s.pos.size(), 7u);
    std::vector<bool> seen(7, false);
    for (std::size_t slot = 0; slot < 7; ++slot) {
        const uint32_t id = s.order[slot];
        ASSERT_LT(id, 7u);
        EXPECT_FALSE(seen[id]);
        seen[id] = true;
        // Survivors keep their order: old ids 0-3 stay, 7-9 become 4-6.
        const int old = id < 4 ? int(id) : int(id) + 3;
        EXPECT_FLOAT_EQ(s.vel[slot].x, float(old));
        EXPECT_FLOAT_EQ(s.friction.omega[id].x, float(old));
    }
    EXPECT_EQ(s.friction.contacts[3 * kContactSlots].partner, kFreeSlot);
    EXPECT_EQ(s.friction.contacts[5 * kContactSlots].partner, 6u);  // old 8 → 5, remembers 9 → 6
}

RunStart start_of(const std::string& json) {
    RunStart start;
    start.backend = Backend::Cpu;
    start.single_dt = true;
    start.request.scene_file = parse_scene_file(json, "pour.json");
    start.request.scene_source = "pour.json";
    return start;
}

// Granular beads poured from a disc at 1,500 a second for 0.1 s onto a bed of 361: at every
// application the count is the bed plus floor(rate · t), and after the stop it stays.
TEST(Emission, AnEmittersCountFollowsRateTimesTimeUntilItsStop) {
    sim::Run run(start_of(testing::pour_scene_json("\"rate\": 1500, \"stop\": 0.1", "", 1000)));
    const std::size_t bed = run.particle_count();
    EXPECT_EQ(bed, 361u);
    std::uint64_t last = 0;
    int applications = 0;
    while (run.time() < 0.15) {
        run.step();
        const std::uint64_t emitted = run.source_progress().emitted.at(0);
        if (emitted == last) continue;
        last = emitted;
        ++applications;
        const double owed = std::floor(1500.0 * std::min(run.time(), 0.1) + 1e-9);
        EXPECT_EQ(run.particle_count(), bed + std::size_t(owed)) << "t = " << run.time();
    }
    EXPECT_GE(applications, 9);
    EXPECT_EQ(run.particle_count(), bed + 150u);
    EXPECT_EQ(run.source_progress().blocked, 0u);
    EXPECT_EQ(run.source_progress().capped, 0u);
    EXPECT_EQ(run.simulator().stats(run.params()).non_finite, 0u);
}

// The sources' resets renew the device state (generation) but begin no new run (starts): a
// panel keeps the run's statistics through them.
TEST(Emission, ApplyingTheSourcesIsNotANewRun) {
    sim::Run run(start_of(testing::pour_scene_json("\"rate\": 1500, \"stop\": 0.1", "", 1000)));
    const std::uint64_t starts = run.starts(), generation = run.generation();
    while (run.time() < 0.05) run.step();
    ASSERT_GT(run.particle_count(), 361u);
    EXPECT_GT(run.generation(), generation);
    EXPECT_EQ(run.starts(), starts);
}

// With a sink somewhere (so the file may ask for more than fits), the count stops at
// max_particles and what could not be laid is counted.
TEST(Emission, TheCountStopsAtMaxParticles) {
    sim::Run run(start_of(testing::pour_scene_json(
        "\"rate\": 1500", ", \"sinks\": [{\"min\": [0, 0.28, 0], \"max\": [0.01, 0.3, 0.01]}]",
        361 + 100)));
    while (run.time() < 0.12) run.step();
    EXPECT_EQ(run.particle_count(), 461u);
    EXPECT_GT(run.source_progress().capped, 0u);
}

// Beads poured without end onto a floor that is a sink (which takes the bed at once): as many
// leave as arrive, about 195 in the air (0.13 s of fall at 1,500 a second).
TEST(Emission, AnEmitterAndASinkReachASteadyCount) {
    sim::Run run(start_of(testing::pour_scene_json(
        "\"rate\": 1500", ", \"sinks\": [{\"min\": [0, 0, 0], \"max\": [0.2, 0.05, 0.2]}]", 5000)));
    std::size_t at_02 = 0;
    while (run.time() < 0.35) {
        run.step();
        if (at_02 == 0 && run.time() >= 0.25) at_02 = run.particle_count();
    }
    const std::size_t at_035 = run.particle_count();
    EXPECT_GT(run.source_progress().sunk, 361u + 200u);
    EXPECT_LT(at_035, 5000u);
    EXPECT_NEAR(double(at_035), double(at_02), 0.1 * double(at_02));
}

// Water poured from a disc onto a pool: each application lays a whole face (32 points at the
// rest spacing) once the last has moved a spacing away, so the count follows the face rate
// (3,200 a second) and the new liquid lands without being pressed into the old.
TEST(Emission, ALiquidEmitterLaysWholeFacesAtTheRestSpacing) {
    const std::string json = R"({"name": "water pour", "preset": "water",
  "domain": {"min": [0, 0, 0], "max": [0.2, 0.3, 0.2]},
  "blocks": [{"min": [0, 0, 0], "max": [0.2, 0.03, 0.2], "spacing": 0.01}],
  "emitters": [{"shape": "disc", "center": [0.1, 0.2, 0.1], "normal": [0, -1, 0],
                "size": 0.06, "speed": 1, "stop": 0.1}],
  "max_particles": 2000})";
    sim::Run run(start_of(json));
    const std::size_t pool = run.particle_count();
    EXPECT_EQ(pool, 1200u);
    std::uint64_t last = 0;
    while (run.time() < 0.14) {
        run.step();
        const std::uint64_t emitted = run.source_progress().emitted.at(0);
        if (emitted == last) continue;
        last = emitted;
        const double owed = std::floor(3200.0 * std::min(run.time(), 0.1) + 1e-6);
        EXPECT_NEAR(double(run.particle_count() - pool), owed, 0.01 * owed + 1.0)
            << "t = " << run.time();
    }
    // A point the last face's liquid has not quite left (its own pressure slows a particle or
    // two) is skipped: rarely.
    EXPECT_LE(run.source_progress().blocked, 3u);
    const SimStats st = run.simulator().stats(run.params());
    EXPECT_EQ(st.non_finite, 0u);
    EXPECT_LT(st.density_max, 1.03f * run.params().rest_density);
}

// A run pouring onto a sink, saved at 0.1 s and continued from the file, goes on bit for bit
// as the run that did not stop: the file keeps the sources' progress and next time.
TEST(Emission, ACheckpointContinuesTheSourcesBitForBit) {
    const test::TempDir dir;
    const std::string json = testing::pour_scene_json(
        "\"rate\": 1500", ", \"sinks\": [{\"min\": [0, 0, 0], \"max\": [0.2, 0.05, 0.2]}]", 5000);
    const std::filesystem::path scene = dir / "pour.json";
    { std::ofstream(scene) << json; }
    RunStart start = start_of(json);
    start.request.scene_source = scene.string();
    start.options.deterministic = true;
    sim::Run a(start);
    while (a.time() < 0.1) a.step();
    a.save(dir / "a.plab");
    const Checkpoint saved = load_checkpoint(dir / "a.plab");
    ASSERT_TRUE(saved.run.sources.has_value());
    EXPECT_EQ(saved.run.sources->emitted, a.source_progress().emitted);
    for (int k = 0; k < 2000; ++k) a.step();

    sim::Run b(start);
    b.load(saved, (dir / "a.plab").string());
    for (int k = 0; k < 2000; ++k) b.step();
    EXPECT_EQ(b.source_progress().emitted, a.source_progress().emitted);
    EXPECT_EQ(b.source_progress().sunk, a.source_progress().sunk);
    const InitialState x = a.simulator().capture_state(), y = b.simulator().capture_state();
    ASSERT_EQ(x.pos.size(), y.pos.size());
    EXPECT_EQ(x.order, y.order);
    EXPECT_EQ(std::memcmp(x.pos.data(), y.pos.data(), x.pos.size() * sizeof(Float4)), 0);
    EXPECT_EQ(std::memcmp(x.vel.data(), y.vel.data(), x.vel.size() * sizeof(Float4)), 0);
}

std::string refusal(const std::string& json) {
    try {
        parse_scene_file(json, "pour.json");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(Emission, ScenesWhoseSourcesCannotWorkAreRefusedNamingTheField) {
    using testing::pour_scene_json;
    // Without a sink, what the emitter lays must fit: 1500/s for 0.1 s is 150, room for 100.
    const std::string over = refusal(pour_scene_json("\"rate\": 1500, \"stop\": 0.1", "", 461));
    EXPECT_NE(over.find("pour.json: emitters: they lay 150 particles"), std::string::npos) << over;
    EXPECT_NE(over.find("room for 100"), std::string::npos) << over;
    const std::string endless = refusal(pour_scene_json("\"rate\": 1500", "", 5000));
    EXPECT_NE(endless.find("one runs without a 'stop'"), std::string::npos) << endless;
    const std::string no_cap = refusal(pour_scene_json("\"rate\": 1500, \"stop\": 0.1", "", 0));
    EXPECT_NE(no_cap.find("emitters need 'max_particles'"), std::string::npos) << no_cap;
    const std::string both =
        refusal(pour_scene_json("\"rate\": 1500, \"flow\": 1e-6, \"stop\": 0.1", "", 1000));
    EXPECT_NE(both.find("emitters[0]: give 'rate' or 'flow', not both"), std::string::npos) << both;
    const std::string narrow = refusal(
        testing::pour_scene_json("\"rate\": 1500, \"stop\": 0.1", "", 1000, "\"size\": 0.004"));
    EXPECT_NE(narrow.find("emitters[0].size: is narrower than the particles' spacing"),
              std::string::npos)
        << narrow;
    const std::string outside = refusal(testing::pour_scene_json(
        "\"rate\": 1500, \"stop\": 0.1", "", 1000, "\"size\": 0.06, \"center\": [0.1, 0.5, 0.1]"));
    EXPECT_NE(outside.find("emitters[0].center: lies outside the domain"), std::string::npos)
        << outside;
    const std::string sink_out = refusal(pour_scene_json(
        "\"rate\": 1500", ", \"sinks\": [{\"min\": [2, 2, 2], \"max\": [3, 3, 3]}]", 5000));
    EXPECT_NE(sink_out.find("sinks[0]: lies wholly outside the domain"), std::string::npos)
        << sink_out;
    // 25 face points at 1 m/s, 0.0105 m apart, carry 2,381 a second away.
    const std::string crowded = refusal(pour_scene_json("\"rate\": 3000, \"stop\": 0.1", "", 1000));
    EXPECT_NE(crowded.find("emitters[0]: 3000 particles/s is more than its face carries away: 25 "
                           "points"),
              std::string::npos)
        << crowded;
    const std::string few = refusal(pour_scene_json("\"rate\": 1500, \"stop\": 0.1", "", 100));
    EXPECT_NE(few.find("max_particles: 100 is fewer than the 361 particles"), std::string::npos)
        << few;
}

}  // namespace
}  // namespace plab::sim
