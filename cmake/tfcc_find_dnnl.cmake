# oneDNN as the imported target DNNL::dnnl. Debian's dnnl-config.cmake insists on OpenCL headers
# (its GPU runtime); tfcc uses only the CPU engine, so the library is found directly. Used by the
# build and by the installed tfccConfig.cmake.
if(NOT TARGET DNNL::dnnl)
  find_library(DNNL_LIBRARY dnnl REQUIRED)
  find_path(DNNL_INCLUDE_DIR oneapi/dnnl/dnnl.hpp REQUIRED)
  add_library(DNNL::dnnl UNKNOWN IMPORTED)
  set_target_properties(DNNL::dnnl PROPERTIES IMPORTED_LOCATION "${DNNL_LIBRARY}"
                                              INTERFACE_INCLUDE_DIRECTORIES "${DNNL_INCLUDE_DIR}")
endif()
