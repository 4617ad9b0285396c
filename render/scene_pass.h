#pragma once
// One frame's scene, shared by the window (app/viewer) and the headless `bench --render`: the
// colour style from the parameters, the feed of the particle buffers, the clear to the one
// background colour and the draw of the particles, the domain box, the collider and the
// scene's bodies. What
// differs per driver stays with the driver: which framebuffer is bound, the part of it the
// scene gets, how the camera moves and the timers around the draw.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "render/line_renderer.h"
#include "render/orbit_camera.h"
#include "render/particle_feed.h"
#include "render/particle_renderer.h"
#include "render/splat_renderer.h"
#include "sim/engine/simulator.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/model/sources.h"
#include "sim/physics/color_map.h"

namespace plab::render {

// How the particles are coloured, as a driver picks it (the window's panel, the bench's
// flags); scene_style() adds what follows from the parameters.
struct ColorChoice {
    sim::ColorMode mode = sim::ColorMode::Speed;
    float speed_scale = 1.f;          // m/s at the top of the speed ramp
    float density_span = 0.02f;       // density ramp: rest density × (1 ± this)
    bool auto_pressure_scale = true;  // pressure ramp top: ρ₀ g × the domain's height
    float pressure_scale = 1e4f;      // Pa at the top of the pressure ramp when not auto
    float spin_scale = 100.f;         // rad/s at the top of the spin (angular speed) ramp
};

// The export's colour style for `choice` in a scene of these parameters and domain (ramp
// tops kept positive, Tait's B from the sound speed, whether the contact law rotates).
sim::RenderStyle scene_style(const sim::Params& params, const sim::Domain& domain,
                             const ColorChoice& choice);

// What is drawn besides the particles.
struct SceneLayers {
    sim::Domain domain;              // the box, m
    float radius = 0.f;              // particle radius, m
    glm::vec3 collider_center{0.f};  // m
    float collider_radius = 0.f;     // m; 0: no collider
    bool show_box = true;
    bool show_collider = true;
    // A silo's floor plate (Params::silo_floor, drawn with the box): its height and orifice.
    bool plate = false;
    float plate_y = 0.f;         // m
    float orifice_radius = 0.f;  // m; 0: closed
    // The scene's bodies (null: none), drawn as their outline edges.
    std::shared_ptr<const sim::SceneGeometry> bodies;
    bool show_bodies = true;
    // The scene's emitters (each face's border and an arrow along its flow) and sinks (their
    // boxes), drawn with the bodies.
    sim::Sources sources;
    // What the particles are in the material look: SPH's liquid, DEM's grains.
    MaterialKind material = MaterialKind::Grains;
    GrainPalette palette = GrainPalette::Sand;  // the grains' colours (the run's preset)
};

// The layers of a scene running with these parameters in this domain, box and collider shown.
SceneLayers scene_layers(const sim::Params& params, const sim::Domain& domain);

// A rectangle of the bound framebuffer in pixels, from its bottom-left corner.
struct Viewport {
    int x = 0, y = 0, width = 0, height = 0;
    float aspect() const;  // width / height
};

// Who draws the particles: the GL sprite impostors (the reference, and the path without CUDA)
// or the CUDA splatter (render/splat_renderer.h). The `renderer` variant (sim/model/variants.h).
enum class ParticleRendererKind { Gl, Cuda };

class ScenePass {
  public:
    ScenePass();  // needs a current GL 4.5 context
    ~ScenePass();

    // Grows the particle buffers (ParticleFeed::reserve); call before a bigger scene starts.
    void reserve(std::size_t count) { feed_.reserve(count); }
    // Writes the simulator's particles into the buffers along `path` (ParticleFeed::feed); the
    // next draw shows them. With the CUDA renderer chosen (set_renderer, before the feed), the
    // interop path is the renderer's device feed (SplatRenderer::feed): choose the renderer
    // first. Throws plab::Error as the feed does.
    FeedTiming feed(sim::Simulator& simulator, const sim::RenderStyle& style, FeedPath path);

    // Clears width × height pixels of the bound framebuffer from its bottom-left corner to the
    // scene's background colour and depth 1; leaves the viewport covering them.
    static void clear(int width, int height);
    // Draws into `viewport` of the bound framebuffer as `camera` sees it at the viewport's
    // aspect: the particles of the last feed (by the renderer set_renderer chose), then the box
    // and the collider as `what` asks. Depth testing stays on. Throws plab::Error as the
    // renderers do.
    void draw(const OrbitCamera& camera, const Viewport& viewport, const SceneLayers& what);

    // The light both particle renderers shade with.
    const Lighting& lighting() const { return particles_.lighting(); }
    // What `camera` contributes to a draw into `viewport` (its aspect, its height).
    static RenderView render_view(const OrbitCamera& camera, const Viewport& viewport);

    // The look (render/material_math.h): the data look's colour maps, or the material look,
    // which the CUDA renderer draws (its grains take their shade from the particle-id colour,
    // which the feed then exports whatever the style asks). The GL renderer draws the data
    // look whatever is set: look_fallback() says so.
    void set_look(Look look) { look_ = look; }
    Look look() const { return look_; }
    // Empty when the look set is drawn, else why the data look is drawn instead.
    std::string look_fallback() const;

    // The caller checks splat_unavailable_reason() before choosing Cuda, and feeds after it.
    void set_renderer(ParticleRendererKind kind) { renderer_ = kind; }
    ParticleRendererKind renderer() const { return renderer_; }
    // The CUDA renderer's newest finished timings (none before its first finished frame).
    std::optional<SplatTimings> poll_splat_timings();
    // Waits for the CUDA renderer's last draw (benchmarks); throws if it drew nothing.
    SplatTimings wait_splat_timings();

  private:
    // The sinks' boxes and the emitters' faces and arrows.
    void draw_sources(const sim::Sources& sources, const glm::mat4& view_projection);

    ParticleRenderer particles_;
    LineRenderer lines_;
    LineRenderer source_lines_;              // the emitters' outlines
    std::vector<glm::vec3> drawn_emitters_;  // the segments source_lines_ holds
    ParticleFeed feed_;
    std::unique_ptr<SplatRenderer> splat_;  // made at its first draw
    ParticleRendererKind renderer_ = ParticleRendererKind::Gl;
    Look look_ = Look::Data;
    // The bodies whose lines lines_ holds (kept, so a new scene's bodies never pass for them).
    std::shared_ptr<const sim::SceneGeometry> drawn_bodies_;
    int fed_ = 0;              // particles in the buffers since the last feed
    bool fed_device_ = false;  // the last feed went to the CUDA renderer's own buffers
};

}  // namespace plab::render
