#!/usr/bin/env bash
# Writes a log directory with tfcc and checks it with TensorBoard's own event loaders
# (tensorboard_check.py). TensorBoard comes from PyPI into a virtual environment in the build
# tree, created once and reused. If that install fails (no network), the test is reported as
# SKIPPED (exit 77) with a message; any other failure fails the test.
# usage: tensorboard_test.sh SUMMARY_LOG_WRITER CHECK_SCRIPT VENV_DIR LOG_DIR
set -u
writer=$1
check=$2
venv=$3
logs=$4

if ! "$venv/bin/python" -c "import tensorboard" > /dev/null 2>&1; then
  echo "installing tensorboard from PyPI into $venv (once per build tree)"
  rm -rf "$venv"
  if ! python3 -m venv "$venv" ||
     ! "$venv/bin/pip" install --quiet --disable-pip-version-check --timeout 60 tensorboard; then
    echo "SKIPPED: could not pip-install tensorboard into $venv, so tfcc's event files were NOT"
    echo "checked with TensorBoard. Fix the network or PyPI access and rerun this test."
    rm -rf "$venv"
    exit 77
  fi
fi
echo "tensorboard $("$venv/bin/python" -c 'import tensorboard; print(tensorboard.__version__)' 2>/dev/null)"

rm -rf "$logs"
"$writer" "$logs" || { echo "FAIL: summary_log_writer failed"; exit 1; }
# TensorBoard warns that TensorFlow is not installed; that is the point, so the note is dropped.
"$venv/bin/python" "$check" "$logs" 2>&1 | grep -v "TensorFlow installation not found"
exit "${PIPESTATUS[0]}"
