// The window's Save scene: the running scene, its edits and the camera into a scene file (and
// the particles into a checkpoint beside it when asked), offered at once in the scene list.
#include <algorithm>
#include <exception>
#include <filesystem>
#include <string>

#include <glm/trigonometric.hpp>

#include "app/lab/output_file.h"
#include "app/viewer/app.h"
#include "sim/io/scene_writer.h"

namespace plab::app {

void App::save_scene(const std::string& path) {
    namespace fs = std::filesystem;
    sim::SceneFile f = session_.scene_to_save();
    f.name = fs::path(path).stem().string();
    const render::OrbitCamera& c = frame_.camera();
    const glm::vec3 t = c.target();
    f.camera = sim::SceneCamera{
        {t.x, t.y, t.z}, c.distance(), glm::degrees(c.yaw()), glm::degrees(c.pitch())};
    // The folder the scene's mesh paths are relative to.
    const fs::path from = fs::path(session_.scene_source()).parent_path();
    sim::save_scene_file(f, from.empty() ? fs::path(".") : from, path);
    // From now on the run is that file's: checkpoints name it and keep its emitters and sinks.
    session_.adopt_scene_file(path);
    std::string said = "Saved scene " + path;
    if (ui_.scene_with_particles) {
        const std::string state = fs::path(path).replace_extension(".plab").string();
        require_writable(state);
        session_.save(state);
        ui_.checkpoint_path = state;
        said += " and its particles in " + state + " (Load continues them)";
    }
    if (std::find(ui_.scenes.begin(), ui_.scenes.end(), path) == ui_.scenes.end())
        ui_.scenes.push_back(path);
    ui_.say(said + ".");
}

}  // namespace plab::app
