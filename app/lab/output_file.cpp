#include "app/lab/output_file.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

#include "sim/error.h"

namespace plab::app {

void make_folder(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    // create_directories reports success for an existing path, folder or not; a regular file
    // in the way must still be an error here, not a failure later at the first frame.
    if (!ec && !std::filesystem::is_directory(dir, ec) && !ec)
        ec = std::make_error_code(std::errc::not_a_directory);
    if (ec) throw Error("cannot create the folder '" + dir.string() + "': " + ec.message());
}

OutputFile::OutputFile(std::filesystem::path path) : path_(std::move(path)) {
    file_ = std::fopen(path_.c_str(), "wb");
    if (!file_) fail("open", errno);
}

OutputFile::~OutputFile() {
    if (file_) std::fclose(file_);  // an error was already thrown; nothing more to report
}

void OutputFile::write(std::string_view bytes) {
    PLAB_REQUIRE(file_, "write to the closed file '" + path_.string() + "'");
    if (bytes.empty()) return;
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) fail("write", errno);
}

void OutputFile::close() {
    if (!file_) return;
    // fflush first, so that a full disk is reported as a write error before fclose (which
    // would report it too, but gives no second chance to read errno reliably).
    const bool flushed = std::fflush(file_) == 0;
    const int flush_errno = errno;
    std::FILE* f = std::exchange(file_, nullptr);
    const bool closed = std::fclose(f) == 0;
    if (!flushed) fail("write", flush_errno);
    if (!closed) fail("close", errno);
}

void OutputFile::fail(const char* doing, int error_number) {
    if (file_) std::fclose(std::exchange(file_, nullptr));
    const std::string reason = error_number != 0 ? std::strerror(error_number) : "unknown error";
    throw Error("cannot " + std::string(doing) + " '" + path_.string() + "': " + reason);
}

void require_writable(const std::filesystem::path& path) {
    std::error_code ec;
    const bool existed = std::filesystem::exists(path, ec);
    // Appending opens without truncating what is there; a folder in the way fails here too.
    std::FILE* f = std::fopen(path.c_str(), "ab");
    int error_number = errno;
    const bool ok = f && std::fclose(f) == 0;
    if (f && !ok) error_number = errno;
    if (f && !existed) std::filesystem::remove(path, ec);
    if (!ok) {
        const std::string reason = error_number != 0 ? std::strerror(error_number) : "unknown";
        throw Error("cannot write '" + path.string() + "': " + reason);
    }
}

void write_whole_file(const std::filesystem::path& path, std::string_view bytes) {
    OutputFile file(path);
    file.write(bytes);
    file.close();
}

}  // namespace plab::app
