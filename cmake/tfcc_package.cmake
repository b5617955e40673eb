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
# Headers and static archives: a program built against them needs a C++20 compiler and the
# development packages of the dependencies (cmake/tfcc_dependencies.cmake lists them).
get_property(_depends GLOBAL PROPERTY TFCC_DEB_DEPENDS)
list(PREPEND _depends "g++ (>= 4:12)")
list(JOIN _depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
include(CPack)
