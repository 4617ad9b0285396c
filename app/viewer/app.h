#pragma once
// The desktop app: one window, one simulation, one frame loop. Each frame polls input, applies
// the UI's edits at one sync point, steps the simulation, feeds the particle buffers (CUDA-GL
// interop or host copy), draws the scene and the panel, and swaps.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "app/frame/frame.h"
#include "app/lab/recorder.h"
#include "app/lab/recording.h"
#include "app/viewer/app_config.h"
#include "app/viewer/frame_history.h"
#include "app/viewer/glfw_window.h"
#include "app/viewer/grab.h"
#include "app/viewer/imgui_layer.h"
#include "app/viewer/panel.h"
#include "app/viewer/record_panel.h"
#include "app/viewer/ui_state.h"
#include "app/viewer/window_run.h"
#include "app/viewer/window_video.h"
#include "render/gpu_timer.h"
#include "render/orbit_camera.h"
#include "render/scene_pass.h"

struct GLFWwindow;

namespace plab::app {

class App {
  public:
    // Opens the window and starts the scene; throws plab::Error with a readable reason.
    explicit App(const AppConfig& config);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Runs frames until the window closes, config.frames are done or SIGINT/SIGTERM arrives
    // (app/lab/interrupt.h); returns the exit code: 0 when it did what was asked, 1 when a
    // --frames run ended early, 128 + the signal when interrupted. A recording in progress is
    // saved with the frames it has however the run ends, a failed frame included.
    int run();
    // One frame; false when the app should stop.
    bool frame();

  private:
    void sync();
    void step_and_time(bool advance);
    void check_stats();
    void choose_renderer();  // before the feed of each frame
    void feed_particles();
    FrameView frame_view() const;  // the panel's colour and layer choices
    void draw_scene(WindowSize framebuffer);
    void draw_panel_layer();
    void save_screenshot(const std::string& path, WindowSize framebuffer);
    void frame_scene();
    // Recording (app/app_record.cpp): the configuration now, one row per finished frame, and
    // saving when a recording ends.
    std::vector<ConfigEntry> configuration();
    void sync_recording();
    void record_frame(double frame_ms);
    void finish_recording();
    // Checkpoints (app/viewer/app_checkpoint.cpp): the panel's and keys' Save and Load, and
    // --save-every's files as the simulated time passes their multiples.
    void sync_checkpoints(const Requests& requests);
    // Save scene (app/viewer/app_scene_file.cpp): throws with the reason, nothing half-written.
    void save_scene(const std::string& path);
    void save_every_tick();
    // Video (app/viewer/app_video.cpp): --video and the panel's Record video; each frame's
    // capture after the scene is drawn; finishing on every way out.
    void start_video(const WindowVideoSettings& settings);
    void sync_video(const Requests& requests);
    void video_tick();
    void finish_video() noexcept;
    // How a run ends (app/app_exit.cpp): what it did not finish said, the recording in progress
    // saved, the exit code.
    int finish_run();
    void keep_recording_after_error() noexcept;
    // The part of the framebuffer the scene is drawn in: right of the panel when it is open
    // against the left edge (and leaves room), else all of it.
    render::Viewport scene_viewport(WindowSize framebuffer) const;
    float aspect() const;
    // Runs a change the UI asked for; a failure becomes a message in the panel.
    template <typename Change>
    bool attempt(const char* what, Change&& change);

    // Input (app/input.cpp). GLFW calls these through the window's user pointer.
    void install_callbacks();
    void on_key(int key, int action, int mods);
    void on_mouse_button(int button, int action, int mods);
    void on_cursor(double x, double y);
    void on_scroll(double dy);
    void drag_body(float dx, float dy, float height);
    // The brush and the grab tool at a cursor position (app/viewer/app_brush.cpp).
    void brush_stroke_at(double x, double y);
    void grab_at(double x, double y);
    // Selects the body under the cursor (none: clears the selection).
    void pick_at(double x, double y);
    // The axis key held (X, Y, Z: 0, 1, 2), else `otherwise`.
    int held_axis(int otherwise) const;
    // Requests the bodies with the selected one changed (nothing without a selection).
    void edit_selected_body(const std::function<sim::Body(const sim::Body&)>& change);
    // The scene as the edit history keeps it, and an undo or redo of it put back.
    SceneEdits scene_edits() const;
    void put_back(const EditHistory::Change& change);
    // The cursor's ray into the scene: its near point and unit direction; nullopt while the
    // window is minimised.
    std::optional<std::pair<glm::vec3, glm::vec3>> cursor_ray(double x, double y) const;

    AppConfig config_;
    GlfwWindow window_;  // first in, last out: every GL object below needs its context
    sim::Run session_;
    std::unique_ptr<ImGuiLayer> imgui_;  // made after the app's callbacks are installed
    Frame frame_;  // feed, camera and draw, as `bench --render` and the video draw theirs
    render::GpuTimer scene_timer_;
    render::GpuTimer panel_timer_;

    UiState ui_;
    sim::Params submitted_;  // the last edit handed to the session (validated or refused)
    FrameHistory history_;
    PanelFacts facts_;
    Recorder recorder_;
    bool run_recording_ = false;  // the recorder is writing --record's file (else the panel's)
    RecordUi record_ui_;
    bool step_once_ = false;
    bool diverged_ = false;
    std::unique_ptr<WindowVideo> video_;
    bool run_video_ = false;         // video_ is --video's (the run ends with it)
    long long saved_multiple_ = -1;  // --save-every: the last multiple of its interval passed
    long frames_ = 0;
    bool look_told_ = false;  // the material look's fallback said (the first drawn frame)
    std::chrono::steady_clock::time_point last_frame_start_;
    double measured_ms_ = 0;  // sum of frame times after the first frame, for the exit summary

    struct Drag {
        int button = -1;  // GLFW button held since a press outside the panel, or -1
        bool collider = false;
        bool body = false;   // Alt+left-drag: moves the Bodies tab's selected body
        bool brush = false;  // left-drag with the brush on: strokes
        bool grab = false;   // left-drag with the grab tool: grab_ follows the cursor
        bool turn = false;   // Alt+right-drag: turns the Bodies tab's selected body
        double x = 0, y = 0;
        double press_x = 0, press_y = 0;  // where the button went down
    } drag_;
    std::optional<Grab> grab_;  // the grabbed particles while the grab tool's drag lasts
    double last_click_time_ = -1.0;
    double last_click_x_ = 0, last_click_y_ = 0;
};

}  // namespace plab::app
