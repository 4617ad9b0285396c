#pragma once
// A fresh folder under the system's temporary folder ($TMPDIR), removed with everything in it
// when the object goes out of scope, so a test leaves nothing behind even when it fails.
#include <filesystem>
#include <string>

namespace plab::test {

class TempDir {
  public:
    // Named plab_<running test>_XXXXXX: readable when a crash leaves it behind, and unique
    // (mkdtemp) across processes, tests and folders of one test.
    TempDir();
    // Named plab_<stem>_XXXXXX, for a folder made outside a running test.
    explicit TempDir(const std::string& stem);
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    // A path inside the folder.
    std::filesystem::path operator/(const std::filesystem::path& name) const {
        return path_ / name;
    }

  private:
    std::filesystem::path path_;
};

}  // namespace plab::test
