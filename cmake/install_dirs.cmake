# Where `cmake --install` puts things (GNUInstallDirs), and the relative paths the program and
# the Python module use to find the installed scene files from where they themselves lie, so an
# install works under any prefix (and from the .deb under /usr). Included before the targets.
include(GNUInstallDirs)

set(PLAB_SCENES_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/particle-lab/scenes)
set(PLAB_MESHES_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/particle-lab/meshes)

# The Python module's folder: Debian's interpreter reads lib/python3/dist-packages (not the
# multiarch libdir); another interpreter its own platlib below the prefix.
set(PLAB_PYTHON_INSTALL_DIR "" CACHE STRING
    "Install folder of the Python module below the prefix (empty: the interpreter's)")

# The scene folder relative to the program's and to the module's folder. Both are computed on
# paths below one made-up prefix, so only the relative layout counts.
file(RELATIVE_PATH PLAB_BIN_TO_SCENES /prefix/${CMAKE_INSTALL_BINDIR}
     /prefix/${PLAB_SCENES_INSTALL_DIR})
