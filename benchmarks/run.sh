#!/usr/bin/env bash
# Runs every benchmark (built already by `make bench`) with repetitions and prints one table:
#   metric | tfcc | peer/limit | ratio | target | pass/fail
#
#   bash benchmarks/run.sh [BUILD_DIR]        (default build/release)
#
# Environment: REPS (default 7), OUT (where the JSON reports go; default BUILD_DIR/bench-results),
# PYTHON_TORCH (default /usr/bin/python3, Debian's python3-torch), PYTHON_TF (default
# BUILD_DIR/tf-venv/bin/python, made by scripts/install-bench-deps.sh), MLP_ONLY=1 (run only the
# MLP training-step benchmarks). Missing peers print n/a.
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
MLP_ONLY=${MLP_ONLY:-0}
if [ "$MLP_ONLY" != 1 ]; then
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
fi  # MLP_ONLY

# The MLP training step: tfcc, LibTorch C++ and PyTorch/TensorFlow from Python, in rounds of one
# repetition each (REPS rounds), so that the shared machine's load drifting during the run falls
# on all of them alike. The peers run at their best settings (shared/research/machine.md): glibc
# keeps freed memory (warm allocator), and OpenBLAS's core type both as the project's machines set
# it ("haswell": OPENBLAS_CORETYPE=Haswell) and unset ("auto": OpenBLAS's own detection).
WARM_MALLOC=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967296
ONE_REP=(--benchmark_repetitions=1 --benchmark_format=console --benchmark_out_format=json)
mkdir -p "$OUT/mlp"
rm -f "$OUT"/mlp/*.json
have_torch_py=0
if [ -x "$PYTHON_TORCH" ] && "$PYTHON_TORCH" -c "import torch" >/dev/null 2>&1; then have_torch_py=1; fi
have_tf_py=0
if [ -x "$PYTHON_TF" ] && "$PYTHON_TF" -c "import tensorflow" >/dev/null 2>&1; then have_tf_py=1; fi
if [ -x "$BUILD/benchmarks/mlp_step_bench" ]; then
  echo "== MLP step, $REPS rounds (tfcc; LibTorch, PyTorch with OPENBLAS_CORETYPE=Haswell and unset)"
  for r in $(seq 1 "$REPS"); do
    echo "-- round $r: load $(cut -d' ' -f1 /proc/loadavg)"
    "$BUILD/benchmarks/mlp_step_bench" "${ONE_REP[@]}" --benchmark_filter=BM_MlpStep \
      --benchmark_out="$OUT/mlp/tfcc.$r.json" | grep -E '^BM_' ||
      echo "run.sh: mlp_step_bench failed" >&2
    for mode in haswell auto; do
      ENVCMD=(env -u OPENBLAS_CORETYPE GLIBC_TUNABLES=$WARM_MALLOC)
      if [ "$mode" = haswell ]; then ENVCMD+=(OPENBLAS_CORETYPE=Haswell); fi
      if [ -x "$BUILD/benchmarks/torch_mlp_bench" ]; then
        "${ENVCMD[@]}" "$BUILD/benchmarks/torch_mlp_bench" "${ONE_REP[@]}" \
          --benchmark_out="$OUT/mlp/libtorch_$mode.$r.json" | grep -E '^BM_' ||
          echo "run.sh: torch_mlp_bench failed" >&2
      fi
      if [ "$have_torch_py" = 1 ]; then
        "${ENVCMD[@]}" "$PYTHON_TORCH" "$HERE/mlp_peers.py" --frameworks torch --reps 1 \
          --tag "$mode" --json "$OUT/mlp/pytorch_$mode.$r.json" ||
          echo "run.sh: mlp_peers.py torch failed" >&2
      fi
    done
    if [ "$have_tf_py" = 1 ]; then
      for t in 1 2; do
        TF_CPP_MIN_LOG_LEVEL=2 GLIBC_TUNABLES=$WARM_MALLOC timeout 300 "$PYTHON_TF" \
          "$HERE/mlp_peers.py" --frameworks tensorflow --reps 1 --threads "$t" \
          --json "$OUT/mlp/tensorflow_t$t.$r.json" 2> >(grep -vE '^(I0000|WARNING)' >&2) ||
          echo "run.sh: mlp_peers.py tensorflow failed" >&2
      done
    fi
  done
else
  echo "== mlp_step_bench: not built: n/a"
fi

echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "== tfcc next to its peers and limits (medians of $REPS repetitions)"
python3 "$HERE/report.py" "$OUT"

if [ "$MLP_ONLY" != 1 ]; then
# The seed CNN's convolution block against PyTorch (its own rounds and table).
echo
bash "$HERE/conv_run.sh" "$BUILD"

# Matmul against the FMA peak and PyTorch (issue 4).
echo
bash "$HERE/matmul_run.sh" "$BUILD"

# Keras fit throughput of the seed CNN against PyTorch and TensorFlow (issue 7).
echo
bash "$HERE/fit_run.sh" "$BUILD"
fi
