#!/usr/bin/env bash
# A/B of tfcc variants (builds and/or environments) on the workloads where oneDNN dominates:
# the seed CNN fit, the MLP fit and seed CNN inference (batch 1 and 64), on 1 and 2 threads,
# quiet and beside two busy loops (busy_loops.sh). Runs are interleaved (every variant once per
# workload, round after round) so that a shared machine's drifting load falls on all variants
# alike; prints the median samples/s per cell with the load average seen around its runs.
#
#   bash benchmarks/runtime_ab.sh NAME=BIN_DIR[,VAR=VALUE...] ...
#   e.g. bash benchmarks/runtime_ab.sh main=/tmp/main/benchmarks \
#          openmp=build/release/benchmarks,TFCC_PARALLEL_RUNTIME=openmp pool=build/release/benchmarks
#
# BIN_DIR holds fit_cnn_bench and suite_bench. Environment: REPS (3), THREADS ("1 2"), LOADS
# ("quiet busy"), WORKLOADS ("cnnfit mlp infer"), SECONDS_PER_RUN (1), CNN_STEPS (60),
# BUSY_MAX_S (600), OUT (/tmp/runtime_ab). Like suite_run.sh it reruns itself in a new session
# whose autogroup gets nice -19 when allowed, so the runs and their busy loops compete as equals.
set -uo pipefail
if [ -z "${AB_SESSION:-}" ] && command -v setsid >/dev/null; then
  AB_SESSION=1 exec setsid -w bash "$0" "$@"
fi
[ -w /proc/self/autogroup ] && echo -19 2>/dev/null >/proc/self/autogroup
REPS=${REPS:-3} THREADS=${THREADS:-1 2} LOADS=${LOADS:-quiet busy}
WORKLOADS=${WORKLOADS:-cnnfit mlp infer} SECONDS_PER_RUN=${SECONDS_PER_RUN:-1}
CNN_STEPS=${CNN_STEPS:-60} BUSY_MAX_S=${BUSY_MAX_S:-600} OUT=${OUT:-/tmp/runtime_ab}
[ $# -ge 1 ] || { sed -n 2,15p "$0"; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/busy_loops.sh"
mkdir -p "$OUT"
RESULTS=$OUT/results.tsv
: >"$RESULTS"

run_one() {  # variant-spec workload threads -> "key<TAB>samples/s" lines
  local spec=$1 w=$2 t=$3 dir envs=()
  IFS=, read -r -a parts <<<"${spec#*=}"
  dir=${parts[0]}
  envs=("${parts[@]:1}")
  local cmd
  case $w in
    cnnfit) cmd="$dir/fit_cnn_bench --threads $t --steps $CNN_STEPS" ;;
    mlp) cmd="$dir/suite_bench --train mlp --threads $t --seconds $SECONDS_PER_RUN" ;;
    infer) cmd="$dir/suite_bench --infer cnn --threads $t --seconds $SECONDS_PER_RUN" ;;
  esac
  env "${envs[@]}" timeout 600 $cmd 2>&1 | grep 'samples/s' |
    sed -E 's/^tfcc (fit, seed CNN, batch 64), [0-9]+ threads?/\1/' |
    sed -E 's/^tfcc //; s/: ([0-9.e+]+) samples\/s.*/\t\1/'
}

for r in $(seq 1 "$REPS"); do
  for load in $LOADS; do
    for t in $THREADS; do
      for w in $WORKLOADS; do
        for spec in "$@"; do
          name=${spec%%=*}
          [ "$load" = busy ] && start_busy
          l0=$(cut -d' ' -f1 /proc/loadavg)
          out=$(run_one "$spec" "$w" "$t")
          l1=$(cut -d' ' -f1 /proc/loadavg)
          [ "$load" = busy ] && stop_busy
          while IFS=$'\t' read -r key v; do
            [ -n "$key" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$t" "$load" "$name" \
              "$v" "$l0" "$l1" >>"$RESULTS"
          done <<<"$out"
          echo "round $r $load t=$t $w $name: $(echo "$out" | tr '\t\n' '= ')"
        done
      done
    done
  done
done

python3 - "$RESULTS" "$@" <<'EOF'
import collections, statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
names = [a.split("=", 1)[0] for a in sys.argv[2:]]
cells = collections.defaultdict(list)
loads = collections.defaultdict(list)
for key, t, load, name, v, l0, l1 in rows:
    cells[(key, t, load, name)].append(float(v))
    loads[(key, t, load)] += [float(l0), float(l1)]
print("| workload | threads | load | " + " | ".join(names) + " | " +
      " | ".join(f"{n} / {names[0]}" for n in names[1:]) + " | load avg (1 min) |")
print("| --- " * (4 + 2 * len(names) - 1) + "|")
for (key, t, load) in sorted({k[:3] for k in cells}, key=lambda k: (k[0], k[2] != "quiet", k[1])):
    med = [statistics.median(cells[(key, t, load, n)]) if cells[(key, t, load, n)] else None
           for n in names]
    fmt = lambda x: "-" if x is None else f"{x:,.0f}"
    ratios = [f"{m / med[0]:.2f}x" if m and med[0] else "-" for m in med[1:]]
    la = loads[(key, t, load)]
    print(f"| {key} | {t} | {load} | " + " | ".join(map(fmt, med)) + " | " + " | ".join(ratios) +
          f" | {min(la):.1f}-{max(la):.1f} |")
EOF
