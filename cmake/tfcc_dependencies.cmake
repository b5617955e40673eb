# Every external package the libraries link, found in one place. tfcc_dependency(<find_package
# arguments>) finds the package for this build and records the same call for the installed
# tfccConfig.cmake, which repeats it with find_dependency(): static libraries hand their
# dependencies on to the program that links them. A new dependency is one line here, e.g.
#   tfcc_dependency(HDF5 COMPONENTS C)
# A macro, not a function, so the variables find_package sets stay visible to the caller.
macro(tfcc_dependency)
  find_package(${ARGN} REQUIRED)
  set_property(GLOBAL APPEND PROPERTY TFCC_FIND_DEPENDENCIES "find_dependency(${ARGN})")
endmacro()

tfcc_dependency(Threads)
tfcc_dependency(OpenMP)
tfcc_dependency(ZLIB)
tfcc_dependency(PNG)
tfcc_dependency(Protobuf)
# oneDNN: Debian's dnnl-config.cmake is bypassed (see tfcc_find_dnnl.cmake); the installed package
# includes the same file.
include(${CMAKE_CURRENT_LIST_DIR}/tfcc_find_dnnl.cmake)
set_property(GLOBAL APPEND PROPERTY TFCC_FIND_DEPENDENCIES
             "include(\"\${CMAKE_CURRENT_LIST_DIR}/tfcc_find_dnnl.cmake\")")

# OpenMPI is optional: without it tfcc builds with the one-process default strategy only.
set(TFCC_HAVE_MPI OFF)
if(TFCC_WITH_MPI)
  find_package(MPI COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(TFCC_HAVE_MPI ON)
    set_property(GLOBAL APPEND PROPERTY TFCC_FIND_DEPENDENCIES "find_dependency(MPI COMPONENTS CXX)")
  else()
    message(STATUS "tfcc: OpenMPI not found; building without MultiWorkerMirroredStrategy")
  endif()
endif()
