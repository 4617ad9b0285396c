# `cmake --install` (GNUInstallDirs; locations in cmake/install_dirs.cmake): the program to
# bin/, the scene files to share/particle-lab/scenes and their meshes to
# share/particle-lab/meshes (the program and the module find them
# relative to themselves), the Python module to the interpreter's package folder (Debian:
# lib/python3/dist-packages), the README and the examples to share/doc/particle-lab. CPack
# makes a .deb of the same tree under /usr with its Debian dependencies declared.
# Installing (and CPack) packs what was built; it does not build every target first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
install(TARGETS particle-lab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/scenes/ DESTINATION ${PLAB_SCENES_INSTALL_DIR}
        FILES_MATCHING PATTERN "*.json")
# The meshes the scenes name, beside the scene folder as in the source tree (a scene's mesh path
# is relative to the scene file: ../meshes/funnel.stl).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/meshes/ DESTINATION ${PLAB_MESHES_INSTALL_DIR}
        FILES_MATCHING PATTERN "*.stl")
set(PLAB_DOC_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/doc/particle-lab)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${PLAB_DOC_INSTALL_DIR})
if(TARGET particle_lab)
  install(TARGETS particle_lab LIBRARY DESTINATION ${PLAB_PYTHON_INSTALL_DIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${PLAB_DOC_INSTALL_DIR}/examples
          FILES_MATCHING PATTERN "*.py")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME particle-lab)
set(CPACK_PACKAGE_VENDOR "Particle Lab")
set(CPACK_PACKAGE_CONTACT "Particle Lab maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "DEM granular and SPH fluid particle simulation on CUDA or OpenMP, with an OpenGL window, "
    "a headless benchmark lab and the Python module particle_lab.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The libraries the binaries link (libgomp, libglfw, libEGL, ...), found by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(TARGET particle_lab)
  # The module is built for one Python minor version, and imports NumPy.
  set(plab_py "${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}")
  math(EXPR plab_py_next "${Python_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "python3 (>= ${plab_py}), python3 (<< ${Python_VERSION_MAJOR}.${plab_py_next}), python3-numpy")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-matplotlib")
endif()
include(CPack)
