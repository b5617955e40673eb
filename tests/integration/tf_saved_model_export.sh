#!/usr/bin/env bash
# TensorFlow loads and runs SavedModels that tfcc exported (tf.saved_model.load and the
# serving signature, saved_model_cli show --all and run), comparing outputs with tfcc's own.
# Uses tensorflow-cpu from BUILD_DIR/tf-venv (installed here with pip if missing); exits 77
# (ctest: skipped) with a visible message only if TensorFlow cannot be had.
#
#   tf_saved_model_export.sh PATH/TO/tf_saved_model_export BUILD_DIR
set -euo pipefail

TOOL=$1
BUILD=$2
HERE=$(cd "$(dirname "$0")" && pwd)
VENV="$BUILD/tf-venv"
TF_VERSION=${TF_VERSION:-2.21.0}

if ! "$VENV/bin/python" -c "import tensorflow" >/dev/null 2>&1; then
  echo "tf_saved_model_export: installing tensorflow-cpu==$TF_VERSION into $VENV"
  if ! { /usr/bin/python3 -m venv "$VENV" &&
         timeout 900 "$VENV/bin/pip" install -q "tensorflow-cpu==$TF_VERSION"; } ||
     ! "$VENV/bin/python" -c "import tensorflow" >/dev/null 2>&1; then
    echo "SKIPPED: tensorflow-cpu could not be installed (offline?); SavedModel export not checked"
    exit 77
  fi
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_tf_export.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "== tfcc exports"
"$TOOL" "$WORK"
echo "== TensorFlow loads and runs"
export TF_CPP_MIN_LOG_LEVEL=3
"$VENV/bin/python" "$HERE/tf_saved_model_export.py" "$WORK" "$VENV/bin/saved_model_cli"
echo "tf_saved_model_export: OK"
