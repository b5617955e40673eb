#!/usr/bin/env bash
# Matmul against the FMA peak and PyTorch (issue 4): matmul_bench (tfcc and the peak, same
# process; the peak is measured right before and right after each repetition of each product, for
# as long, and tfcc / peak is the median of the per-repetition ratios) and matmul_peers.py (PyTorch,
# OPENBLAS_CORETYPE unset and Haswell), REPS rounds, then the table of medians.
#
#   bash benchmarks/matmul_run.sh [BUILD_DIR]      (default build/release; REPS=3 rounds)
set -uo pipefail

BUILD=${1:-build/release}
REPS=${REPS:-3}
OUT=${OUT:-$BUILD/bench-results/matmul}
PYTHON_TORCH=${PYTHON_TORCH:-/usr/bin/python3}
HERE=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$BUILD/benchmarks/matmul_bench" ]; then
  echo "matmul_run.sh: $BUILD/benchmarks/matmul_bench not built (run 'make bench')" >&2
  exit 1
fi
mkdir -p "$OUT"
rm -f "$OUT"/*.json
echo "== matmul vs FMA peak and PyTorch, $REPS rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$REPS"); do
  "$BUILD/benchmarks/matmul_bench" --reps 5 --json "$OUT/tfcc.$r.json" ||
    echo "matmul_run.sh: matmul_bench failed" >&2
  if "$PYTHON_TORCH" -c "import torch" >/dev/null 2>&1; then
    "$PYTHON_TORCH" "$HERE/matmul_peers.py" --reps 5 --json "$OUT/pytorch.$r.json" ||
      echo "matmul_run.sh: matmul_peers.py failed" >&2
    OPENBLAS_CORETYPE=Haswell "$PYTHON_TORCH" "$HERE/matmul_peers.py" --reps 5 \
      --json "$OUT/pytorch_haswell.$r.json" || echo "matmul_run.sh: matmul_peers.py failed" >&2
  fi
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT" <<'PY'
import glob, json, statistics, sys
runs = {}
for f in glob.glob(sys.argv[1] + "/*.json"):
    who = f.rsplit("/", 1)[1].split(".")[0]
    for r in json.load(open(f))["results"]:
        runs.setdefault((who, r["what"], r["threads"]), []).append(r["gflops"])
med = {k: statistics.median(v) for k, v in runs.items()}
print("| product | threads | tfcc GFLOP/s | FMA peak | tfcc / peak | PyTorch best | tfcc / PyTorch | target | pass/fail |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for t in (1, 2):
    for n in (256, 512, 1024, 2048, 4096):
        w = f"matmul_{n}"
        g = med.get(("tfcc", w, t))
        # The peak measured right before each repetition, and the median of per-repetition
        # ratios (older JSON: the one peak measured before all products).
        peak = med.get(("tfcc", f"peak_before_{n}", t)) or med.get(("tfcc", "fma_peak", t))
        torch = max([med[k] for k in ((p, w, t) for p in ("pytorch", "pytorch_haswell")) if k in med] or [0])
        if g is None or not peak:
            continue
        ratio = med.get(("tfcc", f"ratio_{n}", t)) or g / peak
        ok = ratio >= 0.8 and (not torch or g >= torch)
        # The issue's target is for 1024 and above on 2 threads; smaller sizes are shown.
        graded = t == 2 and n >= 1024
        target = ">= 0.80 peak, >= PyTorch" if graded else "(info)"
        verdict = ("PASS" if ok else "FAIL") if graded else "-"
        tr = f"{g / torch:.2f}x" if torch else "n/a"
        print(f"| {n} x {n} | {t} | {g:.0f} | {peak:.0f} | {ratio:.3f} | {torch:.0f} | {tr} | {target} | {verdict} |")
PY
