#!/usr/bin/env bash
# Keras 3 files both ways with TensorFlow 2.21's Keras: for each model Keras saves a `.keras`
# archive and a `.weights.h5`; tfcc loads them and predicts the same (1e-4 relative); tfcc saves
# them again and Keras loads tfcc's files and predicts the same. Then keras::applications'
# MobileNetV2 and ResNet50, built and saved by tfcc, are loaded by Keras with equal predictions.
# Uses tensorflow-cpu from BUILD_DIR/tf-venv (installed here with pip if missing); exits 77 (ctest: skipped) with a
# visible message only if TensorFlow cannot be had.
#
#   keras_file_interop.sh PATH/TO/keras_file_interop BUILD_DIR [MODEL...]
# Models: cnn lstm functional mobilenet_v2 resnet50 transformer bilstm (default: all).
set -euo pipefail

TOOL=$1
BUILD=$2
shift 2
MODELS=${*:-cnn lstm functional mobilenet_v2 resnet50 transformer bilstm}
HERE=$(cd "$(dirname "$0")" && pwd)
source "$(dirname "$0")/tf_venv.sh"
ensure_tf_venv "$BUILD" "Keras 3 files"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_keras_files.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

for m in $MODELS; do
  echo "== $m"
  "$VENV/bin/python" "$HERE/keras_file_interop.py" write "$WORK" "$m"
  xs=$(ls "$WORK/${m}"_x*.npy | sort)
  # shellcheck disable=SC2086
  "$TOOL" predict "$WORK/$m.keras" "$WORK/${m}_tfcc.npy" $xs
  # shellcheck disable=SC2086
  "$TOOL" weights "$WORK/$m.keras" "$WORK/${m}_b.weights.h5" "$WORK/${m}_b_tfcc.npy" $xs
  "$TOOL" resave "$WORK/$m.keras" "$WORK/${m}_tfcc.keras" "$WORK/${m}_tfcc.weights.h5"
  "$VENV/bin/python" "$HERE/keras_file_interop.py" check "$WORK" "$m"
done

# keras::applications models built by tfcc (not read from Keras' files), saved as .keras, loaded
# by Keras: same layers and predictions.
echo "== keras::applications models saved by tfcc"
for m in mobilenet_v2 resnet50; do
  "$TOOL" build "$m" "$WORK/${m}_built.keras" "$WORK/${m}_built_x.npy" "$WORK/${m}_built_y.npy"
done
"$VENV/bin/python" "$HERE/keras_file_interop.py" built "$WORK" mobilenet_v2 resnet50
echo "keras_file_interop: OK"
