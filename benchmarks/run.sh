#!/usr/bin/env bash
# Runs every benchmark (built already by `make bench`) with repetitions and prints one table:
#   metric | tfcc | peer/limit | ratio | target | pass/fail
#
#   bash benchmarks/run.sh [BUILD_DIR]        (default build/release)
#
# Environment: REPS (default 7), OUT (where the JSON reports go; default BUILD_DIR/bench-results),
# PYTHON_TORCH (default /usr/bin/python3, Debian's python3-torch), PYTHON_TF (default
# BUILD_DIR/tf-venv/bin/python, made by scripts/install-bench-deps.sh). Missing peers print n/a.
set -uo pipefail

BUILD=${1:-build/release}
REPS=${REPS:-7}
OUT=${OUT:-$BUILD/bench-results}
PYTHON_TORCH=${PYTHON_TORCH:-/usr/bin/python3}
PYTHON_TF=${PYTHON_TF:-$BUILD/tf-venv/bin/python}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
rm -f "$OUT"/*.json

GB_FLAGS=(--benchmark_repetitions="$REPS" --benchmark_enable_random_interleaving=true
          --benchmark_report_aggregates_only=true
          --benchmark_format=console --benchmark_out_format=json)

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ ! -x "$BUILD/benchmarks/core_bench" ]; then
  echo "run.sh: $BUILD/benchmarks/core_bench not built (run 'make bench')" >&2
  exit 1
fi
echo "== core_bench"
"$BUILD/benchmarks/core_bench" "${GB_FLAGS[@]}" --benchmark_out="$OUT/core_bench.json" ||
  echo "run.sh: core_bench failed" >&2

if [ -x "$BUILD/benchmarks/torch_add_bench" ]; then
  echo "== torch_add_bench (LibTorch C++)"
  "$BUILD/benchmarks/torch_add_bench" "${GB_FLAGS[@]}" --benchmark_out="$OUT/torch_add_bench.json" ||
    echo "run.sh: torch_add_bench failed" >&2
else
  echo "== torch_add_bench: not built (LibTorch absent): n/a"
fi

run_peer() {  # run_peer FRAMEWORK PYTHON
  if [ -x "$2" ] && "$2" -c "import $1" >/dev/null 2>&1; then
    echo "== peers.py $1 ($2)"
    # TensorFlow's start-up INFO lines (absl, oneDNN) are dropped; real errors still show.
    TF_CPP_MIN_LOG_LEVEL=2 timeout 600 "$2" "$HERE/peers.py" --frameworks "$1" --reps "$REPS" \
      --json "$OUT/peers_$1.json" 2> >(grep -vE '^(I0000|WARNING: All log messages)' >&2) ||
      echo "run.sh: peers.py $1 failed" >&2
  else
    echo "== peers.py $1: not importable with $2: n/a"
  fi
}
run_peer torch "$PYTHON_TORCH"
run_peer tensorflow "$PYTHON_TF"

echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "== tfcc next to its peers and limits (medians of $REPS repetitions)"
python3 "$HERE/report.py" "$OUT"
