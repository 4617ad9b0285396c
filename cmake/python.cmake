# The Python module (app/python): built when pybind11 and the headers of the Python it is for
# are found, skipped with a message otherwise. Sets PLAB_HAS_PYTHON, Python_EXECUTABLE and
# PLAB_PYTHON_INSTALL_DIR (when it was left empty) and PLAB_PYTHON_TO_SCENES.
option(PLAB_BUILD_PYTHON "Build the Python module particle_lab (pybind11) when it can be" ON)
set(PLAB_HAS_PYTHON OFF)
if(PLAB_BUILD_PYTHON AND (PLAB_SANITIZE OR PLAB_BUILD_FUZZ))
  # A sanitized extension cannot load into an uninstrumented interpreter.
  message(STATUS "Particle Lab: Python module skipped in the sanitizer and fuzz builds")
elseif(PLAB_BUILD_PYTHON)
  # Debian's interpreter, whose numpy, pytest and dist-packages the module is built for, unless
  # one is named (-DPython_EXECUTABLE=...): a version manager's shim first on PATH would pick
  # an interpreter without them.
  if(NOT Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python 3.8 COMPONENTS Interpreter Development.Module QUIET)
  if(Python_Development.Module_FOUND)
    set(PYBIND11_FINDPYTHON ON)
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
  if(NOT Python_Development.Module_FOUND)
    message(STATUS "Particle Lab: Python module skipped: no Python headers (python3-dev)")
  elseif(NOT pybind11_FOUND)
    message(STATUS "Particle Lab: Python module skipped: pybind11 not found (pybind11-dev)")
  else()
    set(PLAB_HAS_PYTHON ON)
    message(STATUS "Particle Lab: Python module ON (Python ${Python_VERSION}, pybind11 "
                   "${pybind11_VERSION}, ${Python_EXECUTABLE})")
  endif()
endif()

if(PLAB_PYTHON_INSTALL_DIR STREQUAL "")
  set(plab_python_dir lib/python3/dist-packages)
  if(Python_EXECUTABLE)
    execute_process(
      COMMAND ${Python_EXECUTABLE} -c
              "import sysconfig as s; d = 'deb_system' in s.get_scheme_names(); print('' if d else s.get_path('platlib', vars={'platbase': '.', 'base': '.'}))"
      OUTPUT_VARIABLE plab_platlib OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(plab_platlib)
      string(REGEX REPLACE "^\\./" "" plab_python_dir "${plab_platlib}")
    endif()
  endif()
  set(PLAB_PYTHON_INSTALL_DIR ${plab_python_dir})
endif()
file(RELATIVE_PATH PLAB_PYTHON_TO_SCENES /prefix/${PLAB_PYTHON_INSTALL_DIR}
     /prefix/${PLAB_SCENES_INSTALL_DIR})
