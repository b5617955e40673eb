# CPack: `make package` (Makefile) writes a Debian package of what tfcc_install.cmake installs,
# rooted at /usr, with the Debian packages a program built against it needs.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tfcc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "tfcc maintainers <tfcc@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "TensorFlow 2's programming model, native in C++")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
# gzip: the archives are large and xz would take minutes on a small machine.
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
# Headers and static archives: a program built against them needs the dependencies' headers and
# development libraries, and a C++20 compiler (libgomp comes with g++).
set(_depends "g++ (>= 4:12), libdnnl-dev, libprotobuf-dev, zlib1g-dev, libpng-dev")
if(TFCC_HAVE_MPI)
  string(APPEND _depends ", libopenmpi-dev")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_depends}")
include(CPack)
