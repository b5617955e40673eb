# Sourced by the integration tests that check against real TensorFlow: makes sure
# BUILD_DIR/tf-venv holds tensorflow-cpu (pip), once for all of them. Tests run in parallel under
# ctest -j, so the install holds a lock; a test that finds the venv ready waits for nothing.
# Exits 77 (ctest: skipped) with a visible message only when TensorFlow cannot be installed.
#
#   source tf_venv.sh; ensure_tf_venv BUILD_DIR "what is not checked without TensorFlow"
# Sets VENV.
ensure_tf_venv() {
  local build=$1 what=$2
  local version=${TF_VERSION:-2.21.0}
  VENV="$build/tf-venv"
  if "$VENV/bin/python" -c "import tensorflow" >/dev/null 2>&1; then return 0; fi
  mkdir -p "$build"
  exec 9>"$build/tf-venv.lock"
  flock 9
  if ! "$VENV/bin/python" -c "import tensorflow" >/dev/null 2>&1; then
    echo "installing tensorflow-cpu==$version into $VENV"
    if ! { /usr/bin/python3 -m venv "$VENV" &&
           timeout 900 "$VENV/bin/pip" install -q "tensorflow-cpu==$version"; } ||
       ! "$VENV/bin/python" -c "import tensorflow" >/dev/null 2>&1; then
      echo "SKIPPED: tensorflow-cpu could not be installed (offline?); $what not checked"
      exit 77
    fi
  fi
  flock -u 9
}
