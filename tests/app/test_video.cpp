// Video recording: a short headless movie through EGL (Mesa on CI) has the frames and size
// asked for when libavformat reads it back; a movie whose run stops early is still a movie;
// an unwritable path fails before any work. Skipped in a build without libav.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>

extern "C" {
#include <libavformat/avformat.h>
}

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app/lab/video_encoder.h"
#include "app/lab/video_run.h"
#include "app/output_temporaries.h"
#include "render/egl_context.h"
#include "sim/core/error.h"
#include "support/child_process.h"
#include "support/file_text.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;

struct MovieFacts {
    long frames = 0;
    int width = 0, height = 0;
    std::string codec;
};

// Opens `path` with libavformat and counts the video stream's packets (one a frame).
MovieFacts read_movie(const fs::path& path) {
    MovieFacts f;
    AVFormatContext* format = nullptr;
    if (avformat_open_input(&format, path.c_str(), nullptr, nullptr) != 0) {
        ADD_FAILURE() << "libavformat cannot open " << path;
        return f;
    }
    EXPECT_GE(avformat_find_stream_info(format, nullptr), 0);
    const int stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    EXPECT_GE(stream, 0);
    if (stream >= 0) {
        const AVCodecParameters* p = format->streams[stream]->codecpar;
        f.width = p->width;
        f.height = p->height;
        f.codec = avcodec_get_name(p->codec_id);
        AVPacket* packet = av_packet_alloc();
        while (av_read_frame(format, packet) == 0) {
            if (packet->stream_index == stream) ++f.frames;
            av_packet_unref(packet);
        }
        av_packet_free(&packet);
    }
    avformat_close_input(&format);
    return f;
}

class Video : public ::testing::Test {
  protected:
    void SetUp() override {
        const std::string why = video_unavailable_reason();
        if (!why.empty()) GTEST_SKIP() << why;
    }
};

std::vector<std::uint8_t> gradient(int width, int height, int shift) {
    std::vector<std::uint8_t> rgba(std::size_t(width) * height * 4);
    for (std::size_t i = 0; i < rgba.size(); ++i) rgba[i] = std::uint8_t((i / 4 + shift) % 251);
    return rgba;
}

TEST_F(Video, HeadlessMovieHasTheFramesAndSizeAsked) {
    try {
        render::EglContext probe;
    } catch (const std::exception& e) {
        GTEST_SKIP() << "no EGL context: " << e.what();
    }
    const test::TempDir dir;
    BenchConfig c;
    c.backend = sim::Backend::Cpu;
    c.preset = "granular";
    c.particles = 2000;
    c.render = "host";
    c.width = 160;
    c.height = 120;
    VideoConfig v;
    v.path = (dir / "run.mp4").string();
    v.frames = 24;
    v.slowmo = 200;  // a few steps of the beads' short dt per frame: the test stays quick
    std::ostringstream out;
    EXPECT_EQ(run_video(c, v, out, nullptr), 0);
    const MovieFacts f = read_movie(v.path);
    EXPECT_EQ(f.frames, 24);
    EXPECT_EQ(f.width, 160);
    EXPECT_EQ(f.height, 120);
    EXPECT_NE(out.str().find("24 of 24 written"), std::string::npos) << out.str();
    std::printf("%s", out.str().c_str());
    // Nothing but the movie is left in the folder (no temporary).
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 1);
}

TEST_F(Video, AMovieEndedEarlyStillOpensWithItsFrames) {
    const test::TempDir dir;
    const fs::path path = dir / "early.mp4";
    {
        VideoEncoder encoder(path.string(), {64, 48, 30});
        for (int i = 0; i < 7; ++i) encoder.push(gradient(64, 48, i));
        // Leaves without finish(), as a run that throws or is interrupted does.
    }
    const MovieFacts f = read_movie(path);
    EXPECT_EQ(f.frames, 7);
    EXPECT_EQ(f.width, 64);
}

TEST_F(Video, OddSizesLoseTheirLastRowAndColumn) {
    const test::TempDir dir;
    const fs::path path = dir / "odd.mp4";
    VideoEncoder encoder(path.string(), {65, 49, 60});
    for (int i = 0; i < 3; ++i) encoder.push(gradient(65, 49, i));
    encoder.finish();
    const MovieFacts f = read_movie(path);
    EXPECT_EQ(f.frames, 3);
    EXPECT_EQ(f.width, 64);
    EXPECT_EQ(f.height, 48);
}

TEST_F(Video, AMovieGoesWhereALinkPointsAndNeverReplacesAPipeOrDevice) {
    const test::TempDir dir;
    const fs::path link = dir / "latest.mp4";
    fs::create_symlink("take1.mp4", link);
    {
        VideoEncoder encoder(link.string(), {64, 48, 30});
        encoder.push(gradient(64, 48, 0));
        encoder.finish();
    }
    EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced by the movie";
    EXPECT_EQ(read_movie(dir / "take1.mp4").frames, 1);
    const fs::path pipe = dir / "pipe.mp4";
    ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
    EXPECT_THROW(VideoEncoder(pipe.string(), {64, 48, 30}), Error);
    EXPECT_TRUE(fs::is_fifo(pipe));
    if (fs::exists("/dev/null")) {
        try {
            VideoEncoder encoder("/dev/null", {64, 48, 30});
            FAIL() << "a device was taken as a movie file";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos)
                << e.what();
        }
        EXPECT_TRUE(fs::is_character_file("/dev/null"));
    }
}

TEST_F(Video, RefusesAnUnwritablePathByName) {
    const test::TempDir dir;
    fs::create_directories(dir / "folder.mp4");
    try {
        VideoEncoder encoder((dir / "folder.mp4").string(), {64, 48, 30});
        FAIL() << "a folder was opened as a movie";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("folder.mp4"), std::string::npos) << e.what();
    }
    const VideoSettings small{64, 48, 30};
    EXPECT_THROW(VideoEncoder("/proc/no/such/dir/x.mp4", small), Error);
}

TEST_F(Video, AnInterruptedHeadlessRunLeavesAPlayableMovie) {
    try {
        render::EglContext probe;
    } catch (const std::exception& e) {
        GTEST_SKIP() << "no EGL context: " << e.what();
    }
    using namespace std::chrono_literals;
    const test::TempDir dir;
    const fs::path movie = dir.path() / "stopped.mp4";
    const fs::path log = dir.path() / "log.txt";
    // Far more frames than the test waits for; stopped once some are encoded.
    test::Child app(
        {PLAB_APP_BINARY, "bench", "--backend", "cpu", "--render", "host", "--particles", "2000",
         "--width", "128", "--height", "96", "--video", movie.string(), "--frames", "1000000"},
        log);
    ASSERT_TRUE(test::wait_until(
        [&] {
            for (const fs::path& t : test::temporaries(dir.path())) {
                std::error_code ec;
                const auto size = fs::file_size(t, ec);
                if (!ec && size > 20000) return true;
            }
            return !app.running();
        },
        60s))
        << test::read_text(log);
    ASSERT_EQ(kill(app.pid(), SIGINT), 0);
    const int code = app.wait(60s);
    const std::string output = test::read_text(log);
    EXPECT_EQ(code, 130) << output;
    EXPECT_NE(output.find("(stopped by SIGINT)"), std::string::npos) << output;
    const MovieFacts f = read_movie(movie);
    EXPECT_GT(f.frames, 10) << output;
    EXPECT_EQ(f.width, 128);
    EXPECT_TRUE(test::temporaries(dir.path()).empty());
}

TEST(VideoTiming, FramesCoverAFixedSimulatedTime) {
    VideoConfig v;
    v.fps = 30;
    EXPECT_EQ(steps_per_video_frame(v, 1.0 / 300), 10);
    v.slowmo = 10;  // ten times slower: one step a frame
    EXPECT_EQ(steps_per_video_frame(v, 1.0 / 300), 1);
    v.slowmo = 1;
    EXPECT_EQ(steps_per_video_frame(v, 0.5), 1);  // a dt longer than a frame: one step
    v.path = "x.mp4";
    EXPECT_THROW(check_video_config(v), Error);  // no length
    v.frames = 10;
    EXPECT_NO_THROW(check_video_config(v));
    v.fps = 25;
    EXPECT_THROW(check_video_config(v), Error);
}

}  // namespace
}  // namespace plab::app
