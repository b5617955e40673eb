#!/usr/bin/env bash
# Runs every libFuzzer target built in a fuzz build for N executions each, one line per target.
#   bash scripts/run-fuzz.sh [build/fuzz] [runs=1000000] [target ...]   (default: every target)
# Every fuzz/*_fuzz.cc that was built is run, so a new target joins without editing this script.
# Seeds come from fuzz/corpus/<target>/ when that folder exists (copied, so the repository is
# never written); libFuzzer runs each seed first, so the regression files kept there are replayed
# on every run. FUZZ_MAX_TOTAL_TIME=S also stops each target after S seconds (CI's smoke sets
# it so that a slow target cannot hold CI; the line then shows how many executions it made).
# Every target runs even after one fails; the script exits non-zero when any target crashed,
# leaked or timed out, and leaves the reproducer in <build>/fuzz/findings/<target>/.
set -euo pipefail
build=${1:-build/fuzz}
runs=${2:-1000000}
root=$(cd "$(dirname "$0")/.." && pwd)
shift $(($# < 2 ? $# : 2))
shopt -s nullglob
if [ $# -gt 0 ]; then
  targets=()
  for t in "$@"; do targets+=("$build/fuzz/$t"); done
else
  targets=("$build"/fuzz/*_fuzz)
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "no fuzz targets in $build/fuzz (run: make fuzz)" >&2
  exit 1
fi
# clang 16's symbolizer (llvm-16): the default llvm-symbolizer is 14's, which cannot read clang
# 16's debug info, and a report without function names and lines is of little use.
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x /usr/lib/llvm-16/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-16/bin/llvm-symbolizer
fi
time_limit=()
if [ -n "${FUZZ_MAX_TOTAL_TIME:-}" ]; then time_limit=(-max_total_time="$FUZZ_MAX_TOTAL_TIME"); fi
printf '%-26s %6s %12s %8s %8s\n' target seeds executions seconds crashes
failed=()
for bin in "${targets[@]}"; do
  name=$(basename "$bin")
  if [ ! -x "$bin" ]; then
    echo "no fuzz target $bin (run: make fuzz)" >&2
    exit 1
  fi
  work="$build/fuzz/work/$name"
  findings="$build/fuzz/findings/$name"
  rm -rf "$work"
  mkdir -p "$work" "$findings"
  seeds=0
  max_len=65536
  if [ -d "$root/fuzz/corpus/$name" ]; then
    cp "$root/fuzz/corpus/$name"/* "$work"/ 2>/dev/null || true
    seeds=$(find "$work" -type f | wc -l)
    # A seed larger than -max_len would be cut short: let the largest one in whole.
    largest=$(find "$work" -type f -printf '%s\n' | sort -n | tail -1)
    if [ "${largest:-0}" -gt "$max_len" ]; then max_len=$largest; fi
  fi
  log="$build/fuzz/$name.log"
  status=0
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "$bin" -runs="$runs" "${time_limit[@]}" -max_len="$max_len" -rss_limit_mb=4096 -timeout=60 \
    -artifact_prefix="$findings/" -print_final_stats=1 "$work" >"$log" 2>&1 || status=$?
  # libFuzzer's own count (stat::number_of_executed_units), which includes the seeds' runs.
  execs=$(awk '/^stat::number_of_executed_units:/ {print $2}' "$log" | tail -1)
  secs=$(grep -E '^Done [0-9]+ runs in' "$log" | tail -1 | awk '{print $5}')
  if [ "$status" -ne 0 ]; then
    printf '%-26s %6s %12s %8s %8s  (exit %s, log %s)\n' "$name" "$seeds" "${execs:-?}" \
      "${secs:-?}" 1 "$status" "$log"
    tail -40 "$log" >&2
    failed+=("$name")
    continue
  fi
  printf '%-26s %6s %12s %8s %8s\n' "$name" "$seeds" "${execs:-?}" "${secs:-?}" 0
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${failed[*]} failed; reproducers in $build/fuzz/findings/<target>/" >&2
  exit 1
fi
