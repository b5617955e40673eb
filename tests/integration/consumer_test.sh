#!/usr/bin/env bash
# tfcc used from another project, as a user would: install it, then build examples/consumer (its
# own CMakeLists.txt: find_package(tfcc 0.2) + tfcc::tfcc) against the install and run it.
#   install: `cmake --install BUILD --prefix WORK/prefix`, plus a pkg-config build of hello.cc
#   deb:     `cpack -G DEB` on BUILD, the package unpacked by `dpkg -x` into WORK/root, its
#            declared dependencies checked, the consumer built against WORK/root/usr
#   shared:  tfcc configured again in $TFCC_SHARED_BUILD_DIR (default BUILD-shared, kept between
#            runs) with -DBUILD_SHARED_LIBS=ON, the library and the CLI only, with BUILD's compile
#            options, so ccache serves BUILD's objects (the layers are compiled with hidden
#            visibility in both; a sibling of BUILD, so that CCACHE_BASEDIR's relative paths are
#            the same), installed into WORK/prefix; the consumer then links libtfcc.so, and only
#            what tfcc/export.h exports
# Both check `tfcc --version`, that no -march flag reaches the installed package's interface, and
# that every header an installed header includes is installed.
# usage: consumer_test.sh install|deb|shared BUILD_DIR SOURCE_DIR WORK_DIR VERSION [CMAKE_ARGS...]
# (CMAKE_ARGS: BUILD's options that reach the compile lines, for the shared configuration)
set -u
mode=$1
build=$2
source_dir=$3
work=$4
version=$5
shift 5
source "$(dirname "$0")/checks.sh"
launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

case $mode in
  install)
    prefix=$work/prefix
    cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
      { cat "$work/install.log"; echo "FAIL: cmake --install"; exit 1; }
    ;;
  deb)
    (cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg") \
      > "$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1; }
    deb=$(ls "$work"/pkg/tfcc_*.deb)
    dpkg-deb -f "$deb" Package Version Depends | tee "$work/control.txt"
    check "package version" "^Version: $version$" "$work/control.txt"
    for dep in libdnnl-dev libprotobuf-dev zlib1g-dev libpng-dev; do
      check "depends on $dep" "^Depends:.*$dep" "$work/control.txt"
    done
    dpkg-deb -c "$deb" | awk '{print $6}' > "$work/contents.txt"
    check "installs under /usr" "^\./usr/include/tfcc/tfcc\.h$" "$work/contents.txt"
    dpkg -x "$deb" "$work/root"
    prefix=$work/root/usr
    ;;
  shared)
    # The environment's CCACHE_BASEDIR (the one BUILD was built with) is kept here, so the
    # library's compiles hash as BUILD's did.
    shared_build=${TFCC_SHARED_BUILD_DIR:-$build-shared}
    cmake -S "$source_dir" -B "$shared_build" -DBUILD_SHARED_LIBS=ON -DTFCC_BUILD_TESTS=OFF \
      -DTFCC_BUILD_EXAMPLES=OFF -DTFCC_BUILD_BENCHMARKS=OFF "$@" > "$work/configure_tfcc.log" 2>&1 ||
      { cat "$work/configure_tfcc.log"; echo "FAIL: configuring the shared build"; exit 1; }
    start=$(date +%s)
    cmake --build "$shared_build" -j 2 --target tfcc tfcc_cli > "$work/build_tfcc.log" 2>&1 ||
      { tail -50 "$work/build_tfcc.log"; echo "FAIL: building libtfcc.so"; exit 1; }
    echo "libtfcc.so and the CLI built in $(($(date +%s) - start)) s"
    prefix=$work/prefix
    rm -rf "$prefix"
    cmake --install "$shared_build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
      { cat "$work/install.log"; echo "FAIL: cmake --install of the shared build"; exit 1; }
    so=$(find "$prefix" -name 'libtfcc.so.*.*.*' | head -1)
    [ -n "$so" ] || fail "no libtfcc.so.MAJOR.MINOR.PATCH installed"
    readelf -d "$so" > "$work/dynamic.txt"
    check "libtfcc.so has a SONAME" "(SONAME).*\[libtfcc\.so\.${version%.*}\]" "$work/dynamic.txt"
    check "libtfcc.so is ${version}" "libtfcc\.so\.${version}$" <(echo "$so")
    ldd "$prefix/bin/tfcc" > "$work/cli_ldd.txt" 2>&1
    check "the installed tfcc runs on libtfcc.so" "libtfcc\.so\.${version%.*} => $prefix" \
      "$work/cli_ldd.txt"
    ;;
  *)
    echo "usage: consumer_test.sh install|deb|shared BUILD_DIR SOURCE_DIR WORK_DIR VERSION"
    exit 2
    ;;
esac

"$prefix/bin/tfcc" --version > "$work/version.txt" 2>&1
check "tfcc --version" "^tfcc $version$" "$work/version.txt"
config=$(find "$prefix" -name tfccConfig.cmake)
[ -n "$config" ] || fail "no tfccConfig.cmake under $prefix"
if grep -rn -- "-march" "$(dirname "$config")" "$(find "$prefix" -name tfcc.pc)"; then
  fail "-march reaches the installed package's interface"
else
  echo "ok: no -march in the installed CMake package or tfcc.pc"
fi
missing=0
while read -r included; do
  if [ ! -f "$prefix/include/$included" ]; then
    echo "FAIL: an installed header includes $included, which is not installed"
    missing=1
  fi
done < <(grep -rhoE '^#include "tfcc/[^"]+"' "$prefix/include/tfcc" | sed 's/^#include "//; s/"$//' |
  sort -u)
[ $missing -eq 0 ] && echo "ok: every header an installed header includes is installed" ||
  failures=$((failures + 1))
# Each installed header is one export region (tfcc/export.h): what it declares is exported from
# libtfcc.so, and a push without its pop would change the visibility of the program's own code.
# ops/registry.h is the exception: installed for the Python front end, which links the static
# libraries, it stays unexported (libtfcc.so does not export OpRegistry, checked below).
unmarked=0
while read -r header; do
  pushes=$(grep -c '^#pragma GCC visibility push(default)' "$header")
  pops=$(grep -c '^#pragma GCC visibility pop' "$header")
  if [ "$pushes" -ne 1 ] || [ "$pops" -ne 1 ]; then
    echo "FAIL: $header: $pushes visibility push(default), $pops pop (want one each: tfcc/export.h)"
    unmarked=1
  fi
done < <(find "$prefix/include/tfcc" -name '*.h' ! -path '*/tfcc/ops/registry.h')
[ $unmarked -eq 0 ] && echo "ok: every installed header is one export region" ||
  failures=$((failures + 1))
# A shared build exports the public API only: not the kernels, the op registry or the protobuf
# message classes.
so=$(find "$prefix" -name 'libtfcc.so.*.*.*' | head -1)
if [ -n "$so" ]; then
  nm -DC --defined-only "$so" > "$work/exports.txt"
  echo "libtfcc.so exports $(wc -l < "$work/exports.txt") symbols"
  check "libtfcc.so exports the user API" " tfcc::matmul\(" "$work/exports.txt"
  for internal in "tfcc::kernels::" "tfcc::OpRegistry::" "tfcc::onednn::" "tensorflow::"; do
    if grep -q " $internal" "$work/exports.txt"; then
      fail "libtfcc.so exports $internal symbols: $(grep " $internal" "$work/exports.txt" | head -3)"
    else
      echo "ok: libtfcc.so keeps $internal to itself"
    fi
  done
fi

# The consumer project, built as its README says. Its objects are cached like the project's;
# paths under WORK hash relative to it.
export CCACHE_BASEDIR=$work
cmake -S "$source_dir/examples/consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; echo "FAIL: configuring the consumer"; exit 1; }
cmake --build "$work/consumer" -j 2 > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "FAIL: building the consumer"; exit 1; }
"$work/consumer/hello" > "$work/hello.txt" 2>&1 || fail "hello exited with $?"
cat "$work/hello.txt"
check "README example prints" "^tf\.Tensor\(5, shape=\(\), dtype=int32\)$" "$work/hello.txt"
"$work/consumer/fit" > "$work/fit.txt" 2>&1 || fail "fit exited with $?"
cat "$work/fit.txt"
check "fit reports the library version" "^tfcc $version \(headers $version\)$" "$work/fit.txt"
check "fit prints Keras progress" "^16/16 \[=+\] - .* - loss: [0-9.]+ - accuracy: [0-9.]+$" "$work/fit.txt"
check "fit ends with a loss" "^loss after one epoch: [0-9.e+-]+$" "$work/fit.txt"

if [ "$mode" = install ] && command -v pkg-config > /dev/null; then
  pcdir=$(dirname "$(find "$prefix" -name tfcc.pc)")
  flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs tfcc) || fail "pkg-config tfcc"
  echo "pkg-config --cflags --libs tfcc: $flags"
  # shellcheck disable=SC2086  # the flags are words
  ${launcher:+ccache} g++ -O1 "$source_dir/examples/consumer/hello.cc" -o "$work/hello_pc" $flags \
    > "$work/pc_build.log" 2>&1 || { cat "$work/pc_build.log"; fail "pkg-config build of hello.cc"; }
  LD_LIBRARY_PATH=$(dirname "$pcdir") "$work/hello_pc" > "$work/hello_pc.txt" 2>&1 || fail "hello_pc"
  check "pkg-config build runs" "^tf\.Tensor\(5, shape=\(\), dtype=int32\)$" "$work/hello_pc.txt"
fi
finish
