#include "sim/io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

#include "sim/core/error.h"

namespace plab::sim {
namespace {

std::string reason(int error_number) {
    return error_number != 0 ? std::strerror(error_number) : "unknown error";
}

// What an existing file of mode `mode` is when it must not be written as an output, else
// null.
const char* not_an_output_kind(mode_t mode) {
    if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISBLK(mode)) return "a block device";
    return nullptr;
}

}  // namespace

std::filesystem::path output_target(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_symlink(path, ec)) return path;
    std::filesystem::path real = std::filesystem::canonical(path, ec);
    if (!ec) return real;
    // A dangling link: the file it names is to be made (the link then names it). A chain of
    // links is followed one step at a time, a loop is refused.
    std::filesystem::path at = path;
    for (int hop = 0; hop < 40; ++hop) {
        std::filesystem::path next = std::filesystem::read_symlink(at, ec);
        if (ec) break;
        at = next.is_absolute() ? next : at.parent_path() / next;
        if (!std::filesystem::is_symlink(at, ec)) return at;
    }
    throw Error("cannot write '" + path.string() + "': its symbolic link cannot be followed" +
                (ec ? ": " + ec.message() : " (a loop)"));
}

void make_folder(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    // create_directories reports success for an existing path, folder or not; a regular file
    // in the way must still be an error here, not a failure later at the first frame.
    if (!ec && !std::filesystem::is_directory(dir, ec) && !ec)
        ec = std::make_error_code(std::errc::not_a_directory);
    if (ec) throw Error("cannot create the folder '" + dir.string() + "': " + ec.message());
}

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)), target_(path_) {
    PLAB_REQUIRE(!path_.empty(), "no file name given");
    // Replace the file the link names, never the link (a dangling link's file is made).
    target_ = output_target(path_);
    if (target_.filename().empty())
        throw Error("cannot write '" + path_.string() + "': it names a folder, not a file");
    struct stat st {};
    const bool exists = ::stat(target_.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        throw Error("cannot write '" + path_.string() + "': it is a folder");
    if (exists && !S_ISREG(st.st_mode)) {
        // A pipe would block the write (and the check before a run) until a reader comes, a
        // socket takes no open, a disk would be overwritten: none is an output file.
        if (const char* kind = not_an_output_kind(st.st_mode))
            throw Error("cannot write '" + path_.string() + "': it is " + kind +
                        ", not a file; give a file name");
        in_place_ = true;
        temporary_ = target_;
        file_ = std::fopen(target_.c_str(), "wb");
        if (!file_) fail("open", errno);
        return;
    }
    // A read-only file stays read-only, although its folder would let a rename replace it.
    if (exists && ::access(target_.c_str(), W_OK) != 0) fail("write", errno);

    const std::string stem = "." + target_.filename().string() + "." + std::to_string(::getpid());
    int fd = -1;
    for (int attempt = 1; fd < 0; ++attempt) {
        // Another writer of the same file in this process has the first name: take the next.
        const std::string suffix = attempt == 1 ? "" : "-" + std::to_string(attempt);
        const std::filesystem::path candidate = target_.parent_path() / (stem + suffix + ".part");
        fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) temporary_ = candidate;
        if (fd < 0 && (errno != EEXIST || attempt == 100)) fail("create", errno);
    }
    // The replacement keeps the permissions of the file it replaces.
    if (exists && ::fchmod(fd, st.st_mode & 07777) != 0) {
        const int error_number = errno;
        ::close(fd);
        fail("create", error_number);
    }
    file_ = ::fdopen(fd, "wb");
    if (!file_) {
        const int error_number = errno;
        ::close(fd);
        fail("create", error_number);
    }
}

AtomicFile::~AtomicFile() {
    // Reached without commit() only on paths that are already throwing: nothing to report.
    if (file_) std::fclose(file_);
    if (!in_place_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
    PLAB_REQUIRE(file_, "write to the closed file '" + path_.string() + "'");
    if (bytes.empty()) return;
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) fail("write", errno);
}

void AtomicFile::flush() {
    PLAB_REQUIRE(file_, "flush the closed file '" + path_.string() + "'");
    if (std::fflush(file_) != 0) fail("write", errno);
}

void AtomicFile::commit() {
    PLAB_REQUIRE(file_, "commit the closed file '" + path_.string() + "'");
    // fflush first, so that a full disk is reported with its errno before fclose.
    const bool flushed = std::fflush(file_) == 0;
    const int flush_errno = errno;
    const bool closed = std::fclose(std::exchange(file_, nullptr)) == 0;
    const int close_errno = errno;
    if (!flushed) fail("write", flush_errno);
    if (!closed) fail("write", close_errno);  // network file systems report late errors here
    if (in_place_) return;
    if (std::rename(temporary_.c_str(), target_.c_str()) != 0) fail("rename into place", errno);
    temporary_.clear();  // it is the file now
}

void AtomicFile::fail(const char* doing, int error_number) {
    if (file_) std::fclose(std::exchange(file_, nullptr));
    std::string what = "cannot " + std::string(doing) + " '" + path_.string() + "'";
    if (!in_place_ && !temporary_.empty()) {
        ::unlink(temporary_.c_str());
        if (std::string_view(doing) == "rename into place")
            what += " (from '" + temporary_.string() + "')";
        temporary_.clear();
    }
    throw Error(what + ": " + reason(error_number));
}

void require_writable(const std::filesystem::path& path) {
    PLAB_REQUIRE(!path.empty(), "no file name given");
    try {
        make_folder(path.has_parent_path() ? path.parent_path() : ".");
    } catch (const Error& e) {
        throw Error("cannot write '" + path.string() + "': " + e.what());
    }
    // The real write's first step, undone: the temporary is removed uncommitted.
    AtomicFile probe(path);
}

void write_whole_file(const std::filesystem::path& path, std::string_view bytes) {
    AtomicFile file(path);
    file.write(bytes);
    file.commit();
}

}  // namespace plab::sim
