#!/usr/bin/env bash
# Runs benchmarks/distributed_fit_bench with 1 rank and with 2 ranks (one intra-op thread each,
# global batch 64) and prints
#   model | ranks | samples/s | ms/step | all-reduce ms/step | MPI wait ms/step | KiB reduced/step
#   | ms of one bare all-reduce of the gradients (back to back, outside fit)
# and the 2-rank speed-up. The machine's load is printed first: ranks share its cores.
#
#   bash benchmarks/distributed_fit_bench.sh [BUILD_DIR] [mlp|cnn ...]   (default build/release,
#                                                                         mlp cnn; EPOCHS=3)
set -uo pipefail
BUILD=${1:-build/release}
shift || true
MODELS=${*:-mlp cnn}
EPOCHS=${EPOCHS:-3}
BENCH="$BUILD/benchmarks/distributed_fit_bench"
[ -x "$BENCH" ] || { echo "no $BENCH (built only when OpenMPI is found)"; exit 1; }
echo "== $(nproc) cores, uptime: $(uptime)"
printf "%-5s %5s %10s %8s %17s %15s %15s %12s\n" model ranks samples/s ms/step "all-reduce ms/st" \
  "MPI wait ms/st" "KiB reduced/st" "bare AR ms"
for model in $MODELS; do
  declare -A rate=()
  for np in 1 2; do
    line=$(mpirun --oversubscribe --allow-run-as-root -np "$np" -x OMP_NUM_THREADS=1 \
      "$BENCH" "$model" "$EPOCHS" | tail -1) || { echo "FAILED: $model, $np ranks"; exit 1; }
    read -r m r sps ms ar wait kib bare <<<"$line"
    rate[$np]=$sps
    printf "%-5s %5s %10s %8s %17s %15s %15s %12s\n" "$m" "$r" "$sps" "$ms" "$ar" "$wait" "$kib" \
      "$bare"
  done
  echo "$model: 2 ranks / 1 rank = $(echo "scale=2; ${rate[2]} / ${rate[1]}" | bc)x"
  unset rate
done
