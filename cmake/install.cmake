# `cmake --install build --prefix P` (docs/usage.md "Install"): the model library and
# the Verilated controller models it links, the public headers (P/include/gpupm/,
# included as <gpupm/...>: only P/include is on a consumer's include path),
# gpupmConfig.cmake exporting gpupm::model (static), gpupm::model_shared and
# gpupm::plugin_api, gpupm.pc (the static library), the
# gpupm program, and the data under P/share/gpupm (same layout as the source
# tree: configs/, scripts/).
# Included from the top-level CMakeLists.txt after rtl/rtl.cmake.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GPUPM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpupm)
# Fixed, not GNUInstallDirs': common/data_dir.cc finds the data at <bindir>/../share/gpupm.
set(GPUPM_DATA_SUBDIR share/gpupm)

# Build-tree include paths must not reach the export: wrap each in BUILD_INTERFACE.
function(gpupm_build_only_includes target)
  foreach(property INTERFACE_INCLUDE_DIRECTORIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
    get_target_property(dirs ${target} ${property})
    if(dirs)
      list(TRANSFORM dirs PREPEND "$<BUILD_INTERFACE:")
      list(TRANSFORM dirs APPEND ">")
      set_target_properties(${target} PROPERTIES ${property} "${dirs}")
    endif()
  endforeach()
endfunction()

gpupm_build_only_includes(gpupm_model)
target_include_directories(gpupm_model PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(gpupm_model PROPERTIES EXPORT_NAME model)
# A consumer on a newer standard than the library's (C++17) links too: SystemC's
# headers check the standard the library was built for (as gpupm.pc's Cflags say).
target_compile_definitions(gpupm_model INTERFACE $<INSTALL_INTERFACE:SC_CPLUSPLUS=201703L>)
# A policy plugin's target: the same headers, without the library (the gpupm program has the symbols).
target_include_directories(gpupm_plugin_api INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(gpupm_plugin_api PROPERTIES EXPORT_NAME plugin_api)
# The same position-independent objects as a shared library too (gpupm::model_shared,
# libgpupm_model_shared.so: its own name, so -lgpupm_model still means the static one),
# for a platform that loads its models as shared objects. The Verilated models are
# inside it; what it needs from outside is the static library's.
add_library(gpupm_model_shared SHARED $<TARGET_OBJECTS:gpupm_model>)
set_target_properties(gpupm_model_shared PROPERTIES EXPORT_NAME model_shared)
target_link_options(gpupm_model_shared PRIVATE -Wl,--no-undefined)  # whole: every symbol it uses is resolved
target_link_libraries(gpupm_model_shared PUBLIC PkgConfig::SystemC nlohmann_json::nlohmann_json Eigen3::Eigen
  ${CMAKE_DL_LIBS})
if(TARGET gpupm_rtl_models)
  target_link_libraries(gpupm_model_shared PRIVATE gpupm_rtl_models)
  target_compile_definitions(gpupm_model_shared PUBLIC GPUPM_HAVE_RTL=1)
endif()
target_include_directories(gpupm_model_shared PUBLIC $<BUILD_INTERFACE:${GPUPM_BUILD_INCLUDE}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_definitions(gpupm_model_shared INTERFACE $<INSTALL_INTERFACE:SC_CPLUSPLUS=201703L>)
set(GPUPM_INSTALLED_LIBS gpupm_model gpupm_model_shared gpupm_plugin_api)
if(TARGET gpupm_rtl_models)
  gpupm_build_only_includes(gpupm_rtl_models)  # installed headers do not need Verilator's
  get_target_property(libs gpupm_rtl_models INTERFACE_LINK_LIBRARIES)  # verilate() adds them once per model
  list(REMOVE_DUPLICATES libs)
  set_target_properties(gpupm_rtl_models PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
  set_target_properties(gpupm_rtl_models PROPERTIES EXPORT_NAME rtl_models)
  list(APPEND GPUPM_INSTALLED_LIBS gpupm_rtl_models)
endif()

install(TARGETS ${GPUPM_INSTALLED_LIBS} EXPORT gpupmTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS gpupm RUNTIME DESTINATION bin)
# Every installed header compiles on its own (the install test checks it). Left out: the
# two that pick and drive a Verilated model (they need Verilator's headers and the
# generated rtl_configs.h, which are the library's business, not a user's).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/sc_model/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpupm
  FILES_MATCHING PATTERN "*.h" PATTERN "app" EXCLUDE
  PATTERN "controller_factory.h" EXCLUDE PATTERN "rtl_harness.h" EXCLUDE)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs DESTINATION ${GPUPM_DATA_SUBDIR})
file(GLOB GPUPM_PLOT_SCRIPTS ${CMAKE_SOURCE_DIR}/scripts/plot_*.py)
install(PROGRAMS ${GPUPM_PLOT_SCRIPTS} DESTINATION ${GPUPM_DATA_SUBDIR}/scripts)

install(EXPORT gpupmTargets NAMESPACE gpupm:: DESTINATION ${GPUPM_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/gpupmConfig.cmake.in
  ${CMAKE_BINARY_DIR}/gpupmConfig.cmake INSTALL_DESTINATION ${GPUPM_CMAKE_DIR} PATH_VARS GPUPM_DATA_SUBDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/gpupmConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/gpupmConfig.cmake ${CMAKE_BINARY_DIR}/gpupmConfigVersion.cmake
  DESTINATION ${GPUPM_CMAKE_DIR})

# pkg-config: static libraries, so what they link is listed too (the dynamic loader's
# library for policy plugins' dlopen; the Verilated models, the threads and atomic libraries).
# No -std: the consumer's standard (C++17 or later) stands. SystemC's headers check that
# the library was built for the consumer's standard; SC_CPLUSPLUS names the one SystemC
# and gpupm are built for (C++17), so a C++20 consumer links too.
# The prefix relative to the .pc file, so `--install --prefix` anywhere works.
set(GPUPM_PC_LIBS "-lgpupm_model")
foreach(lib IN LISTS CMAKE_DL_LIBS)
  string(APPEND GPUPM_PC_LIBS " -l${lib}")
endforeach()
set(GPUPM_PC_DEFINES "-DSC_CPLUSPLUS=201703L ")
if(TARGET gpupm_rtl_models)
  string(APPEND GPUPM_PC_LIBS " -lgpupm_rtl_models -pthread -latomic")
  string(APPEND GPUPM_PC_DEFINES "-DGPUPM_HAVE_RTL=1 ")
endif()
file(RELATIVE_PATH GPUPM_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" GPUPM_PC_TO_PREFIX "${GPUPM_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/gpupm.pc.in ${CMAKE_BINARY_DIR}/gpupm.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/gpupm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The install, run from elsewhere, and out-of-tree consumers: tests/install/install_test.sh.
# Not in a sanitizer build: its instrumented libraries need the consumers instrumented too.
if(NOT GPUPM_SANITIZE)
  add_test(NAME install COMMAND ${CMAKE_SOURCE_DIR}/tests/install/install_test.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
  # Both tests run `cmake --install` from this build folder, which writes its install_manifest.txt:
  # never at the same time.
  set_tests_properties(install PROPERTIES LABELS install TIMEOUT 900 COST 150 RESOURCE_LOCK build_install)
  # The examples built out of tree against an install and run: examples/examples_test.sh.
  add_test(NAME examples COMMAND ${CMAKE_SOURCE_DIR}/examples/examples_test.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
  set_tests_properties(examples PROPERTIES LABELS examples TIMEOUT 600 COST 45 RESOURCE_LOCK build_install
    ENVIRONMENT "GPUPM_PYTHON=${Python3_EXECUTABLE}")
endif()
