#!/usr/bin/env bash
# The seed CNN's training step from raw ops (issues 4 and 6): tfcc eager and traced
# (cnn_step_bench) next to PyTorch at its best (cnn_step_peers.py), in REPS alternating rounds so
# load drifting on a shared machine falls on both; prints medians of rounds and the ratios.
#
#   bash benchmarks/cnn_step_run.sh [BUILD_DIR]   (default build/release; REPS=5, STEPS=200,
#                                                  THREADS=2)
#   chrt -f 50 bash benchmarks/cnn_step_run.sh     (SCHED_FIFO: quiet-like figures under load)
set -uo pipefail

BUILD=${1:-build/release}
REPS=${REPS:-5}
STEPS=${STEPS:-200}
THREADS=${THREADS:-2}
OUT=${OUT:-$BUILD/bench-results/cnn_step}
PYTHON_TORCH=${PYTHON_TORCH:-/usr/bin/python3}
HERE=$(cd "$(dirname "$0")" && pwd)
WARM_MALLOC=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967296

if [ ! -x "$BUILD/benchmarks/cnn_step_bench" ]; then
  echo "cnn_step_run.sh: $BUILD/benchmarks/cnn_step_bench not built (run 'make bench')" >&2
  exit 1
fi
have_torch=0
if [ -x "$PYTHON_TORCH" ] && "$PYTHON_TORCH" -c "import torch" >/dev/null 2>&1; then have_torch=1; fi
mkdir -p "$OUT"
rm -f "$OUT"/*.json
echo "== seed CNN step, batch 64, tfcc $THREADS threads, $STEPS steps, $REPS rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$REPS"); do
  "$BUILD/benchmarks/cnn_step_bench" --threads "$THREADS" --steps "$STEPS" \
    --json "$OUT/tfcc.$r.json" || echo "cnn_step_run.sh: cnn_step_bench failed" >&2
  if [ "$have_torch" = 1 ]; then
    GLIBC_TUNABLES=$WARM_MALLOC "$PYTHON_TORCH" "$HERE/cnn_step_peers.py" --steps "$STEPS" \
      --json "$OUT/pytorch.$r.json" | tail -1 || echo "cnn_step_run.sh: PyTorch peer failed" >&2
  fi
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT" "$HERE" <<'PY'
import glob, statistics, sys
sys.path.insert(0, sys.argv[2])
from report import load  # the benchmarks' JSON loader

runs = {}
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    name, rnd = f.rsplit("/", 1)[1].split(".")[:2]
    j = load(f)
    if j:
        runs.setdefault(name, {})[int(rnd)] = j
tf, pt = runs.get("tfcc", {}), runs.get("pytorch", {})
med = lambda xs: statistics.median(xs) if xs else None
fmt = lambda x, d=2: "n/a" if x is None else f"{x:.{d}f}"
eager = med([j["eager_ms"] for j in tf.values()])
traced = med([j["traced_ms"] for j in tf.values()])
best = med([j["best_ms"] for j in pt.values()])
configs = sorted({c for j in pt.values() for c in j["ms"]})
# Ratios: the median over rounds of each round's own ratio.
speed_traced_eager = med([j["eager_ms"] / j["traced_ms"] for j in tf.values()])
vs_pt = lambda key: med([pt[r]["best_ms"] / tf[r][key] for r in tf if r in pt])
mem = med([j["traced_peak_bytes"] / j["eager_peak_bytes"] for j in tf.values()])
print("| figure | value |")
print("| --- | --- |")
print(f"| tfcc eager step (ms, median of rounds) | {fmt(eager)} |")
print(f"| tfcc traced step (ms) | {fmt(traced)} |")
for c in configs:
    print(f"| PyTorch {c} (ms) | {fmt(med([j['ms'][c] for j in pt.values() if c in j['ms']]))} |")
print(f"| PyTorch best (ms) | {fmt(best)} |")
peak_e = med([j["eager_peak_bytes"] for j in tf.values()])
peak_t = med([j["traced_peak_bytes"] for j in tf.values()])
print(f"| tfcc step peak bytes, eager / traced (MiB) | {fmt(peak_e and peak_e / 2**20)} / "
      f"{fmt(peak_t and peak_t / 2**20)} |")
if tf:
    j = next(iter(tf.values()))
    print(f"| traced kernels / outputs written in place | {j['traced_kernels']} / "
          f"{j['in_place_outputs']} |")
print()
print("| target | measured | pass/fail |")
print("| --- | --- | --- |")
def row(name, value, ok, unit="x"):
    verdict = "n/a" if value is None else ("PASS" if ok(value) else "FAIL")
    print(f"| {name} | {fmt(value)}{unit if value is not None else ''} | {verdict} |")
row("traced peak <= 60% of eager peak", mem and 100 * mem, lambda v: v <= 60, "%")
row("traced faster than eager (eager / traced)", speed_traced_eager, lambda v: v > 1)
row("traced >= 2x PyTorch best (PyTorch / traced)", vs_pt("traced_ms"), lambda v: v >= 2)
row("eager >= 1.5x PyTorch best (PyTorch / eager)", vs_pt("eager_ms"), lambda v: v >= 1.5)
PY
