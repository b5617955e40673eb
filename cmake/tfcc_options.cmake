# Compile options shared by every project target. Warnings are errors on project code only.
add_library(tfcc_options INTERFACE)
target_compile_options(tfcc_options INTERFACE -Wall -Wextra -Werror -Wno-missing-field-initializers)
target_include_directories(tfcc_options INTERFACE ${PROJECT_SOURCE_DIR})
if(TFCC_NATIVE)
  target_compile_options(tfcc_options INTERFACE -march=native)
endif()
if(TFCC_SANITIZE)
  set(_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_compile_options(tfcc_options INTERFACE ${_san})
  target_link_options(tfcc_options INTERFACE ${_san})
endif()

# tfcc_layer(<name> <sources...> DEPS <libs...>): one static library per layer folder.
function(tfcc_layer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_link_libraries(${name} PUBLIC tfcc_options ${ARG_DEPS})
endfunction()
