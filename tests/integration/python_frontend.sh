#!/usr/bin/env bash
# The Python package: installs this build's tfcc into BUILD_DIR/python-prefix (cmake --install,
# a copy of what changed), builds the extension tfcc._tfcc against it with pip (scikit-build-core,
# build dir BUILD_DIR/python-build, rebuilt only when python/ or the libraries changed) into the
# venv BUILD_DIR/python-venv, and runs pytest on python/tests. Exits 77 (ctest: skipped) with a
# visible message only if pip cannot install nanobind, scikit-build-core, numpy and pytest.
#
#   python_frontend.sh BUILD_DIR SOURCE_DIR [PYTEST_ARGS...]
#
# The full seed CNN run (minutes; checks >= 0.88 test accuracy) is opt-in:
#   TFCC_FULL_TESTS=1 ctest -L full --output-on-failure
set -euo pipefail

BUILD=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
VENV=$BUILD/python-venv
PYTHON=${TFCC_PYTHON_INTERPRETER:-/usr/bin/python3}

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import nanobind, scikit_build_core, numpy, pytest" 2>/dev/null; then
  if ! "$VENV/bin/python" -m pip install -q --upgrade pip "nanobind>=2" \
      "scikit-build-core>=0.10" numpy pytest; then
    echo "SKIPPED: pip could not install nanobind, scikit-build-core, numpy and pytest"
    exit 77
  fi
fi

cmake --install "$BUILD" --prefix "$BUILD/python-prefix" > /dev/null
stamp=$BUILD/python-build/.tfcc-installed
changed=""
if [ -f "$stamp" ]; then
  changed=$(find "$SRC/python/src" "$SRC/python/tfcc" "$SRC/python/CMakeLists.txt" \
    "$SRC/pyproject.toml" "$BUILD/python-prefix/lib" -newer "$stamp" -type f \
    \( -name '*.py' -o -name '*.cc' -o -name '*.h' -o -name '*.txt' -o -name '*.toml' \
    -o -name '*.a' \) -print -quit)
fi
if [ ! -f "$stamp" ] || [ -n "$changed" ]; then
  echo "== building the extension (pip install .)"
  export CCACHE_BASEDIR=$SRC
  (cd "$SRC" && "$VENV/bin/python" -m pip install -q --no-build-isolation --no-deps \
    --force-reinstall --config-settings=build-dir="$BUILD/python-build" \
    --config-settings=cmake.define.TFCC_PYTHON_PREFIX="$BUILD/python-prefix" .)
  touch "$stamp"
fi

# Run from the build dir so that `import tfcc` is the installed package, not python/tfcc.
cd "$BUILD"
PYTHONDONTWRITEBYTECODE=1 "$VENV/bin/python" -m pytest -q -p no:cacheprovider "$SRC/python/tests" "${@:3}"
