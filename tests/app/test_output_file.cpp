// The one file writer (app/lab/output_file.h): a file is replaced only when the new one is
// complete, a failed or abandoned write leaves the old file and no temporary, a full disk and
// a path that cannot be created are errors naming the path and the system's reason, and
// require_writable answers before any work with what the write would meet.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <filesystem>
#include <iterator>
#include <string>

#include "app/lab/output_file.h"
#include "app/output_temporaries.h"
#include "sim/core/error.h"
#include "support/error_of.h"
#include "support/file_text.h"
#include "support/temp_dir.h"

namespace plab::app {
namespace {

namespace fs = std::filesystem;
using test::read_text;
using test::temporaries;

using test::error_of;

std::ptrdiff_t entries(const fs::path& dir) {
    return std::distance(fs::directory_iterator(dir), fs::directory_iterator{});
}

TEST(AtomicFile, ReplacesTheFileOnlyOnceTheNewOneIsComplete) {
    const test::TempDir dir;
    const fs::path path = dir.path() / "table.csv";
    write_whole_file(path, "old\n");
    {
        AtomicFile file(path);
        // The bytes go to a hidden temporary beside the file; flush() puts them on disk.
        EXPECT_EQ(file.temporary().parent_path(), dir.path());
        EXPECT_NE(file.temporary(), path);
        file.write("new 1\n");
        file.flush();
        EXPECT_EQ(read_text(file.temporary()), "new 1\n");
        file.write("new 2\n");
        EXPECT_EQ(read_text(path), "old\n") << "replaced before commit()";
        file.commit();
    }
    EXPECT_EQ(read_text(path), "new 1\nnew 2\n");
    EXPECT_EQ(entries(dir.path()), 1) << "a temporary was left behind";
}

TEST(AtomicFile, AnAbandonedWriteLeavesTheOldFileAndNoTemporary) {
    const test::TempDir dir;
    const fs::path path = dir.path() / "frame.vtk";
    write_whole_file(path, "complete");
    {
        AtomicFile file(path);
        file.write("half");
        file.flush();
        EXPECT_EQ(temporaries(dir.path()).size(), 1u);
    }  // a run that throws passes here
    EXPECT_EQ(read_text(path), "complete");
    EXPECT_TRUE(temporaries(dir.path()).empty());
    {
        AtomicFile fresh(dir.path() / "never.csv");
        fresh.write("x");
    }
    EXPECT_FALSE(fs::exists(dir.path() / "never.csv"));
    EXPECT_EQ(entries(dir.path()), 1);
}

TEST(AtomicFile, AWriteThatFailsHalfWayNamesThePathAndLeavesTheOldFile) {
    const test::TempDir dir;
    const fs::path path = dir.path() / "sweep.csv";
    write_whole_file(path, "rows so far\n");
    // A real failing write on a real file: past the file size limit, write() fails with EFBIG
    // (SIGXFSZ ignored), as it fails with ENOSPC on a full disk.
    rlimit saved{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
    rlimit small = saved;
    small.rlim_cur = 64 * 1024;
    const auto previous = signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    const std::string what = error_of([&] { write_whole_file(path, std::string(1 << 20, 'x')); });
    setrlimit(RLIMIT_FSIZE, &saved);
    signal(SIGXFSZ, previous);
    EXPECT_NE(what.find("cannot write '" + path.string() + "'"), std::string::npos) << what;
    EXPECT_NE(what.find("File too large"), std::string::npos) << what;
    EXPECT_EQ(read_text(path), "rows so far\n");
    EXPECT_TRUE(temporaries(dir.path()).empty());
}

TEST(AtomicFile, AFullDiskNamesThePathAndTheReason) {
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
    // /dev/full takes the open and fails every write with ENOSPC, as a full disk does. A device
    // is written in place (never renamed over), so this is the writer's own error path.
    for (std::size_t bytes : {std::size_t{10}, std::size_t{1} << 20}) {
        const std::string what =
            error_of([&] { write_whole_file("/dev/full", std::string(bytes, 'x')); });
        EXPECT_NE(what.find("cannot write '/dev/full'"), std::string::npos) << what;
        EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
    }
    // A streamed file learns it at its flush.
    AtomicFile stream("/dev/full");
    stream.write("header\n");
    const std::string what = error_of([&] { stream.flush(); });
    EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
}

TEST(AtomicFile, KeepsTheFilesPermissionsAndALinkToIt) {
    const test::TempDir dir;
    const fs::path real = dir.path() / "real.csv";
    const fs::path link = dir.path() / "link.csv";
    write_whole_file(real, "a");
    ASSERT_EQ(chmod(real.c_str(), 0640), 0);
    fs::create_symlink(real, link);
    write_whole_file(link, "b");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(read_text(real), "b");
    struct stat st {};
    ASSERT_EQ(stat(real.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(AtomicFile, ADanglingLinkGetsItsFileAndStaysALink) {
    const test::TempDir dir;
    const fs::path link = dir.path() / "out.csv";
    fs::create_symlink("made.csv", link);  // relative, to a file not there yet
    write_whole_file(link, "x");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(read_text(dir.path() / "made.csv"), "x");
    // A loop of links is refused, not spun round.
    const fs::path a = dir.path() / "a.csv", b = dir.path() / "b.csv";
    fs::create_symlink(b, a);
    fs::create_symlink(a, b);
    EXPECT_NE(error_of([&] { write_whole_file(a, "x"); }).find("cannot be followed"),
              std::string::npos);
    EXPECT_TRUE(fs::is_symlink(a));
}

TEST(AtomicFile, APipeIsRefusedAtOnceNotWaitedOn) {
    const test::TempDir dir;
    const fs::path pipe = dir.path() / "pipe.csv";
    ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
    // Opening a pipe for writing blocks until a reader comes: these must return at once.
    const std::string what = error_of([&] { require_writable(pipe); });
    EXPECT_NE(what.find("'" + pipe.string() + "': it is a named pipe (FIFO), not a file"),
              std::string::npos)
        << what;
    EXPECT_NE(error_of([&] { write_whole_file(pipe, "x"); }).find("named pipe"), std::string::npos);
    struct stat st {};
    ASSERT_EQ(stat(pipe.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the pipe was replaced";
    EXPECT_TRUE(temporaries(dir.path()).empty());
}

TEST(RequireWritable, MakesAMissingFolderAndLeavesAnExistingFileAlone) {
    const test::TempDir dir;
    const fs::path nested = dir.path() / "a" / "b" / "out.png";
    require_writable(nested);
    EXPECT_TRUE(fs::is_directory(nested.parent_path()));
    EXPECT_FALSE(fs::exists(nested)) << "a check must not leave a file";
    const fs::path existing = dir.path() / "kept.csv";
    write_whole_file(existing, "data");
    require_writable(existing);
    EXPECT_EQ(read_text(existing), "data");
    EXPECT_TRUE(temporaries(dir.path()).empty());
}

TEST(RequireWritable, PathsThatCannotBeWrittenAreErrorsNamingThem) {
    const test::TempDir dir;
    const fs::path plain = dir.path() / "plain_file";
    write_whole_file(plain, "x");
    // Under a regular file nothing can be created, whoever runs the test (root included).
    for (const fs::path& bad : {plain / "out.csv", plain / "deeper" / "out.csv", dir.path()}) {
        const std::string what = error_of([&] { require_writable(bad); });
        EXPECT_NE(what.find("'" + bad.string() + "'"), std::string::npos) << what;
    }
    EXPECT_NE(error_of([&] { require_writable(dir.path()); }).find("is a folder"),
              std::string::npos);
    const std::string what = error_of([&] { write_whole_file(plain / "f.vtk", "x"); });
    EXPECT_NE(what.find("cannot create '" + (plain / "f.vtk").string() + "'"), std::string::npos)
        << what;
    EXPECT_NE(what.find("Not a directory"), std::string::npos) << what;
    EXPECT_EQ(read_text(plain), "x");
}

}  // namespace
}  // namespace plab::app
