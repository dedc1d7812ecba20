# Install rules and the Debian package. `cmake --install build/release --prefix DIR` puts the `roofline`
# executable in DIR/bin and the data it reads (advertised specs, model configs) in DIR/share/roofline;
# the binary finds that data relative to itself (bench/harness/data_dir.cpp), so an installed copy runs from any
# folder without the source tree. `cpack --config build/release/CPackConfig.cmake -G DEB` builds a .deb.
include(GNUInstallDirs)

install(TARGETS roofline RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Data folders, each installed as share/roofline/<name>; bench/harness/data_dir.cpp knows the same list (a
# folder added here is added there too, and a test checks that the installed tree has each).
set(ROOFLINE_DATA_FOLDERS analysis/specs analysis/llm/models)
foreach(folder IN LISTS ROOFLINE_DATA_FOLDERS)
  get_filename_component(name ${folder} NAME)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${folder}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/roofline/${name}
          FILES_MATCHING PATTERN "*.json" PATTERN "*.md")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME roofline)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Measures a machine's real performance ceilings and places real work under them")
set(CPACK_PACKAGE_CONTACT "roofline maintainers <roofline@localhost>")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The shared libraries the binary links (hwloc, fmt, benchmark, sqlite, oneDNN, OpenBLAS, libgomp) found
# by dpkg-shlibdeps, so the package pulls exactly what it needs.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
