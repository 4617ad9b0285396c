// The window app's runs that end before they did what was asked, through the real binary under
// Xvfb: SIGINT during `--frames N --record F` keeps the recorded frames in F and exits 130; Esc
// (xdotool) ends the run with F holding what it has, no screenshot and exit 1; a screenshot
// onto a full disk and a --record path that cannot be written are errors naming the path.
// Skipped (with the reason) where xvfb-run or xdotool is missing.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/lab/recording.h"
#include "app/output_temporaries.h"
#include "support/child_process.h"
#include "support/file_text.h"
#include "support/shell.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;
using test::on_path;
using namespace std::chrono_literals;
using test::read_text;

// xvfb-run around `command` (a bash script with the app's path as $0), with the panel's ini
// file kept in `dir` and the sanitizer build's X11/GL leaks suppressed.
std::vector<std::string> under_xvfb(const fs::path& dir, const std::string& script,
                                    const std::vector<std::string>& app_args) {
    std::vector<std::string> argv = {"env",
                                     "XDG_CONFIG_HOME=" + (dir / "config").string(),
                                     "LSAN_OPTIONS=suppressions=" PLAB_LSAN_SUPPRESSIONS,
                                     "xvfb-run",
                                     "-a",
                                     "-s",
                                     "-screen 0 800x600x24",
                                     "bash",
                                     "-c",
                                     script,
                                     PLAB_APP_BINARY};
    argv.insert(argv.end(), app_args.begin(), app_args.end());
    return argv;
}

const std::vector<std::string> kLongRun = {"--backend", "cpu", "--particles", "2000",
                                           "--vsync",   "off", "--width",     "800",
                                           "--height",  "600", "--frames",    "100000"};

TEST(AppInterrupt, SigintKeepsTheFramesRecordedSoFar) {
    if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run not found (install xvfb: scripts/setup.sh)";
    const test::TempDir dir;
    const fs::path csv = dir.path() / "out" / "run.csv";  // its folder is made before the run
    const fs::path pid_file = dir.path() / "app.pid";
    std::vector<std::string> args = kLongRun;
    args.insert(args.end(), {"--record", csv.string()});
    // The app replaces the shell (exec), so the pid written is the app's.
    test::Child runner(
        under_xvfb(dir.path(), "echo $$ > '" + pid_file.string() + "'; exec \"$0\" \"$@\"", args),
        dir.path() / "log.txt");
    // Recording: its rows go to a temporary beside the file as frames finish.
    ASSERT_TRUE(test::wait_until(
        [&] { return !test::temporaries(csv.parent_path()).empty() || !runner.running(); }, 60s))
        << read_text(dir.path() / "log.txt");
    std::this_thread::sleep_for(1500ms);
    const pid_t app = std::stoi(read_text(pid_file));
    ASSERT_EQ(kill(app, SIGINT), 0) << read_text(dir.path() / "log.txt");
    const int code = runner.wait(60s);
    const std::string output = read_text(dir.path() / "log.txt");
    ASSERT_EQ(code, 130) << output;
    EXPECT_NE(output.find("interrupted by SIGINT after"), std::string::npos) << output;

    const Recording r = read_recording(csv);
    ASSERT_GT(r.frames.size(), 0u) << output;
    EXPECT_LT(r.frames.size(), 99999u);
    EXPECT_NE(output.find("recorded " + std::to_string(r.frames.size()) + " of 99999 frames into " +
                          csv.string()),
              std::string::npos)
        << output;
    EXPECT_TRUE(test::temporaries(csv.parent_path()).empty());
}

TEST(AppInterrupt, EscEndsATimedRunWithThePartialRecordingAndNoScreenshot) {
    if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run not found (install xvfb: scripts/setup.sh)";
    if (!on_path("xdotool")) GTEST_SKIP() << "xdotool not found (scripts/setup.sh installs it)";
    const test::TempDir dir;
    const fs::path csv = dir.path() / "run.csv";
    const fs::path png = dir.path() / "last.png";
    std::vector<std::string> args = kLongRun;
    args.insert(args.end(), {"--record", csv.string(), "--screenshot", png.string()});
    // Start the app, wait for its window, let it run a while, press Esc, pass on its exit code.
    const std::string script = R"(
"$0" "$@" &
app=$!
win=""
for _ in $(seq 150); do
    win=$(xdotool search --name "Particle Lab" 2> /dev/null | head -n 1)
    [ -n "$win" ] && break
    sleep 0.2
done
[ -n "$win" ] || { echo "no window appeared"; kill $app; exit 99; }
sleep 1.5
xdotool key --window "$win" Escape
wait $app
)";
    test::Child runner(under_xvfb(dir.path(), script, args), dir.path() / "log.txt");
    const int code = runner.wait(120s);
    const std::string output = read_text(dir.path() / "log.txt");
    ASSERT_EQ(code, 1) << output;
    EXPECT_NE(output.find("the window was closed after"), std::string::npos) << output;
    EXPECT_NE(output.find("no screenshot written to " + png.string()), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(png));

    const Recording r = read_recording(csv);
    ASSERT_GT(r.frames.size(), 0u) << output;
    EXPECT_NE(output.find("recorded " + std::to_string(r.frames.size()) + " of 99999 frames"),
              std::string::npos)
        << output;
    EXPECT_TRUE(test::temporaries(dir.path()).empty());
}

TEST(AppInterrupt, AScreenshotOntoAFullDiskIsAnErrorNamingIt) {
    if (!on_path("xvfb-run")) GTEST_SKIP() << "xvfb-run not found (install xvfb: scripts/setup.sh)";
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
    const test::TempDir dir;
    test::Child runner(under_xvfb(dir.path(), "exec \"$0\" \"$@\"",
                                  {"--backend", "cpu", "--particles", "1000", "--vsync", "off",
                                   "--frames", "3", "--screenshot", "/dev/full"}),
                       dir.path() / "log.txt");
    const int code = runner.wait(120s);
    const std::string output = read_text(dir.path() / "log.txt");
    EXPECT_EQ(code, 1) << output;
    EXPECT_NE(output.find("cannot write '/dev/full': No space left on device"), std::string::npos)
        << output;
    EXPECT_EQ(output.find("wrote /dev/full"), std::string::npos) << output;
}

TEST(AppInterrupt, ARecordPathThatCannotBeWrittenFailsBeforeTheWindowOpens) {
    const test::TempDir dir;
    const fs::path plain = dir.path() / "plain_file";
    std::ofstream(plain) << "x";
    const fs::path csv = plain / "run.csv";
    // No display is needed: the path is checked before the window is made.
    test::Child app(
        {PLAB_APP_BINARY, "--backend", "cpu", "--frames", "100", "--record", csv.string()},
        dir.path() / "log.txt");
    const int code = app.wait(30s);
    const std::string output = read_text(dir.path() / "log.txt");
    EXPECT_EQ(code, 1) << output;
    EXPECT_NE(output.find("cannot write '" + csv.string() + "'"), std::string::npos) << output;
    EXPECT_EQ(output.find("GL_RENDERER"), std::string::npos) << output;
}

}  // namespace
}  // namespace plab::app
