// Checkpoints of the frictional contact law (format version 2's frictional section,
// sim/io/checkpoint.h): every array goes through the file, a run continued from one is bit for bit
// the run that did not stop (CPU backend), version 1 files still read, and every broken
// section is refused with the file's name and the reason before anything changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "sim/checkpoint_bytes.h"
#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/friction_scene.h"
#include "sim/io/checkpoint.h"
#include "sim/model/presets.h"
#include "sim/physics/friction_record.h"

namespace plab::sim {
namespace {

using testing::arrays_of;
using testing::block_on_the_floor;
using testing::sand;

template <typename T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void expect_same_state(const InitialState& a, const InitialState& b) {
    EXPECT_TRUE(same_bytes(a.pos, b.pos)) << "positions differ";
    EXPECT_TRUE(same_bytes(a.vel, b.vel)) << "velocities differ";
    EXPECT_EQ(a.order, b.order);
    EXPECT_EQ(arrays_of(a.friction), arrays_of(b.friction));
}

Checkpoint frictional_checkpoint(std::size_t n = 64, int steps = 30) {
    const Params p = sand();
    CpuSimulator s;
    s.reset(block_on_the_floor(p, n), p);
    for (int i = 0; i < steps; ++i) s.step(p);
    Checkpoint c;
    c.run.preset = "sand-like";
    c.run.steps = steps;
    c.params = p;
    c.state = s.capture_state();
    return c;
}

using testing::error_of;
using testing::read;
using testing::reseal;

// One array of a hand-made frictional section: its name, the byte length it states, its bytes.
struct Entry {
    std::string name;
    std::string bytes;
    std::uint64_t stated;
};

std::vector<Entry> entries_of(const FrictionRecord& f) {
    std::vector<Entry> out;
    for (const auto& [name, bytes] : arrays_of(f)) out.push_back({name, bytes, bytes.size()});
    return out;
}

// `c`'s file with `entries` as its frictional section (`count` entries stated).
std::string file_with(Checkpoint c, const std::vector<Entry>& entries, std::uint32_t count) {
    c.state.friction = {};
    std::string bytes = encode_checkpoint(c);
    bytes.resize(bytes.size() - 8);
    bytes[12] = static_cast<char>(bytes[12] | 2);  // the flags: a frictional section follows
    bytes.append(reinterpret_cast<const char*>(&count), 4);
    for (const Entry& e : entries) {
        const auto length = static_cast<std::uint32_t>(e.name.size());
        bytes.append(reinterpret_cast<const char*>(&length), 4);
        bytes += e.name;
        bytes.append(reinterpret_cast<const char*>(&e.stated), 8);
        bytes += e.bytes;
    }
    bytes.append(8, '\0');
    reseal(bytes);
    return bytes;
}

std::string file_with(const Checkpoint& c, const std::vector<Entry>& entries) {
    return file_with(c, entries, static_cast<std::uint32_t>(entries.size()));
}

TEST(FrictionalCheckpoint, ContinuationIsBitIdenticalToNotStopping) {
    const Params p = sand();
    const std::size_t n = 600;
    const InitialState init = block_on_the_floor(p, n);
    const int first = 60, then = 60;
    CpuSimulator straight, stopped;
    straight.reset(init, p);
    stopped.reset(init, p);
    for (int i = 0; i < first + then; ++i) straight.step(p);
    for (int i = 0; i < first; ++i) stopped.step(p);
    Checkpoint saved;
    saved.run.preset = "sand-like";
    saved.params = p;
    saved.state = stopped.capture_state();
    const Checkpoint c = read(encode_checkpoint(saved));
    ASSERT_FALSE(c.state.friction.empty());
    EXPECT_TRUE(c.notes.empty());

    CpuSimulator resumed;
    restore_checkpoint(resumed, c);
    expect_same_state(resumed.capture_state(), saved.state);  // nothing lost on the way
    for (int i = 0; i < then; ++i) resumed.step(c.params);
    expect_same_state(resumed.capture_state(), straight.capture_state());

    // The state mattered: the particles spin and remember contacts, and a restore without it
    // (as version 1 had) goes another way.
    bool spinning = false, remembering = false;
    for (const Float4& w : c.state.friction.omega) spinning |= w.x != 0 || w.y != 0 || w.z != 0;
    for (const ContactSlot& s : c.state.friction.contacts) remembering |= s.partner != kFreeSlot;
    EXPECT_TRUE(spinning);
    EXPECT_TRUE(remembering);
    Checkpoint forgetful = c;
    forgetful.state.friction = {};
    CpuSimulator amnesic;
    restore_checkpoint(amnesic, forgetful);
    for (int i = 0; i < then; ++i) amnesic.step(p);
    EXPECT_FALSE(same_bytes(amnesic.capture_state().pos, straight.capture_state().pos));
}

TEST(FrictionalCheckpoint, RoundTripsEveryArray) {
    const Checkpoint c = frictional_checkpoint();
    const std::string bytes = encode_checkpoint(c);
    std::uint32_t version = 0, flags = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    std::memcpy(&flags, bytes.data() + 12, 4);
    EXPECT_EQ(version, 2u);
    EXPECT_EQ(flags & 2u, 2u);
    const Checkpoint r = read(bytes);
    const auto written = arrays_of(c.state.friction), back = arrays_of(r.state.friction);
    for (const auto& [name, data] : written) {
        EXPECT_FALSE(data.empty()) << name << " was not captured";
        EXPECT_EQ(back.at(name), data) << name;
    }
    expect_same_state(r.state, c.state);
    // A run whose law never ran has no section (and no flag).
    Params classic = preset_params(Preset::Granular);
    CpuSimulator s;
    s.reset(build_initial_state(preset_scene(Preset::Granular, 64, classic), classic, 64), classic);
    s.step(classic);
    Checkpoint plain = c;
    plain.params = classic;
    plain.state = s.capture_state();
    EXPECT_TRUE(plain.state.friction.empty());
    const std::string plain_bytes = encode_checkpoint(plain);
    std::memcpy(&flags, plain_bytes.data() + 12, 4);
    EXPECT_EQ(flags & 2u, 0u);
    EXPECT_TRUE(read(plain_bytes).state.friction.empty());
}

TEST(FrictionalCheckpoint, ReadsVersion1Files) {
    Checkpoint c = frictional_checkpoint();
    c.state.friction = {};
    std::string v1 = encode_checkpoint(c);
    const std::uint32_t one = 1;
    std::memcpy(v1.data() + 8, &one, 4);
    reseal(v1);
    const Checkpoint r = read(v1);
    expect_same_state(r.state, c.state);
    EXPECT_TRUE(r.state.friction.empty());
    // Version 1 had no frictional section: its flag there is corruption.
    std::string flagged = v1;
    flagged[12] = static_cast<char>(flagged[12] | 2);
    reseal(flagged);
    EXPECT_NE(error_of(flagged).find("unknown flags"), std::string::npos) << error_of(flagged);
}

// The files of the fuzz corpus: version 1 files (classic, water) written before the frictional
// section existed, and a version 2 one of a frictional run. Their first byte is the fuzz
// target's route; the seeds whose checksum the target appends are checked here with it.
TEST(FrictionalCheckpoint, ReadsTheCorpusOfBothVersions) {
    for (const char* name : {"classic", "water", "sand_frictional"}) {
        for (const bool sealed : {true, false}) {
            const std::string file = std::string(PLAB_CHECKPOINT_SEEDS_DIR) + "/" + name +
                                     (sealed ? "_as_is.bin" : "_checksum_added.bin");
            std::ifstream in(file, std::ios::binary);
            ASSERT_TRUE(in) << file;
            std::string bytes((std::istreambuf_iterator<char>(in)), {});
            ASSERT_GT(bytes.size(), 1u);
            bytes.erase(0, 1);
            if (!sealed) {
                bytes.append(8, '\0');
                reseal(bytes);
            }
            std::uint32_t version = 0;
            std::memcpy(&version, bytes.data() + 8, 4);
            const Checkpoint c = read(bytes);
            EXPECT_EQ(version, std::string(name) == "sand_frictional" ? 2u : 1u) << file;
            EXPECT_EQ(c.state.friction.empty(), version == 1) << file;
            if (!c.state.friction.empty()) {
                CpuSimulator s;
                restore_checkpoint(s, c);
                // Arrays the state gained after the file was written come back as their
                // defaults (the file predates the rolling springs: no torque in any slot),
                // and its slots' full floats come back packed (sim/core/packed_vec3.h).
                FrictionRecord expected = c.state.friction;
                EXPECT_TRUE(expected.rolling.empty()) << file;
                fill_absent_friction_arrays(expected, expected.omega.size());
                const std::vector<ContactSlot> packed =
                    slots_of(memory_of(expected.contacts, expected.rolling));
                ASSERT_EQ(packed.size(), expected.contacts.size());
                for (std::size_t k = 0; k < packed.size(); ++k) {
                    const ContactSlot& a = expected.contacts[k];
                    const float bound = std::ldexp(
                        std::max({std::fabs(a.xi_x), std::fabs(a.xi_y), std::fabs(a.xi_z)}), -12);
                    EXPECT_LE(std::fabs(packed[k].xi_x - a.xi_x), bound) << k;
                    EXPECT_LE(std::fabs(packed[k].xi_y - a.xi_y), bound) << k;
                    EXPECT_LE(std::fabs(packed[k].xi_z - a.xi_z), bound) << k;
                }
                expected.contacts = packed;
                EXPECT_EQ(arrays_of(s.capture_state().friction), arrays_of(expected));
            }
        }
    }
}

TEST(FrictionalCheckpoint, RefusesEveryTruncationOfTheSection) {
    const Checkpoint c = frictional_checkpoint(16, 10);
    const std::string bytes = encode_checkpoint(c);
    Checkpoint plain = c;
    plain.state.friction = {};
    const std::size_t section = encode_checkpoint(plain).size() - 8;
    for (std::size_t size = section; size < bytes.size() - 8; ++size) {
        // Cut, then sealed again: the section's own lengths must catch it.
        std::string cut = bytes.substr(0, size) + std::string(8, '\0');
        reseal(cut);
        const std::string message = error_of(cut);
        ASSERT_NE(message, "") << "a section cut at " << size - section << " bytes was read";
        EXPECT_EQ(message.rfind("x.plab: ", 0), 0u) << message;
        // Not sealed again: the checksum catches it first.
        ASSERT_NE(error_of(bytes.substr(0, size)), "");
    }
    for (std::size_t i = section; i < bytes.size(); i += 5) {
        std::string bad = bytes;
        bad[i] = static_cast<char>(bad[i] ^ 0x40);
        ASSERT_NE(error_of(bad), "") << "a flipped byte " << i << " was read";
    }
}

TEST(FrictionalCheckpoint, RefusesABrokenSectionNamingWhatIsWrong) {
    const Checkpoint c = frictional_checkpoint(16, 10);
    const std::vector<Entry> good = entries_of(c.state.friction);
    ASSERT_EQ(error_of(file_with(c, good)), "");
    auto error_with = [&](auto edit) {
        std::vector<Entry> e = good;
        edit(e);
        return error_of(file_with(c, e));
    };
    auto named = [&](std::vector<Entry>& e, const char* name) -> Entry& {
        for (Entry& x : e)
            if (x.name == name) return x;
        throw Error(std::string("no array ") + name);
    };
    // An array sized for another particle count.
    EXPECT_NE(error_with([&](auto& e) {
                  Entry& w = named(e, "omega");
                  w.bytes.resize(w.bytes.size() - 16);
                  w.stated -= 16;
              }).find("the frictional array 'omega' is 240 bytes; 16 particles need 256"),
              std::string::npos);
    // A length past the end of the file.
    EXPECT_NE(error_with([&](auto& e) { named(e, "wall_xi").stated = ~0ull; }).find("truncated"),
              std::string::npos);
    EXPECT_NE(error_with([&](auto& e) { e.push_back(e.front()); }).find("appears twice"),
              std::string::npos);
    EXPECT_NE(error_with([&](auto& e) {
                  std::erase_if(e, [](auto& x) { return x.name == "omega"; });
              }).find("no rotations"),
              std::string::npos);
    // A remembered partner that is not a particle (id 16 of 16).
    EXPECT_NE(error_with([&](auto& e) {
                  const std::uint32_t bad = 16;
                  std::memcpy(named(e, "contacts").bytes.data() + 12, &bad, 4);
              }).find("remembers a contact with particle 16 of 16"),
              std::string::npos);
    EXPECT_NE(error_of(file_with(c, good, 65)).find("more than 64"), std::string::npos);
    // More arrays stated than the file holds, and bytes after the last one.
    EXPECT_NE(error_of(file_with(c, good, static_cast<std::uint32_t>(good.size() + 1))), "");
    EXPECT_NE(error_of(file_with(c, good, static_cast<std::uint32_t>(good.size() - 1)))
                  .find("past the end of the frictional section"),
              std::string::npos);
}

TEST(FrictionalCheckpoint, SkipsAnArrayItDoesNotKnowAndDefaultsOneItLacks) {
    const Checkpoint c = frictional_checkpoint(16, 10);
    std::vector<Entry> e = entries_of(c.state.friction);
    std::erase_if(e, [](const Entry& x) { return x.name == "plate_xi"; });  // an older file
    e.push_back({"future_xi", std::string(16 * 16, '\1'), 16 * 16});        // a later one
    const Checkpoint r = read(file_with(c, e));
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("future_xi"), std::string::npos);
    EXPECT_TRUE(r.state.friction.plate_xi.empty());
    CpuSimulator s;
    restore_checkpoint(s, r);
    const FrictionRecord back = s.capture_state().friction;
    ASSERT_EQ(back.plate_xi.size(), 16u);
    for (const Float4& x : back.plate_xi) EXPECT_EQ(x.x * x.x + x.y * x.y + x.z * x.z, 0.f);
    EXPECT_EQ(arrays_of(back).at("contacts"), arrays_of(c.state.friction).at("contacts"));
}

TEST(FrictionalCheckpoint, AFileWithoutContactWordsContinuesAsOneWithThem) {
    // The pass reads a particle's slots only when its contact word says it touched something
    // last step, so a file that lacks the words gets them from its memory: the run continues
    // to the bit as from the whole file (the words' sliding counts aside).
    const Params p = sand();
    const std::size_t n = 600;
    CpuSimulator before;
    before.reset(block_on_the_floor(p, n), p);
    for (int i = 0; i < 60; ++i) before.step(p);
    Checkpoint whole;
    whole.run.preset = "sand-like";
    whole.params = p;
    whole.state = before.capture_state();
    std::vector<Entry> e = entries_of(whole.state.friction);
    ASSERT_EQ(std::erase_if(e, [](const Entry& x) { return x.name == "contact_info"; }), 1u);
    const Checkpoint lacking = read(file_with(whole, e));
    ASSERT_TRUE(lacking.state.friction.contact_info.empty());

    // The implied words: each particle's occupied slots and touched bodies.
    FrictionRecord implied = lacking.state.friction;
    fill_absent_friction_arrays(implied, n);
    std::size_t touching = 0;
    for (std::size_t i = 0; i < n; ++i) {
        uint32_t slots = 0;
        for (int k = 0; k < kContactSlots; ++k)
            slots += implied.contacts[i * kContactSlots + k].partner != kFreeSlot ? 1u : 0u;
        EXPECT_GE(word_contacts(implied.contact_info[i]), slots) << i;
        EXPECT_EQ(word_contacts(implied.contact_info[i]) == 0,
                  word_contacts(whole.state.friction.contact_info[i]) == 0)
            << i;
        touching += slots > 0 ? 1 : 0;
    }
    EXPECT_GT(touching, n / 2);

    CpuSimulator a, b;
    restore_checkpoint(a, read(encode_checkpoint(whole)));
    restore_checkpoint(b, lacking);
    for (int i = 0; i < 60; ++i) {
        a.step(p);
        b.step(p);
    }
    const InitialState sa = a.capture_state(), sb = b.capture_state();
    EXPECT_TRUE(same_bytes(sa.pos, sb.pos));
    EXPECT_TRUE(same_bytes(sa.vel, sb.vel));
    EXPECT_EQ(arrays_of(sa.friction).at("contacts"), arrays_of(sb.friction).at("contacts"));
}

TEST(FrictionalCheckpoint, AStateOfAnotherCountIsRefusedBeforeAnythingChanges) {
    const Params p = sand();
    CpuSimulator s;
    s.reset(block_on_the_floor(p, 200), p);
    for (int i = 0; i < 5; ++i) s.step(p);
    const InitialState before = s.capture_state();
    ASSERT_FALSE(before.friction.empty());
    InitialState other = before;
    other.friction = frictional_checkpoint(64, 5).state.friction;  // 64 particles' memory
    try {
        s.reset(other, p);
        FAIL() << "a frictional state of 64 particles was restored onto 200";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("the frictional state's 'omega' holds 64 entries; "
                                             "200 particles need 200"),
                  std::string::npos)
            << e.what();
    }
    expect_same_state(s.capture_state(), before);
    // encode_checkpoint refuses it as well.
    Checkpoint c;
    c.params = p;
    c.state = other;
    EXPECT_THROW(encode_checkpoint(c), Error);
}

}  // namespace
}  // namespace plab::sim
