# GLAD 2 loaders for OpenGL 4.5 core and EGL 1.5, generated at build time into the build folder
# (never committed) and built as the static library plab_glad.
#
# --reproducible uses the Khronos specs shipped with glad instead of downloading them, so the
# build stays offline. --loader adds gladLoaderLoadEGL, which opens libEGL.so.1 itself: with
# the function names redefined by glad/egl.h there is no other clean way to reach the real
# eglGetProcAddress.

# Debian's python3-glad lives in the system Python, which need not be the first python3 on
# PATH (pyenv, venvs), so try each candidate until one imports glad 2.
set(PLAB_GLAD_PYTHON_DOC "Python 3 interpreter with the glad 2 package (empty: search)")
set(PLAB_GLAD_PYTHON "" CACHE FILEPATH "${PLAB_GLAD_PYTHON_DOC}")
if(NOT PLAB_GLAD_PYTHON)
  find_program(PLAB_PATH_PYTHON3 NAMES python3)
  foreach(candidate IN ITEMS ${PLAB_PATH_PYTHON3} /usr/bin/python3)
    execute_process(
      COMMAND ${candidate} -c "import glad, sys; sys.exit(not glad.__version__.startswith('2.'))"
      RESULT_VARIABLE glad_rc OUTPUT_QUIET ERROR_QUIET)
    if(glad_rc EQUAL 0)
      set(PLAB_GLAD_PYTHON ${candidate} CACHE FILEPATH "${PLAB_GLAD_PYTHON_DOC}" FORCE)
      break()
    endif()
  endforeach()
endif()
if(NOT PLAB_GLAD_PYTHON)
  message(FATAL_ERROR "No Python 3 with glad 2 found: install python3-glad (scripts/setup.sh) "
                      "or pass -DPLAB_GLAD_PYTHON=/path/to/python3")
endif()
message(STATUS "Particle Lab: generating GLAD 2 with ${PLAB_GLAD_PYTHON}")

set(PLAB_GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
set(PLAB_GLAD_OUTPUTS
  ${PLAB_GLAD_DIR}/src/gl.c
  ${PLAB_GLAD_DIR}/src/egl.c
  ${PLAB_GLAD_DIR}/include/glad/gl.h
  ${PLAB_GLAD_DIR}/include/glad/egl.h)
add_custom_command(
  OUTPUT ${PLAB_GLAD_OUTPUTS}
  COMMAND ${PLAB_GLAD_PYTHON} -m glad --quiet --reproducible --out-path ${PLAB_GLAD_DIR}
          --api gl:core=4.5,egl=1.5 c --loader
  COMMENT "Generating GLAD 2 loaders (gl:core=4.5, egl=1.5)"
  VERBATIM)

# The include folder only exists after generation; create it so the path is valid at configure.
file(MAKE_DIRECTORY ${PLAB_GLAD_DIR}/include)

add_library(plab_glad STATIC ${PLAB_GLAD_OUTPUTS})
# SYSTEM: generated code is not ours to warn about.
target_include_directories(plab_glad SYSTEM PUBLIC ${PLAB_GLAD_DIR}/include)
# EGL only: no X11. The loader dlopens libEGL.so.1, linking it as well keeps the dependency
# visible to the linker and to packaging.
find_package(OpenGL REQUIRED COMPONENTS EGL)
target_link_libraries(plab_glad PUBLIC OpenGL::EGL ${CMAKE_DL_LIBS})
