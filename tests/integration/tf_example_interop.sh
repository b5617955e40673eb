#!/usr/bin/env bash
# TensorFlow parses tfcc's TFRecord files of tf.train.Example / SequenceExample
# (tf.io.parse_single_example, parse_example, parse_single_sequence_example) and tfcc parses
# TensorFlow's (written by tf.io.TFRecordWriter): float, int64, bytes, var-len and sequence
# features, each side checking values it computes itself. Uses tensorflow-cpu from
# BUILD_DIR/tf-venv (pip-installed if missing); exits 77 (ctest: skipped) with a visible message
# only if TensorFlow cannot be had.
#
#   tf_example_interop.sh PATH/TO/example_interop BUILD_DIR
set -euo pipefail

TOOL=$1
BUILD=$2
HERE=$(cd "$(dirname "$0")" && pwd)
source "$(dirname "$0")/tf_venv.sh"
ensure_tf_venv "$BUILD" "tf.train.Example interop"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_tf_example.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "== tfcc writes, TensorFlow parses"
"$TOOL" write "$WORK"
"$VENV/bin/python" "$HERE/tf_example_interop.py" check "$WORK"

echo "== TensorFlow writes, tfcc parses"
"$VENV/bin/python" "$HERE/tf_example_interop.py" write "$WORK"
"$TOOL" read "$WORK"
echo "tf_example_interop: OK"
