# What `cmake --install` and the .deb put in place, in one file: the headers of the user API, the
# libraries, the `tfcc` command line, the CMake package (find_package(tfcc) -> tfcc::tfcc) and
# tfcc.pc for pkg-config.
include(CMakePackageConfigHelpers)
set(TFCC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tfcc)

# Headers: tfcc/tfcc.h and every header it reaches through #include "tfcc/...". That closure is
# the user API, and each installed header compiles because everything it includes is installed.
# Kernel helpers, *_internal.h and the like stay out unless a public header includes them.
# ops/registry.h is installed beside them, outside the umbrella: the Python front end (built by
# `pip install .` against an installed tfcc) lists every registered op through it.
function(tfcc_public_headers out)
  set(todo tfcc/tfcc.h tfcc/ops/registry.h)
  set(seen)
  while(todo)
    list(POP_FRONT todo header)
    if(header IN_LIST seen OR header STREQUAL "tfcc/version.h")
      continue()
    endif()
    list(APPEND seen ${header})
    file(STRINGS ${PROJECT_SOURCE_DIR}/${header} includes REGEX "^#include \"tfcc/[^\"]+\"")
    foreach(line ${includes})
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
      list(APPEND todo ${included})
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()
tfcc_public_headers(TFCC_PUBLIC_HEADERS)
foreach(header ${TFCC_PUBLIC_HEADERS})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${dir})
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/tfcc/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tfcc)

# Libraries. Static (default): every layer archive and the generated protobuf code, exported as
# tfcc::<layer> and linked by tfcc::tfcc. Shared: libtfcc.so alone (the layers are inside it).
get_property(TFCC_INSTALL_LIBRARIES GLOBAL PROPERTY TFCC_INSTALL_LIBRARIES)
if(BUILD_SHARED_LIBS)
  set(TFCC_INSTALL_TARGETS tfcc)
else()
  set(TFCC_INSTALL_TARGETS tfcc ${TFCC_INSTALL_LIBRARIES} tfcc_proto)
  set_target_properties(tfcc_proto PROPERTIES EXPORT_NAME proto)
endif()
install(TARGETS ${TFCC_INSTALL_TARGETS} EXPORT tfccTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS tfcc_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(BUILD_SHARED_LIBS)
  # The installed `tfcc` finds libtfcc.so next to it, wherever the prefix is.
  set_target_properties(tfcc_cli PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
endif()
install(EXPORT tfccTargets NAMESPACE tfcc:: DESTINATION ${TFCC_CMAKE_DIR})

# The package: tfccConfig.cmake finds the dependencies recorded by tfcc_dependency() (static
# libraries pass them on to the program; libtfcc.so has them linked in already).
if(BUILD_SHARED_LIBS)
  set(TFCC_CONFIG_DEPENDENCIES "")
else()
  get_property(_deps GLOBAL PROPERTY TFCC_FIND_DEPENDENCIES)
  list(JOIN _deps "\n" TFCC_CONFIG_DEPENDENCIES)
  string(REPLACE "<config_dir>" "\${CMAKE_CURRENT_LIST_DIR}" TFCC_CONFIG_DEPENDENCIES
                 "${TFCC_CONFIG_DEPENDENCIES}")
endif()
configure_package_config_file(cmake/tfccConfig.cmake.in ${PROJECT_BINARY_DIR}/tfccConfig.cmake
                              INSTALL_DESTINATION ${TFCC_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tfccConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tfccConfig.cmake ${PROJECT_BINARY_DIR}/tfccConfigVersion.cmake
              cmake/tfcc_find_dnnl.cmake
        DESTINATION ${TFCC_CMAKE_DIR})

# pkg-config: prefix is found from the .pc file's own place, so an install moved elsewhere (a
# scratch root, a temporary prefix) still resolves.
file(RELATIVE_PATH TFCC_PC_PREFIX_FROM_PCDIR
     ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" TFCC_PC_PREFIX_FROM_PCDIR "${TFCC_PC_PREFIX_FROM_PCDIR}")
get_property(_requires GLOBAL PROPERTY TFCC_PC_REQUIRES)
list(JOIN _requires " " TFCC_PC_REQUIRES)
get_property(_libs GLOBAL PROPERTY TFCC_PC_LIBS)
list(JOIN _libs " " TFCC_PC_DEPS_LIBS)
set(TFCC_PC_CFLAGS "-std=c++20")
if(TFCC_HAVE_MPI)
  string(APPEND TFCC_PC_CFLAGS " -DTFCC_HAVE_MPI=1")
endif()
if(BUILD_SHARED_LIBS)
  set(TFCC_PC_LIBS "-ltfcc")
  set(TFCC_PC_LIBS_PRIVATE "${TFCC_PC_DEPS_LIBS}")
  set(TFCC_PC_REQUIRES_PRIVATE "${TFCC_PC_REQUIRES}")
  set(TFCC_PC_REQUIRES "")
else()
  # Archives in link order: each before the ones it uses.
  set(TFCC_PC_LIBS "-ltfcc")
  foreach(lib ${TFCC_LAYER_TARGETS} tfcc_proto)
    string(APPEND TFCC_PC_LIBS " -l${lib}")
  endforeach()
  string(APPEND TFCC_PC_LIBS " ${TFCC_PC_DEPS_LIBS}")
  set(TFCC_PC_LIBS_PRIVATE "")
  set(TFCC_PC_REQUIRES_PRIVATE "")
endif()
configure_file(cmake/tfcc.pc.in ${PROJECT_BINARY_DIR}/tfcc.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tfcc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

include(cmake/tfcc_package.cmake)
