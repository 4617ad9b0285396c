#pragma once
// Writing files with every call checked: a folder that cannot be made, a file that cannot be
// opened, a short write (full disk) or a failed close is a plab::Error that names the path
// and the system's reason. Used by the particle export, where a silent failure would leave a
// series with holes that nobody notices until the analysis.
#include <cstdio>
#include <filesystem>
#include <string_view>

namespace plab::app {

// Creates `dir` and its parents when missing. Throws when it cannot, or when `dir` (or a
// parent) exists but is not a folder.
void make_folder(const std::filesystem::path& dir);

// A file opened for writing in binary mode (bytes go out as given, no newline translation).
// Only close() tells whether the data reached the disk: a full disk often shows only when the
// buffer is flushed. The destructor closes without checking, for the paths that are already
// throwing.
class OutputFile {
  public:
    explicit OutputFile(std::filesystem::path path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    void write(std::string_view bytes);
    void close();
    const std::filesystem::path& path() const { return path_; }

  private:
    [[noreturn]] void fail(const char* doing, int error_number);

    std::filesystem::path path_;
    std::FILE* file_ = nullptr;
};

// Throws, naming the path and the system's reason, unless a file can be written at `path`; for
// runs that write their output at the end. Leaves an existing file as it was and removes one
// it had to create.
void require_writable(const std::filesystem::path& path);

// Creates (or truncates) `path` and writes `bytes` into it, checked as OutputFile is.
void write_whole_file(const std::filesystem::path& path, std::string_view bytes);

}  // namespace plab::app
