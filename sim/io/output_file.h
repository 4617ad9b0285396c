#pragma once
// Writing files with every call checked, and never leaving a half-written file under its name:
// the bytes go to a temporary file in the same folder (`.<name>.<pid>.part`), which replaces
// the file in one rename once it is complete and closed. A folder that cannot be made, a file
// that cannot be created, a short write (full disk), a failed close or rename is a plab::Error
// that names the path and the system's reason. A run killed half-way leaves the file as it
// was (and at worst the hidden temporary). Every output of the app (and the checkpoints of
// sim/io/checkpoint.h) is written through here.
#include <cstdio>
#include <filesystem>
#include <string_view>

namespace plab::sim {

// Creates `dir` and its parents when missing. Throws when it cannot, or when `dir` (or a
// parent) exists but is not a folder.
void make_folder(const std::filesystem::path& dir);

// A file written under a temporary name and renamed into place by commit(). Bytes go out as
// given (binary mode). write() may be called many times; flush() hands what is buffered to the
// system, so a file streamed over a long run (a recording) keeps its finished part on disk
// even if the process is killed. Without commit() the destructor removes the temporary.
// An existing target that is a character device (/dev/null, /dev/full) is written in place:
// renaming over a device is never what was meant; a named pipe, a socket or a block device is
// refused (a pipe would block until a reader comes). A symbolic link is followed, and the
// file it names is replaced, keeping the link.
class AtomicFile {
  public:
    // Creates the temporary (the folder must exist). Throws naming `path` when `path` is a
    // folder, an existing read-only file, or when the temporary cannot be created.
    explicit AtomicFile(std::filesystem::path path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(std::string_view bytes);
    void flush();
    // Flushes, closes and renames into place; only here does a full disk show for sure.
    void commit();

    const std::filesystem::path& path() const { return path_; }  // as given
    // Where the bytes go until commit() (the target itself when written in place).
    const std::filesystem::path& temporary() const { return temporary_; }

  private:
    [[noreturn]] void fail(const char* doing, int error_number);

    std::filesystem::path path_;
    std::filesystem::path target_;  // path_ with a symbolic link followed
    std::filesystem::path temporary_;
    std::FILE* file_ = nullptr;
    bool in_place_ = false;
};

// Where writing `path` puts the bytes: the file a symbolic link names (followed to the end; a
// dangling link's target), else `path`. Writers that rename into place rename onto this.
std::filesystem::path output_target(const std::filesystem::path& path);

// Throws, naming the path and the reason, unless a file can be written at `path` the way
// AtomicFile writes it; for runs that write their output later. Creates the folder when it is
// missing; leaves an existing file as it was.
void require_writable(const std::filesystem::path& path);

// Writes `bytes` as the whole of `path` through an AtomicFile: the old file, if any, stays
// until the new one is complete.
void write_whole_file(const std::filesystem::path& path, std::string_view bytes);

}  // namespace plab::sim
