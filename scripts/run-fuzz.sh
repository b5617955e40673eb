#!/usr/bin/env bash
# Runs every libFuzzer target built in a fuzz build for N executions each and prints the counts.
#   bash scripts/run-fuzz.sh [build/fuzz] [runs=1000000] [target ...]   (default: every target)
# Seeds come from fuzz/corpus/<target>/ (copied, so the repository is never written); a target
# that finds a crash stops the script with its exit status and leaves the reproducer in
# <build>/fuzz/findings/<target>/.
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
printf '%-28s %14s %10s %s\n' target executions seconds result
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
  if [ -d "$root/fuzz/corpus/$name" ]; then cp "$root/fuzz/corpus/$name"/* "$work"/ 2>/dev/null || true; fi
  log="$build/fuzz/$name.log"
  status=0
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "$bin" -runs="$runs" -max_len=65536 -rss_limit_mb=4096 -artifact_prefix="$findings/" \
    -print_final_stats=1 "$work" >"$log" 2>&1 || status=$?
  done_line=$(grep -E '^Done [0-9]+ runs in' "$log" | tail -1 || true)
  execs=$(echo "$done_line" | awk '{print $2}')
  secs=$(echo "$done_line" | awk '{print $5}')
  if [ "$status" -ne 0 ]; then
    printf '%-28s %14s %10s %s\n' "$name" "${execs:-?}" "${secs:-?}" "CRASH (see $log)"
    tail -30 "$log" >&2
    exit "$status"
  fi
  printf '%-28s %14s %10s %s\n' "$name" "${execs:-?}" "${secs:-?}" "no crash"
done
