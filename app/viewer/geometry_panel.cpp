#include "app/viewer/geometry_panel.h"

#include <imgui.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "app/viewer/panel_style.h"
#include "sim/core/format_numbers.h"
#include "sim/io/starter_body.h"

namespace plab::app {
namespace {

// What the body editor changes: the placement and the contact settings, without the shape (a
// mesh's triangles are not copied to draw the editor).
struct Placement {
    sim::Vec3 translate, rotate_deg, scale;
    std::optional<float> friction;
    bool inside = false;
};

Placement placement_of(const sim::Body& b) {
    return {b.translate, b.rotate_deg, b.scale, b.friction, b.inside};
}

void place(sim::Body& b, const Placement& p) {
    b.translate = p.translate;
    b.rotate_deg = p.rotate_deg;
    b.scale = p.scale;
    b.friction = p.friction;
    b.inside = p.inside;
}

// One body's editors; true when it changed `b` (remove sets `removed`).
bool body_editor(Placement& b, sim::BodyShape shape, float step, bool& removed) {
    bool changed = false;
    changed |= ImGui::DragFloat3("move (m)", &b.translate.x, step, 0.f, 0.f, "%.4g");
    help_marker("Moves the body; Alt+left-drag in the scene does the same in the view plane.");
    changed |= ImGui::DragFloat3("turn (deg)", &b.rotate_deg.x, 0.5f, -360.f, 360.f, "%.1f");
    help_marker("Turns the body about x, then y, then z (degrees), before the move.");
    sim::Vec3 scale = b.scale;
    if (ImGui::DragFloat3("scale", &scale.x, 0.01f, 0.01f, 100.f, "%.3g")) {
        // A scale at or below zero would turn the body inside out: the drag stops at 0.01.
        b.scale = {std::max(scale.x, 0.01f), std::max(scale.y, 0.01f), std::max(scale.z, 0.01f)};
        changed = true;
    }
    bool own = b.friction.has_value();
    if (ImGui::Checkbox("own friction", &own)) {
        b.friction = own ? std::optional<float>(0.5f) : std::nullopt;
        changed = true;
    }
    help_marker(
        "The sliding friction of beads on this body (the frictional law); else the "
        "run's wall_friction.");
    if (b.friction) {
        ImGui::SameLine();
        float mu = *b.friction;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.f);
        if (ImGui::SliderFloat("##mu", &mu, 0.f, 2.f, "%.2f")) {
            b.friction = mu;
            changed = true;
        }
    }
    if (shape != sim::BodyShape::Plane) {
        changed |= ImGui::Checkbox("particles inside", &b.inside);
        help_marker(
            "The particles live inside the body (a drum, a tank): it needs a closed "
            "surface.");
    }
    if (ImGui::Button("Remove")) removed = true;
    return changed;
}

// One emitter's editors; true when it changed `e`.
bool emitter_editor(sim::Emitter& e, float step) {
    bool changed = ImGui::DragFloat3("centre (m)", &e.center.x, step, 0.f, 0.f, "%.4g");
    changed |= ImGui::DragFloat3("direction", &e.normal.x, 0.01f, -1.f, 1.f, "%.2f");
    help_marker("The way new particles move (made unit length).");
    changed |= ImGui::DragFloat("size (m)", &e.size.x, step, 0.f, 0.f, "%.4g");
    help_marker("The disc's diameter.");
    changed |= ImGui::DragFloat("speed (m/s)", &e.speed, 0.01f * std::max(e.speed, 1e-3f), 1e-4f,
                                1000.f, "%.4g");
    float rate = static_cast<float>(e.rate);
    if (ImGui::DragFloat("rate (1/s)", &rate, 10.f, 0.f, 1e9f, "%.0f")) {
        e.rate = rate;
        changed = true;
    }
    help_marker("Particles a second; 0 lays a full face each spacing travelled.");
    return changed;
}

}  // namespace

const std::vector<sim::Body>& bodies_to_edit(const UiState& ui, const sim::Run& session) {
    static const std::vector<sim::Body> kNone;
    if (ui.requests.bodies) return *ui.requests.bodies;
    const auto& file = session.scene_file();
    return file ? file->bodies : kNone;
}

static void sources_section(UiState& ui, const sim::Run& session, float step);

void bodies_tab(UiState& ui, const sim::Run& session) {
    // The bodies as they stand, read in place: they are copied (meshes and all) only in a frame
    // that changes them, so an open tab costs a large mesh nothing a frame.
    const std::vector<sim::Body>& current = bodies_to_edit(ui, session);
    std::optional<std::vector<sim::Body>> edited;
    const auto edit = [&]() -> std::vector<sim::Body>& {
        if (!edited) edited = current;
        return *edited;
    };
    const auto shown = [&]() -> const std::vector<sim::Body>& {
        return edited ? *edited : current;
    };
    const sim::Domain& d = session.domain();
    for (const auto& [label, shape] : {std::pair{"+ box", sim::BodyShape::Box},
                                       std::pair{"+ cylinder", sim::BodyShape::Cylinder},
                                       std::pair{"+ plane", sim::BodyShape::Plane}}) {
        if (ImGui::Button(label)) {
            edit().push_back(sim::starter_body(shape, d));
            ui.selected_body = static_cast<int>(edit().size()) - 1;
        }
        ImGui::SameLine();
    }
    if (ImGui::Button("+ mesh")) {
        try {
            sim::Body mesh = sim::mesh_body(ui.mesh_path, d);
            const float fit = mesh.scale.x;
            edit().push_back(std::move(mesh));
            ui.selected_body = static_cast<int>(edit().size()) - 1;
            if (fit != 1.f)
                ui.say("The mesh is larger than the domain: scaled by " +
                       sim::format_numbers("%.3g", fit) + " to fit (its scale below).");
        } catch (const std::exception& e) {
            ui.say(std::string("Adding the mesh failed: ") + e.what(), true);
        }
    }
    path_field("##mesh_path", "mesh file (.stl, .obj)", ui.mesh_path);
    help_marker(
        "A mesh (STL binary or ASCII, or OBJ) by path, put at the domain's centre; one larger "
        "than the domain is scaled down to fit (its scale field says by how much).");

    const auto& geometry = session.geometry();
    if (shown().empty()) ImGui::TextColored(kDim, "No bodies: add one above.");
    const float step = 0.002f * std::max({d.max.x - d.min.x, d.max.y - d.min.y, d.max.z - d.min.z});
    int remove = -1;
    for (std::size_t i = 0; i < shown().size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        const sim::BodyShape shape = shown()[i].shape;
        const std::string name = geometry && i < geometry->body_names.size()
                                     ? geometry->body_names[i]
                                     : "geometry[" + std::to_string(i) + "] (" +
                                           std::string(sim::body_shape_name(shape)) + ")";
        if (ImGui::Selectable(name.c_str(), ui.selected_body == static_cast<int>(i)))
            ui.selected_body = ui.selected_body == static_cast<int>(i) ? -1 : static_cast<int>(i);
        if (const std::optional<float> spin = session.body_spin(i)) {
            float rpm = *spin;
            if (ImGui::SliderFloat("spin (rev/min)", &rpm, -60.f, 60.f, "%.1f"))
                ui.requests.body_spin = std::pair{i, rpm};
            help_marker(
                "Turns the body about its spin axis, right-handed; negative turns it "
                "backwards. Ctrl+click to type a value beyond the slider's span.");
        }
        if (ui.selected_body == static_cast<int>(i)) {
            bool removed = false;
            Placement placement = placement_of(shown()[i]);
            ImGui::Indent();
            if (body_editor(placement, shape, step, removed)) place(edit()[i], placement);
            ImGui::Unindent();
            if (removed) remove = static_cast<int>(i);
        }
        ImGui::PopID();
    }
    if (remove >= 0) {
        edit().erase(edit().begin() + remove);
        ui.selected_body = -1;
    }
    if (edited) ui.requests.bodies = std::move(*edited);
    sources_section(ui, session, step);
    section_title("Brush");
    int mode = static_cast<int>(ui.brush);
    ImGui::RadioButton("off", &mode, static_cast<int>(BrushMode::Off));
    ImGui::SameLine();
    ImGui::RadioButton("spray", &mode, static_cast<int>(BrushMode::Spray));
    ImGui::SameLine();
    ImGui::RadioButton("erase", &mode, static_cast<int>(BrushMode::Erase));
    ImGui::SameLine();
    ImGui::RadioButton("grab", &mode, static_cast<int>(BrushMode::Grab));
    ui.brush = static_cast<BrushMode>(mode);
    help_marker(
        "While on, left-drag in the scene sprays particles of the running model (at the rest "
        "spacing, into the scene), erases those under the cursor, or grabs those within the "
        "radius of the first one under it and drags them on a spring (they keep their momentum "
        "when let go); turn it off to orbit with left-drag again. B cycles off, spray, erase, "
        "grab.");
    ImGui::SliderFloat("brush radius (radii)", &ui.brush_radii, 1.f, 30.f, "%.0f");
}

static void sources_section(UiState& ui, const sim::Run& session, float step) {
    section_title("Emitters and sinks");
    const auto& file = session.scene_file();
    sim::Sources s =
        ui.requests.sources ? *ui.requests.sources : (file ? file->sources : sim::Sources{});
    const sim::Domain& d = session.domain();
    bool changed = false;
    if (ImGui::Button("+ emitter")) {
        if (s.max_particles == 0)
            s.max_particles = sim::starter_max_particles(session.particle_count());
        // It pours until the run would hold max_particles, so it needs no sink.
        const std::size_t n = session.particle_count();
        const std::size_t room = s.max_particles > n ? s.max_particles - n : 0;
        s.emitters.push_back(sim::starter_emitter(d, session.params(), session.time(), room));
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("+ sink")) {
        s.sinks.push_back(sim::starter_sink(d));
        changed = true;
    }
    help_marker(
        "An emitter pours particles of the run's kind from a disc; a sink takes the particles "
        "whose centre enters its box. The run holds at most max_particles.");
    int most = static_cast<int>(std::min<std::size_t>(s.max_particles, 2147483647u));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.f);
    if (ImGui::InputInt("max_particles", &most, 1000, 100000) && most >= 0) {
        s.max_particles = static_cast<std::size_t>(most);
        changed = true;
    }
    int remove_emitter = -1, remove_sink = -1;
    for (std::size_t i = 0; i < s.emitters.size(); ++i) {
        ImGui::PushID(static_cast<int>(1000 + i));
        if (ImGui::TreeNode("emitter", "emitter %zu", i)) {
            changed |= emitter_editor(s.emitters[i], step);
            if (ImGui::Button("Remove")) remove_emitter = static_cast<int>(i);
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    for (std::size_t i = 0; i < s.sinks.size(); ++i) {
        ImGui::PushID(static_cast<int>(2000 + i));
        if (ImGui::TreeNode("sink", "sink %zu", i)) {
            changed |= ImGui::DragFloat3("min (m)", &s.sinks[i].min.x, step, 0.f, 0.f, "%.4g");
            changed |= ImGui::DragFloat3("max (m)", &s.sinks[i].max.x, step, 0.f, 0.f, "%.4g");
            if (ImGui::Button("Remove")) remove_sink = static_cast<int>(i);
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    if (remove_emitter >= 0) {
        s.emitters.erase(s.emitters.begin() + remove_emitter);
        changed = true;
    }
    if (remove_sink >= 0) {
        s.sinks.erase(s.sinks.begin() + remove_sink);
        changed = true;
    }
    if (changed) ui.requests.sources = std::move(s);
}

}  // namespace plab::app
