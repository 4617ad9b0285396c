// The recorder behind the panel's Record button and --record: frame counts, recording until
// stopped, configuration changes noted in the header, file names and saving, frames streamed
// to disk as they come and the file written whole at the end.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "app/lab/output_file.h"
#include "app/lab/recorder.h"
#include "app/output_temporaries.h"
#include "sim/core/error.h"
#include "support/file_text.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

const std::vector<ConfigEntry> kConfig = {
    {"backend", "cuda"}, {"feed", "interop"}, {"particles", "262144"}, {"param.dt", "0.5"}};

FrameRecord frame(double ms) {
    FrameRecord f;
    f.frame_ms = ms;
    f.fps = 1000.0 / ms;
    return f;
}

TEST(Recorder, StopsAtTheRequestedFrameCount) {
    Recorder r;
    EXPECT_FALSE(r.active());
    EXPECT_FALSE(r.add(frame(1), kConfig));  // idle: ignored
    r.start(kConfig, 3);
    EXPECT_TRUE(r.active());
    EXPECT_FALSE(r.add(frame(10), kConfig));
    EXPECT_FALSE(r.add(frame(11), kConfig));
    EXPECT_EQ(r.recorded(), 2u);
    EXPECT_TRUE(r.add(frame(12), kConfig));
    const Recording rec = r.finish();
    EXPECT_FALSE(r.active());
    EXPECT_EQ(rec.config, kConfig);  // nothing changed: no changed_during entry
    ASSERT_EQ(rec.frames.size(), 3u);
    EXPECT_EQ(rec.frames[2].frame_ms, 12);
}

TEST(Recorder, UntilStoppedAndChangedKeysNoted) {
    Recorder r;
    r.start(kConfig, 0);
    auto moved = kConfig;
    moved[3].second = "0.25";
    moved.emplace_back("new_key", "1");
    for (int i = 0; i < 500; ++i) EXPECT_FALSE(r.add(frame(5), i < 10 ? kConfig : moved));
    const Recording rec = r.finish();
    EXPECT_EQ(rec.frames.size(), 500u);
    ASSERT_NE(rec.find("changed_during"), nullptr);
    EXPECT_EQ(*rec.find("changed_during"), "param.dt new_key");
    EXPECT_EQ(*rec.find("param.dt"), "0.5");  // the header keeps the starting value
    // A new start drops what was there.
    r.start(kConfig, 2);
    EXPECT_EQ(r.recorded(), 0u);
}

TEST(Recorder, FileNamesAndSaving) {
    Recording rec{kConfig, {frame(4), frame(5)}};
    const std::time_t when = 1'700'000'000;
    const std::string name = recording_file_name(rec, when);
    EXPECT_TRUE(name.starts_with("particle-lab-20")) << name;
    EXPECT_TRUE(name.ends_with("-cuda-interop-262144.csv")) << name;

    const test::TempDir tmp;
    const fs::path dir = tmp / "nested";  // save_recording makes the missing folder
    const fs::path first = save_recording(rec, dir, when);
    const fs::path second = save_recording(rec, dir, when);  // same second: kept apart
    EXPECT_NE(first, second);
    EXPECT_TRUE(second.filename().string().ends_with("-2.csv")) << second;
    const Recording back = read_recording(second);
    EXPECT_EQ(back.config, rec.config);
    EXPECT_EQ(back.frames.size(), 2u);
    EXPECT_THROW(save_recording(rec, "", when), Error);
}

TEST(Recorder, StreamsEveryFrameToDiskAndWritesTheFileWholeAtTheEnd) {
    const test::TempDir dir;
    const fs::path file = dir.path() / "run.csv";
    Recorder r;
    r.start(kConfig, 10, file);
    EXPECT_EQ(r.file(), file);
    for (int i = 0; i < 4; ++i) r.add(frame(10 + i), kConfig);
    // Before the end: nothing under the file's name, every finished frame beside it.
    EXPECT_FALSE(fs::exists(file));
    const std::vector<fs::path> streamed = test::temporaries(dir.path());
    ASSERT_EQ(streamed.size(), 1u);
    const std::string text = test::read_text(streamed[0]);
    EXPECT_TRUE(text.starts_with("# particle-lab recording\n# format=2\n# backend=cuda\n")) << text;
    EXPECT_NE(text.find("\n3,13,"), std::string::npos) << "the fourth row is on disk\n" << text;

    // Ended early: the file holds the 4 frames and says so; the temporary is gone.
    const Recording rec = r.finish();
    EXPECT_FALSE(r.active());
    EXPECT_EQ(rec.frames.size(), 4u);
    const Recording back = read_recording(file);
    EXPECT_EQ(back.config, kConfig);
    ASSERT_EQ(back.frames.size(), 4u);
    EXPECT_EQ(back.frames[3].frame_ms, 13);
    EXPECT_TRUE(test::temporaries(dir.path()).empty());
}

TEST(Recorder, AnAbandonedRecordingLeavesNothingAndAFileFirstWrittenIsKept) {
    const test::TempDir dir;
    const fs::path file = dir.path() / "run.csv";
    write_whole_file(file, "an earlier run\n");
    {
        Recorder r;
        r.start(kConfig, 0, file);
        r.add(frame(5), kConfig);
        r.abandon();
        EXPECT_FALSE(r.active());
        r.start(kConfig, 0, file);
        r.add(frame(5), kConfig);
    }  // destroyed while recording (a run that failed)
    EXPECT_EQ(test::read_text(file), "an earlier run\n");
    EXPECT_TRUE(test::temporaries(dir.path()).empty());
}

TEST(Recorder, AFileThatCannotBeWrittenFailsAtTheStartNamingIt) {
    const test::TempDir dir;
    const fs::path plain = dir.path() / "plain_file";
    write_whole_file(plain, "x");
    Recorder r;
    try {
        r.start(kConfig, 5, plain / "run.csv");
        FAIL() << "started a recording under a regular file";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find((plain / "run.csv").string()), std::string::npos)
            << e.what();
    }
    EXPECT_FALSE(r.active());
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
    // A full disk: the header does not reach it, and the message says where and why.
    try {
        r.start(kConfig, 5, "/dev/full");
        FAIL() << "recorded onto a full device";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("'/dev/full': No space left on device"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Recorder, ExpandsHome) {
    const char* home = std::getenv("HOME");
    if (!home || !*home) GTEST_SKIP() << "HOME is not set";
    EXPECT_EQ(expand_home("~/particle-lab-recordings"), fs::path(home) / "particle-lab-recordings");
    EXPECT_EQ(expand_home("~"), fs::path(home));
    EXPECT_EQ(expand_home("/data/~x"), fs::path("/data/~x"));
    EXPECT_EQ(expand_home("~user/x"), fs::path("~user/x"));
}

}  // namespace
}  // namespace plab::app
