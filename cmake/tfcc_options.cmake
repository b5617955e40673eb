# Compile options shared by every project target. Warnings are errors on project code only.
# tfcc_options is a build-tree target: the libraries link it as $<BUILD_INTERFACE:...>, so neither
# -Werror nor -march reaches the installed package or a program built against it.
add_library(tfcc_options INTERFACE)
target_compile_options(tfcc_options INTERFACE -Wall -Wextra -Werror -Wno-missing-field-initializers)
target_include_directories(tfcc_options INTERFACE ${PROJECT_SOURCE_DIR})
if(TFCC_NATIVE)
  target_compile_options(tfcc_options INTERFACE -march=native)
elseif(TFCC_ARCH)
  target_compile_options(tfcc_options INTERFACE -march=${TFCC_ARCH})
endif()
if(TFCC_SANITIZE)
  set(_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_compile_options(tfcc_options INTERFACE ${_san})
  target_link_options(tfcc_options INTERFACE ${_san})
endif()

# What goes into the library is compiled with hidden visibility, in the static build too: the
# objects are then the same in both builds (a shared configuration's compiles hit the static
# build's ccache entries, so the shared-build test costs little more than a link), and libtfcc.so
# exports the public headers' declarations only (tfcc/export.h). An archive linked into a program
# is unaffected (visibility matters to a shared object's dynamic symbol table only).
function(tfcc_hidden_visibility target)
  set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden
                                             VISIBILITY_INLINES_HIDDEN ON)
endfunction()

# tfcc_layer(<name> SOURCES <sources...> DEPS <libs...>): one static library per layer folder,
# installed and exported as tfcc::<folder> (cmake/tfcc_install.cmake). With BUILD_SHARED_LIBS the
# layers are still static (position-independent) archives, linked whole into the one libtfcc.so.
function(tfcc_layer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  tfcc_hidden_visibility(${name})
  target_link_libraries(${name} PUBLIC $<BUILD_INTERFACE:tfcc_options> ${ARG_DEPS})
  string(REGEX REPLACE "^tfcc_" "" export_name ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${export_name})
  set_property(GLOBAL APPEND PROPERTY TFCC_INSTALL_LIBRARIES ${name})
endfunction()

# tfcc_link_layers_instead(<dir>): every target defined under <dir> that links tfcc links the layer
# archives in its place. For a shared build's tests: libtfcc.so exports the user API only
# (tfcc/export.h), and the tests reach internals (kernels, the op registry), so they link the same
# code as archives.
function(tfcc_link_layers_instead dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
      continue()
    endif()
    get_target_property(libs ${target} LINK_LIBRARIES)
    if(libs AND "tfcc" IN_LIST libs)
      list(TRANSFORM libs REPLACE "^tfcc$" "${TFCC_LAYER_TARGETS}")
      set_property(TARGET ${target} PROPERTY LINK_LIBRARIES ${libs})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir ${subdirs})
    tfcc_link_layers_instead(${subdir})
  endforeach()
endfunction()
