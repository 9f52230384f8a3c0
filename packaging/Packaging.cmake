# Desktop integration and the Debian package (CPack DEB).
#   cmake --build build --target package     → build/moe-workbench_<version>_<arch>.deb
# Depends are computed by dpkg-shlibdeps from the installed binaries, plus the
# run-time pieces no ELF file names (the Qt SQLite driver and the platform plugins).
if(MOEWB_WITH_GUI)
  set(_moewb_linux ${CMAKE_CURRENT_LIST_DIR}/linux)
  install(FILES ${_moewb_linux}/moe-workbench.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${_moewb_linux}/org.moeworkbench.MoEWorkbench.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES ${_moewb_linux}/moe-workbench-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
          RENAME moe-workbench.xml)
  install(FILES ${_moewb_linux}/icons/moe-workbench.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  foreach(size 16 32 48 64 128 256)
    install(FILES ${_moewb_linux}/icons/moe-workbench-${size}.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps RENAME moe-workbench.png)
  endforeach()
endif()
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md" PATTERN "*.png")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME moe-workbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "MoE Workbench")
set(CPACK_PACKAGE_CONTACT "MoE Workbench maintainers <maintainers@moe-workbench.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Evaluate Mixture-of-Experts training on real GPU clusters")
set(CPACK_PACKAGE_DESCRIPTION
    "A desktop workbench and command-line tool that guides a gated four-stage evaluation of\
 Mixture-of-Experts training (communication baseline, dense control, expert load and loss,\
 transfer to another cluster), runs its bundled all-to-all probe on cluster nodes over SSH,\
 imports training logs and exports PDF reports.")
set(CPACK_PACKAGE_FILE_NAME "moe-workbench_${PROJECT_VERSION}_amd64")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openssh-client, poppler-utils, fonts-noto-cjk, qt6-translations-l10n, python3-torch") # Chinese text; Qt's own dialogs in Chinese; python3-torch: moewb reference and the collector
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)
