#pragma once
// Scene files written back (sim/io/scene_file.h reads them): what a person built or changed in
// the window (its parameters, the bodies' spins, the camera) saved as a file that loads to the
// same scene. Parameters are written where they differ from the preset's, each float in the
// fewest digits that read back to the same float; a mesh's path is rewritten relative to the
// new file's folder.
#include <filesystem>
#include <string>

#include "sim/io/scene_file.h"

namespace plab::sim {

// The JSON text of `file`. Its mesh paths were relative to `from_folder` (the folder of the
// file it was read from) and are written relative to `to_folder`.
std::string scene_file_text(const SceneFile& file, const std::filesystem::path& from_folder,
                            const std::filesystem::path& to_folder);

// Writes scene_file_text into `path` (the folder made when missing, the file replaced whole or
// not at all); then reads it back and throws, naming the path, if it does not load.
void save_scene_file(const SceneFile& file, const std::filesystem::path& from_folder,
                     const std::filesystem::path& path);

}  // namespace plab::sim
