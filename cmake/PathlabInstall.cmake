# Install rules and package export: find_package(pathlab) gives pathlab::pathlab and one
# pathlab::<module> target per module.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(modules GLOBAL PROPERTY PATHLAB_MODULES)
install(TARGETS ${modules} pathlab EXPORT pathlabTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Every module's public headers (a list written out here once missed agents and post, which
# render's simulation.hpp includes).
file(GLOB module_includes LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/libs/*/include)
foreach(dir ${module_includes})
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
if(TARGET pathlab_cli)
  install(TARGETS pathlab_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT pathlabTargets NAMESPACE pathlab:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pathlab)
export(EXPORT pathlabTargets NAMESPACE pathlab:: FILE ${PROJECT_BINARY_DIR}/pathlabTargets.cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pathlabConfig.cmake.in
  ${PROJECT_BINARY_DIR}/pathlabConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pathlab)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pathlabConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pathlabConfig.cmake ${PROJECT_BINARY_DIR}/pathlabConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pathlab)
