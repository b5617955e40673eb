#!/usr/bin/env bash
# Runs the file parsers' unit tests under AddressSanitizer (+ LeakSanitizer) in an ASan build
# (CI uses the clang fuzz build, whose whole tree is ASan-instrumented), one line per binary:
#   bash scripts/run-asan-parsers.sh [build/fuzz]
# The parsers: io_tests is every reader and writer of tfcc/io (TFRecord, checkpoints, event files,
# npy/npz, exported and SavedModel files; a new tests/unit/io/** test joins by itself), and the
# data tests of the IDX, CSV and TFRecord dataset sources. The whole suite under ASan + UBSan is
# `make test-asan`.
set -euo pipefail
build=${1:-build/fuzz}
# clang 16's symbolizer (llvm-16): the default llvm-symbolizer is 14's, which cannot read clang
# 16's debug info, and a report without function names and lines is of little use.
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x /usr/lib/llvm-16/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-16/bin/llvm-symbolizer
fi
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan_libhdf5.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
run() {
  local bin=$1 filter=$2 rc=0
  if [ ! -x "$bin" ]; then
    echo "asan: no $bin (build it first: make ci-extra)" >&2
    exit 1
  fi
  # In the binary's folder, as ctest runs it.
  local dir log
  dir=$(cd "$(dirname "$bin")" && pwd)
  log="$dir/$(basename "$bin")_asan.log"
  (cd "$dir" && "./$(basename "$bin")" --gtest_filter="$filter" --gtest_brief=1) >"$log" 2>&1 ||
    rc=$?
  local passed
  passed=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$log" | awk '{print $4}' || true)
  if [ "$rc" -ne 0 ] || grep -q -E 'ERROR: (Address|Leak)Sanitizer' "$log"; then
    printf 'asan %-12s FAILED (exit %s, log %s)\n' "$(basename "$bin")" "$rc" "$log"
    tail -60 "$log" >&2
    status=1
  else
    printf 'asan %-12s %s tests passed, no sanitizer report\n' "$(basename "$bin")" "${passed:-?}"
  fi
}
run "$build/tests/io_tests" '*'
run "$build/tests/data_tests" 'CsvTest.*:IdxTest.*:LoadTest.*:TFRecordTest.*'
exit $status
