# pathlab_module(NAME SOURCES... [DEPS targets...] [PRIVATE_DEPS targets...])
# Declares the library target pathlab_<NAME> with the alias pathlab::<NAME>. Each module has its
# own include root (libs/<NAME>/include), so a module can only include the modules it links:
# a wrong-way include fails to compile.
set(PATHLAB_WARNINGS -Wall -Wextra -Wpedantic)

function(pathlab_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  set(target pathlab_${name})
  if(ARG_SOURCES)
    add_library(${target} STATIC ${ARG_SOURCES})
    target_include_directories(${target} PUBLIC
      $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:include>)
    target_link_libraries(${target} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
    target_compile_options(${target} PRIVATE ${PATHLAB_WARNINGS})
    target_compile_features(${target} PUBLIC cxx_std_20)
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE
      $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:include>)
    target_link_libraries(${target} INTERFACE ${ARG_DEPS})
    target_compile_features(${target} INTERFACE cxx_std_20)
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  add_library(pathlab::${name} ALIAS ${target})
  set_property(GLOBAL APPEND PROPERTY PATHLAB_MODULES ${target})
  # What the module links, public and private (a static library's private dependencies are linked
  # by its consumers too): the package's components (PathlabInstall.cmake) are made from it.
  set_property(GLOBAL PROPERTY PATHLAB_DEPS_${name} ${ARG_DEPS} ${ARG_PRIVATE_DEPS})
endfunction()

# pathlab_find_nlohmann_json(): the target nlohmann_json::nlohmann_json, for libs/io and
# libs/json alike. The WebAssembly cross build's find_package looks in Emscripten's sysroot
# only: nlohmann-json is headers, so it takes Debian's, through a folder that holds nothing
# else (not the rest of /usr/include).
function(pathlab_find_nlohmann_json)
  if(TARGET nlohmann_json::nlohmann_json)
    return()
  endif()
  if(EMSCRIPTEN)
    set(headers ${CMAKE_BINARY_DIR}/debian-headers)
    file(MAKE_DIRECTORY ${headers})
    file(CREATE_LINK /usr/include/nlohmann ${headers}/nlohmann SYMBOLIC)
    add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
    target_include_directories(nlohmann_json::nlohmann_json INTERFACE ${headers})
  else()
    find_package(nlohmann_json REQUIRED)
  endif()
endfunction()
