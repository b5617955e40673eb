#!/usr/bin/env bash
# TensorFlow reads a tfcc checkpoint (tf.train.load_checkpoint, list_variables, object-based
# restore) and tfcc reads a TensorFlow checkpoint (by name and by object), comparing every value.
# Uses tensorflow-cpu from BUILD_DIR/tf-venv (made by scripts/install-bench-deps.sh, or here with
# pip); exits 77 (ctest: skipped) with a visible message only if TensorFlow cannot be had.
#
#   tf_checkpoint_interop.sh PATH/TO/checkpoint_interop BUILD_DIR
set -euo pipefail

TOOL=$1
BUILD=$2
HERE=$(cd "$(dirname "$0")" && pwd)
VENV="$BUILD/tf-venv"
TF_VERSION=${TF_VERSION:-2.21.0}

if ! "$VENV/bin/python" -c "import tensorflow" >/dev/null 2>&1; then
  echo "tf_checkpoint_interop: installing tensorflow-cpu==$TF_VERSION into $VENV"
  if ! { /usr/bin/python3 -m venv "$VENV" &&
         timeout 900 "$VENV/bin/pip" install -q "tensorflow-cpu==$TF_VERSION"; } ||
     ! "$VENV/bin/python" -c "import tensorflow" >/dev/null 2>&1; then
    echo "SKIPPED: tensorflow-cpu could not be installed (offline?); TensorFlow interop not checked"
    exit 77
  fi
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_tf_interop.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "== tfcc writes, TensorFlow reads"
"$TOOL" write "$WORK"
"$VENV/bin/python" "$HERE/tf_checkpoint_interop.py" check "$WORK"

echo "== TensorFlow writes (over a tfcc checkpoint whose manifest it leaves stale), tfcc reads"
"$TOOL" stale "$WORK"
test -f "$WORK/tf/ckpt-1.manifest"
"$VENV/bin/python" "$HERE/tf_checkpoint_interop.py" write "$WORK"
"$TOOL" read "$WORK"
echo "tf_checkpoint_interop: OK"
