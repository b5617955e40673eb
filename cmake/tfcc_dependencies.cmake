# Every external package the libraries link, declared in one place. Each line says how the build
# finds the package and what a user of the installed tfcc needs for it:
#   tfcc_dependency(<find_package arguments> [PKG_CONFIG <module>] [LIBS <flags>] [DEB <package>])
# finds it for this build, and records find_dependency(<find_package arguments>) for the installed
# tfccConfig.cmake (static libraries hand their dependencies on to the program that links them),
# <module> for tfcc.pc's Requires (or <flags> for its Libs where there is no .pc file), and the
# Debian package the .deb depends on. A new dependency is one line, e.g.
#   tfcc_dependency(HDF5 COMPONENTS C PKG_CONFIG hdf5 DEB libhdf5-dev)
# A macro, not a function, so the variables find_package sets stay visible to the caller.
macro(tfcc_dependency)
  cmake_parse_arguments(_tfcc_dep "" "PKG_CONFIG;DEB" "LIBS;FIND" ${ARGN})
  if(NOT _tfcc_dep_FIND)
    find_package(${_tfcc_dep_UNPARSED_ARGUMENTS} REQUIRED)
    string(REPLACE ";" " " _tfcc_dep_FIND "find_dependency(${_tfcc_dep_UNPARSED_ARGUMENTS})")
  endif()
  set_property(GLOBAL APPEND PROPERTY TFCC_FIND_DEPENDENCIES "${_tfcc_dep_FIND}")
  set_property(GLOBAL APPEND PROPERTY TFCC_PC_REQUIRES ${_tfcc_dep_PKG_CONFIG})
  set_property(GLOBAL APPEND PROPERTY TFCC_PC_LIBS ${_tfcc_dep_LIBS})
  set_property(GLOBAL APPEND PROPERTY TFCC_DEB_DEPENDS ${_tfcc_dep_DEB})
endmacro()

tfcc_dependency(Threads LIBS -pthread)
tfcc_dependency(OpenMP LIBS -fopenmp)  # libgomp comes with g++
tfcc_dependency(ZLIB PKG_CONFIG zlib DEB zlib1g-dev)
tfcc_dependency(PNG PKG_CONFIG libpng DEB libpng-dev)
tfcc_dependency(JPEG PKG_CONFIG libjpeg DEB libjpeg62-turbo-dev)
tfcc_dependency(GIF PKG_CONFIG libgif DEB libgif-dev)
tfcc_dependency(Protobuf PKG_CONFIG protobuf DEB libprotobuf-dev)
# libhdf5 (Keras 3 .weights.h5): found and linked by path in tfcc/io/CMakeLists.txt (FindHDF5
# needs the C language); the installed package links that path, tfcc.pc requires hdf5.
tfcc_dependency(FIND "# libhdf5: linked by path" PKG_CONFIG hdf5 DEB libhdf5-dev)
# oneDNN: found directly (tfcc_find_dnnl.cmake says why); the installed package includes the
# same file (<config_dir>: where tfccConfig.cmake is) instead of calling find_dependency().
include(${CMAKE_CURRENT_LIST_DIR}/tfcc_find_dnnl.cmake)
tfcc_dependency(FIND "include(\"<config_dir>/tfcc_find_dnnl.cmake\")" LIBS -ldnnl DEB libdnnl-dev)

# Eigen (header-only): the matrix decompositions' kernels (tfcc/ops/matrix/matrix_eigen_cpu.cc),
# as in TensorFlow. A private build dependency: no installed header includes it and nothing links
# it, so the installed package and the .deb need nothing for it.
find_package(Eigen3 3.3 REQUIRED NO_MODULE)

# OpenMPI is optional: without it tfcc builds with the one-process default strategy only.
set(TFCC_HAVE_MPI OFF)
if(TFCC_WITH_MPI)
  find_package(MPI COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(TFCC_HAVE_MPI ON)
    tfcc_dependency(MPI COMPONENTS CXX PKG_CONFIG ompi-cxx DEB libopenmpi-dev)
  else()
    message(STATUS "tfcc: OpenMPI not found; building without MultiWorkerMirroredStrategy")
  endif()
endif()
