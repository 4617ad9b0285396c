#include "render/egl_context.h"

#include <glad/egl.h>
#include <glad/gl.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace plab::render {
namespace {

std::string egl_error_name(EGLint err) {
    switch (err) {
        case EGL_SUCCESS:
            return "EGL_SUCCESS";
        case EGL_NOT_INITIALIZED:
            return "EGL_NOT_INITIALIZED";
        case EGL_BAD_ACCESS:
            return "EGL_BAD_ACCESS";
        case EGL_BAD_ALLOC:
            return "EGL_BAD_ALLOC";
        case EGL_BAD_ATTRIBUTE:
            return "EGL_BAD_ATTRIBUTE";
        case EGL_BAD_CONFIG:
            return "EGL_BAD_CONFIG";
        case EGL_BAD_CONTEXT:
            return "EGL_BAD_CONTEXT";
        case EGL_BAD_CURRENT_SURFACE:
            return "EGL_BAD_CURRENT_SURFACE";
        case EGL_BAD_DISPLAY:
            return "EGL_BAD_DISPLAY";
        case EGL_BAD_MATCH:
            return "EGL_BAD_MATCH";
        case EGL_BAD_NATIVE_PIXMAP:
            return "EGL_BAD_NATIVE_PIXMAP";
        case EGL_BAD_NATIVE_WINDOW:
            return "EGL_BAD_NATIVE_WINDOW";
        case EGL_BAD_PARAMETER:
            return "EGL_BAD_PARAMETER";
        case EGL_BAD_SURFACE:
            return "EGL_BAD_SURFACE";
        case EGL_CONTEXT_LOST:
            return "EGL_CONTEXT_LOST";
        case EGL_BAD_DEVICE_EXT:
            return "EGL_BAD_DEVICE_EXT";
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04X", static_cast<unsigned>(err));
    return std::string("EGL error ") + hex;
}

// The call and the EGL error it left behind, e.g. "eglInitialize failed: EGL_NOT_INITIALIZED".
std::string egl_failure(const char* call) {
    return std::string(call) + " failed: " + egl_error_name(eglGetError());
}

bool has_extension(const char* list, const char* name) {
    if (list == nullptr) return false;
    // Whole-word match: a name may be a prefix of another.
    const std::size_t n = std::strlen(name);
    for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n) {
        const bool starts = p == list || p[-1] == ' ';
        const bool ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends) return true;
    }
    return false;
}

struct Candidate {
    EGLenum platform;
    void* native;  // EGLDeviceEXT for the device platform, null for surfaceless
    std::string label;
};

// Devices first (CUDA-capable, then Mesa's software device), then the surfaceless platform.
std::vector<Candidate> list_candidates(std::string& notes) {
    std::vector<Candidate> out;
    // EGL_EXT_device_base is enumeration plus query in one name; glvnd advertises either form.
    const bool device_api =
        GLAD_EGL_EXT_device_base || (GLAD_EGL_EXT_device_enumeration && GLAD_EGL_EXT_device_query);
    const bool devices = device_api && GLAD_EGL_EXT_platform_device && GLAD_EGL_EXT_platform_base &&
                         eglQueryDevicesEXT != nullptr && eglQueryDeviceStringEXT != nullptr;
    if (devices) {
        EGLint count = 0;
        if (!eglQueryDevicesEXT(0, nullptr, &count)) {
            notes += egl_failure("eglQueryDevicesEXT") + "; ";
            count = 0;
        }
        std::vector<EGLDeviceEXT> all(static_cast<std::size_t>(count));
        if (count > 0 && !eglQueryDevicesEXT(count, all.data(), &count)) {
            notes += egl_failure("eglQueryDevicesEXT") + "; ";
            count = 0;
        }
        all.resize(static_cast<std::size_t>(count));
        std::vector<Candidate> software;
        for (std::size_t i = 0; i < all.size(); ++i) {
            const char* ext = eglQueryDeviceStringEXT(all[i], EGL_EXTENSIONS);
            const std::string index = std::to_string(i);
            if (has_extension(ext, "EGL_NV_device_cuda")) {
                out.push_back({EGL_PLATFORM_DEVICE_EXT, all[i], "EGL device " + index + " (CUDA)"});
            } else if (has_extension(ext, "EGL_MESA_device_software")) {
                software.push_back(
                    {EGL_PLATFORM_DEVICE_EXT, all[i], "EGL device " + index + " (Mesa software)"});
            }
        }
        out.insert(out.end(), software.begin(), software.end());
        if (all.empty()) notes += "no EGL devices enumerated; ";
    } else {
        notes += "EGL device enumeration not supported; ";
    }
    if (GLAD_EGL_MESA_platform_surfaceless && GLAD_EGL_EXT_platform_base) {
        out.push_back({EGL_PLATFORM_SURFACELESS_MESA, nullptr,
                       "surfaceless platform (EGL_MESA_platform_surfaceless)"});
    } else {
        notes += "EGL_MESA_platform_surfaceless not supported; ";
    }
    return out;
}

}  // namespace

EglContext::EglContext() {
    // First load: client extensions only (device enumeration, platform displays).
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
        throw EglUnavailable(
            "EGL unavailable: libEGL.so.1 could not be loaded (gladLoaderLoadEGL)");
    }

    std::string notes;
    EGLDisplay display = EGL_NO_DISPLAY;
    for (const Candidate& c : list_candidates(notes)) {
        EGLDisplay d = eglGetPlatformDisplayEXT(c.platform, c.native, nullptr);
        if (d == EGL_NO_DISPLAY) {
            notes += c.label + ": " + egl_failure("eglGetPlatformDisplayEXT") + "; ";
            continue;
        }
        EGLint major = 0;
        EGLint minor = 0;
        if (!eglInitialize(d, &major, &minor)) {
            notes += c.label + ": " + egl_failure("eglInitialize") + "; ";
            continue;
        }
        display = d;
        source_ = c.label + ", EGL " + std::to_string(major) + "." + std::to_string(minor);
        break;
    }
    if (display == EGL_NO_DISPLAY) {
        if (notes.size() >= 2) notes.resize(notes.size() - 2);  // the last "; "
        throw EglUnavailable("EGL unavailable: no display could be initialised (" + notes + ")");
    }
    display_ = display;

    // From here on a failure must undo what was done: the destructor will not run.
    try {
        // Second load, now with the display: core 1.5 and the display's extensions.
        const int egl_version = gladLoaderLoadEGL(display);
        PLAB_REQUIRE(egl_version != 0, "gladLoaderLoadEGL(display) failed for " + source_);
        PLAB_REQUIRE(GLAD_EGL_KHR_surfaceless_context,
                     source_ + " lacks EGL_KHR_surfaceless_context (needed to run headless)");
        PLAB_REQUIRE(eglBindAPI(EGL_OPENGL_API), egl_failure("eglBindAPI(EGL_OPENGL_API)"));

        // Any config that can render desktop GL; rendering goes to FBOs, so nothing else
        // matters. Without one, a config-less context (EGL_KHR_no_config_context) still works.
        const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE,
                                         EGL_PBUFFER_BIT, EGL_NONE};
        EGLConfig config = nullptr;
        EGLint num_configs = 0;
        if (!eglChooseConfig(display, config_attribs, &config, 1, &num_configs)) {
            throw Error(egl_failure("eglChooseConfig") + " on " + source_);
        }
        if (num_configs == 0) {
            PLAB_REQUIRE(GLAD_EGL_KHR_no_config_context,
                         source_ + " has no OpenGL config and no EGL_KHR_no_config_context");
            config = EGL_NO_CONFIG_KHR;
        }

        const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                          4,
                                          EGL_CONTEXT_MINOR_VERSION,
                                          5,
                                          EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                          EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                          EGL_NONE};
        context_ = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
        if (context_ == EGL_NO_CONTEXT) {
            context_ = nullptr;
            throw Error(egl_failure("eglCreateContext (OpenGL 4.5 core)") + " on " + source_);
        }
        make_current();

        const int gl_version = gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress));
        PLAB_REQUIRE(gl_version != 0, "gladLoadGL(eglGetProcAddress) failed on " + source_);
        PLAB_REQUIRE(GLAD_VERSION_MAJOR(gl_version) > 4 || (GLAD_VERSION_MAJOR(gl_version) == 4 &&
                                                            GLAD_VERSION_MINOR(gl_version) >= 5),
                     "OpenGL 4.5 needed, " + source_ + " gives " +
                         std::to_string(GLAD_VERSION_MAJOR(gl_version)) + "." +
                         std::to_string(GLAD_VERSION_MINOR(gl_version)));

        const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
        const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
        PLAB_REQUIRE(renderer != nullptr && version != nullptr,
                     "glGetString(GL_RENDERER / GL_VERSION) returned null on " + source_);
        renderer_ = renderer;
        version_ = version;
    } catch (...) {
        if (context_ != nullptr) {
            eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            eglDestroyContext(display, context_);
        }
        eglTerminate(display);
        throw;
    }
}

EglContext::~EglContext() {
    // Destructors log instead of throwing.
    if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT)) {
        std::fprintf(stderr, "~EglContext: %s\n", egl_failure("eglMakeCurrent(none)").c_str());
    }
    if (!eglDestroyContext(display_, context_)) {
        std::fprintf(stderr, "~EglContext: %s\n", egl_failure("eglDestroyContext").c_str());
    }
    // Displays are per device and shared: terminating one while another EglContext lives on
    // it would pull that one down too, so only one EglContext should live at a time.
    if (!eglTerminate(display_)) {
        std::fprintf(stderr, "~EglContext: %s\n", egl_failure("eglTerminate").c_str());
    }
}

void EglContext::make_current() const {
    if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) {
        throw Error(egl_failure("eglMakeCurrent (surfaceless)") + " on " + source_);
    }
}

}  // namespace plab::render
