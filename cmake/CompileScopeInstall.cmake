# Install layout (GNUInstallDirs) and the Debian packages (CPack).
#
# Why this layout: `compilescope record` finds its helpers relative to its own binary
# (app/cli/cmd_record.cpp): the recorder in ../libexec, the collector and CUDA libraries in ../lib,
# the Python collectors in ../share/compilescope/python. So the library directory is plain "lib"
# (not a multiarch subdirectory) and the tree works wherever it is unpacked.
#
# Packages: `compilescope` (CLI, recorder, collector SDK, CUDA shims, Python collectors, man pages,
# completion) and `compilescope-gui` (the desktop application, its .desktop entry, icon, MIME type
# and AppStream metainfo). Depends are computed from the binaries (dpkg-shlibdeps).
set(CMAKE_INSTALL_LIBDIR lib CACHE STRING "Library directory (plain lib: the CLI finds its libraries there)")
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CMAKE_INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")

# --- CLI, recorder -----------------------------------------------------------------------------------
install(TARGETS compilescope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(TARGETS compilescope-recorder RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR} COMPONENT cli)

# --- collector SDK: versioned shared library, static twin, headers, pkg-config, CMake package -------
set_target_properties(compilescope_collector PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  EXPORT_NAME collector)
set_target_properties(compilescope_collector_static PROPERTIES EXPORT_NAME collector_static)
set_target_properties(compilescope_constants PROPERTIES EXPORT_NAME constants)
install(TARGETS compilescope_collector compilescope_collector_static compilescope_constants
        EXPORT CompileScopeCollectorTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT cli
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT cli
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/collectors/native/include/compilescope
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT cli)
install(EXPORT CompileScopeCollectorTargets NAMESPACE CompileScope::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/CompileScopeCollector COMPONENT cli)
configure_package_config_file(${PROJECT_SOURCE_DIR}/packaging/sdk/CompileScopeCollectorConfig.cmake.in
  ${PROJECT_BINARY_DIR}/packaging/CompileScopeCollectorConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/CompileScopeCollector)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/packaging/CompileScopeCollectorConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/packaging/CompileScopeCollectorConfig.cmake
              ${PROJECT_BINARY_DIR}/packaging/CompileScopeCollectorConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/CompileScopeCollector COMPONENT cli)
configure_file(${PROJECT_SOURCE_DIR}/packaging/sdk/compilescope-collector.pc.in
               ${PROJECT_BINARY_DIR}/packaging/compilescope-collector.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/packaging/compilescope-collector.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT cli)
install(FILES ${PROJECT_SOURCE_DIR}/collectors/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR}/collector-sdk COMPONENT cli)

# --- CUDA shims (where CUDA was found) ---------------------------------------------------------------
foreach(t compilescope_cuda_interposer compilescope_cupti)
  if(TARGET ${t})
    install(TARGETS ${t} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT cli)
  endif()
endforeach()

# --- Python collectors (loaded by `record --warp` / `--numba` and by `pip install`) ---------------
install(DIRECTORY ${PROJECT_SOURCE_DIR}/collectors/python/compilescope
        DESTINATION ${CMAKE_INSTALL_DATADIR}/compilescope/python COMPONENT cli
        PATTERN "__pycache__" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/collectors/python/pyproject.toml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/compilescope/python COMPONENT cli)

# --- man pages and bash completion, generated from the --help texts ----------------------------------
set(_docs ${PROJECT_BINARY_DIR}/clidocs)
set(_gui_arg "")
if(TARGET compilescope-gui)
  set(_gui_arg -DGUI=$<TARGET_FILE:compilescope-gui>)
endif()
add_custom_command(OUTPUT ${_docs}/man1/compilescope.1 ${_docs}/bash-completion/compilescope
  COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:compilescope> ${_gui_arg} -DOUT=${_docs} -DVERSION=${PROJECT_VERSION}
          -P ${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.cmake
  DEPENDS compilescope $<$<TARGET_EXISTS:compilescope-gui>:compilescope-gui> ${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.cmake
  COMMENT "Man pages and bash completion from the --help texts" VERBATIM)
add_custom_target(compilescope_clidocs ALL DEPENDS ${_docs}/man1/compilescope.1)
install(DIRECTORY ${_docs}/man1 DESTINATION ${CMAKE_INSTALL_MANDIR} COMPONENT cli
        FILES_MATCHING PATTERN "compilescope*.1" PATTERN "compilescope-gui.1" EXCLUDE)
install(FILES ${_docs}/bash-completion/compilescope DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        COMPONENT cli)

# --- the desktop application -------------------------------------------------------------------------
if(TARGET compilescope-gui)
  install(TARGETS compilescope-gui RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT gui)
  install(FILES ${_docs}/man1/compilescope-gui.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT gui)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/desktop/compilescope-gui.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT gui)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/desktop/compilescope.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT gui)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/desktop/compilescope-mime.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME compilescope.xml COMPONENT gui)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/desktop/io.github.compilescope.CompileScope.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT gui)
  # The start screen's "Open the demo" (app/widgets/start_screen.h looks for it here).
  install(FILES ${PROJECT_SOURCE_DIR}/resources/demo/demo.cstrace DESTINATION ${CMAKE_INSTALL_DATADIR}/compilescope/demo COMPONENT gui)
  # PNG icons rendered from the SVG at build time, where rsvg-convert exists.
  find_program(COMPILESCOPE_RSVG rsvg-convert)
  if(COMPILESCOPE_RSVG)
    set(_pngs "")
    foreach(size 16 32 48 64 128 256)
      set(_png ${PROJECT_BINARY_DIR}/icons/${size}x${size}/compilescope.png)
      add_custom_command(OUTPUT ${_png}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/icons/${size}x${size}
        COMMAND ${COMPILESCOPE_RSVG} -w ${size} -h ${size} -o ${_png} ${PROJECT_SOURCE_DIR}/packaging/desktop/compilescope.svg
        DEPENDS ${PROJECT_SOURCE_DIR}/packaging/desktop/compilescope.svg VERBATIM)
      list(APPEND _pngs ${_png})
      install(FILES ${_png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps COMPONENT gui)
    endforeach()
    add_custom_target(compilescope_icons ALL DEPENDS ${_pngs})
  endif()
endif()

# --- Debian packages ---------------------------------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME compilescope)
set(CPACK_PACKAGE_VENDOR "The CompileScope developers")
set(CPACK_PACKAGE_CONTACT "The CompileScope developers <compilescope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL cli gui)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_CLI_PACKAGE_NAME compilescope)
set(CPACK_DEBIAN_GUI_PACKAGE_NAME compilescope-gui)
set(CPACK_DEBIAN_GUI_PACKAGE_DEPENDS "compilescope (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_CLI_PACKAGE_SUGGESTS "python3-numba")
set(CPACK_COMPONENT_CLI_DESCRIPTION "CompileScope command line, recorder and collector SDK\n"
    " Records and explains every compile a JIT stack does (Julia, Warp, Numba, NVRTC).")
set(CPACK_COMPONENT_GUI_DESCRIPTION "CompileScope desktop application\n"
    " Timelines, cache misses, repeated hashes and invalidation trees of a CompileScope trace.")
include(CPack)
