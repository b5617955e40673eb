#!/usr/bin/env bash
# The seed CNN's convolution block, forward + backward at batch 64, tfcc (conv_bench) next to
# PyTorch (conv_peers.py) in rounds of one repetition each, so load drifting on a shared machine
# falls on both; then the table (conv_report.py). Called by run.sh; runs alone too:
#
#   bash benchmarks/conv_run.sh [BUILD_DIR]      (default build/release; REPS rounds, default 7)
#
# PyTorch runs at its best settings (shared/research/machine.md): glibc keeps freed memory; its
# convolutions are oneDNN's, so OpenBLAS settings do not matter here.
set -uo pipefail

BUILD=${1:-build/release}
REPS=${REPS:-7}
OUT=${OUT:-$BUILD/bench-results}
PYTHON_TORCH=${PYTHON_TORCH:-/usr/bin/python3}
HERE=$(cd "$(dirname "$0")" && pwd)
WARM_MALLOC=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967296
ONE_REP=(--benchmark_repetitions=1 --benchmark_format=console --benchmark_out_format=json)

if [ ! -x "$BUILD/benchmarks/conv_bench" ]; then
  echo "conv_run.sh: $BUILD/benchmarks/conv_bench not built (run 'make bench')" >&2
  exit 1
fi
have_torch=0
if [ -x "$PYTHON_TORCH" ] && "$PYTHON_TORCH" -c "import torch" >/dev/null 2>&1; then have_torch=1; fi
mkdir -p "$OUT/conv"
rm -f "$OUT"/conv/*.json
echo "== conv block, $REPS rounds (tfcc; PyTorch NCHW and channels_last), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$REPS"); do
  "$BUILD/benchmarks/conv_bench" "${ONE_REP[@]}" --benchmark_out="$OUT/conv/tfcc.$r.json" |
    grep -E '^BM_' || echo "conv_run.sh: conv_bench failed" >&2
  if [ "$have_torch" = 1 ]; then
    GLIBC_TUNABLES=$WARM_MALLOC "$PYTHON_TORCH" "$HERE/conv_peers.py" --reps 1 \
      --json "$OUT/conv/pytorch.$r.json" || echo "conv_run.sh: conv_peers.py failed" >&2
  fi
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$HERE/conv_report.py" "$OUT"
