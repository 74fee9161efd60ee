# Install rules and package export. find_package(pathlab) gives pathlab::pathlab and one
# pathlab::<module> target per module; each module is a component with its own export set, so
# find_package(pathlab COMPONENTS search) loads search and the modules it links and looks only
# for their third-party dependencies (pathlabConfig.cmake.in).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(pathlab_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/pathlab)
get_property(modules GLOBAL PROPERTY PATHLAB_MODULES)

# How a consumer finds each third-party target a module links. A module that links a target not
# named here stops the configuration: the package would otherwise install and fail to load.
set(pathlab_need_Threads::Threads Threads)
set(pathlab_need_GIF::GIF GIF)
set(pathlab_need_nlohmann_json::nlohmann_json nlohmann_json)
set(pathlab_need_PkgConfig::STB pkg:STB:stb)

# One export set and targets file per module, and the component table the config file reads:
# in the order the modules were declared (each after the modules it links), the modules each
# one links and the third-party packages it needs.
set(PATHLAB_COMPONENT_TABLE "")
set(names "")
foreach(target ${modules})
  string(REGEX REPLACE "^pathlab_" "" name ${target})
  list(APPEND names ${name})
  get_property(deps GLOBAL PROPERTY PATHLAB_DEPS_${name})
  set(requires "")
  set(needs "")
  foreach(dep ${deps})
    if(dep MATCHES "^pathlab::(.+)$")
      list(APPEND requires ${CMAKE_MATCH_1})
    elseif(DEFINED pathlab_need_${dep})
      list(APPEND needs ${pathlab_need_${dep}})
    else()
      message(FATAL_ERROR "pathlab_${name} links ${dep}: say in cmake/PathlabInstall.cmake how "
                          "a consumer of the installed package finds it")
    endif()
  endforeach()
  string(APPEND PATHLAB_COMPONENT_TABLE
         "set(_pathlab_requires_${name} \"${requires}\")\nset(_pathlab_needs_${name} \"${needs}\")\n")
  install(TARGETS ${target} EXPORT pathlab_${name}Targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT pathlab_${name}Targets NAMESPACE pathlab:: DESTINATION ${pathlab_cmake_dir})
  export(EXPORT pathlab_${name}Targets NAMESPACE pathlab::
         FILE ${PROJECT_BINARY_DIR}/pathlab_${name}Targets.cmake)
endforeach()
# The C ABI (libpathlab_c, a shared library: the modules are inside it) is the component `c`,
# pathlab::c, with pkg-config's pathlab-c.pc for builds that do not use CMake.
if(TARGET pathlab_c)
  list(APPEND names c)
  string(APPEND PATHLAB_COMPONENT_TABLE "set(_pathlab_requires_c \"\")\nset(_pathlab_needs_c \"\")\n")
  install(TARGETS pathlab_c EXPORT pathlab_cTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT pathlab_cTargets NAMESPACE pathlab:: DESTINATION ${pathlab_cmake_dir})
  export(EXPORT pathlab_cTargets NAMESPACE pathlab:: FILE ${PROJECT_BINARY_DIR}/pathlab_cTargets.cmake)
  # Relocatable: the prefix is found from the folder the .pc file is installed in.
  file(RELATIVE_PATH PATHLAB_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
  string(REGEX REPLACE "/$" "" PATHLAB_PC_TO_PREFIX "${PATHLAB_PC_TO_PREFIX}")
  configure_file(${PROJECT_SOURCE_DIR}/libs/capi/pathlab-c.pc.in ${PROJECT_BINARY_DIR}/pathlab-c.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pathlab-c.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
string(PREPEND PATHLAB_COMPONENT_TABLE "set(_pathlab_components \"${names}\")\n")

# pathlab::pathlab, the bundle of every module: loaded when no component is named.
install(TARGETS pathlab EXPORT pathlabTargets)
install(EXPORT pathlabTargets NAMESPACE pathlab:: DESTINATION ${pathlab_cmake_dir})
export(EXPORT pathlabTargets NAMESPACE pathlab:: FILE ${PROJECT_BINARY_DIR}/pathlabTargets.cmake)

# Every module's public headers (a list written out here once missed agents and post, which
# render's simulation.hpp includes).
file(GLOB module_includes LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/libs/*/include)
foreach(dir ${module_includes})
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
if(TARGET pathlab_cli)
  install(TARGETS pathlab_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pathlabConfig.cmake.in
  ${PROJECT_BINARY_DIR}/pathlabConfig.cmake INSTALL_DESTINATION ${pathlab_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pathlabConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pathlabConfig.cmake ${PROJECT_BINARY_DIR}/pathlabConfigVersion.cmake
        DESTINATION ${pathlab_cmake_dir})
