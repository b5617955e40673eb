#!/usr/bin/env bash
# Runs benchmarks/distributed_fit_bench with 1 rank and with 2 ranks (one intra-op thread each,
# global batch 64), the 2-rank run both with the gradients' all-reduce overlapped with the
# backward pass (1 MiB buckets started as backprop produces them) and without (bucket 0: one
# all-reduce after the backward pass), and prints
#   model | ranks | bucket KiB | samples/s | ms/step | all-reduce ms/step | MPI wait ms/step
#   | blocked (exposed) ms/step | buckets/step | hidden buckets/step | KiB reduced/step
#   | ms of one bare all-reduce of the gradients (back to back, outside fit)
# and the 2-rank speed-ups. The machine's load is printed first: ranks share its cores.
#
#   bash benchmarks/distributed_fit_bench.sh [BUILD_DIR] [mlp|cnn ...]   (default build/release,
#                                                                         mlp cnn; EPOCHS=3)
#   (on a loaded machine run it under `chrt -f 50`: every rank inherits the real-time priority)
set -uo pipefail
BUILD=${1:-build/release}
shift || true
MODELS=${*:-mlp cnn}
EPOCHS=${EPOCHS:-3}
BUCKET_KIB=${BUCKET_KIB:-1024}
BENCH="$BUILD/benchmarks/distributed_fit_bench"
[ -x "$BENCH" ] || { echo "no $BENCH (built only when OpenMPI is found)"; exit 1; }
echo "== $(nproc) cores, uptime: $(uptime)"
fmt="%-5s %5s %7s %10s %8s %10s %9s %12s %8s %7s %9s %8s\n"
printf "$fmt" model ranks bucketK samples/s ms/step "AR ms/st" "wait ms" "blocked ms/st" \
  buckets hidden "KiB/st" "bare ms"
for model in $MODELS; do
  declare -A rate=()
  for run in "1 $BUCKET_KIB" "2 0" "2 $BUCKET_KIB"; do
    read -r np bucket <<<"$run"
    line=$(mpirun --oversubscribe --allow-run-as-root -np "$np" -x OMP_NUM_THREADS=1 \
      "$BENCH" "$model" "$EPOCHS" "$bucket" | tail -1) || { echo "FAILED: $model, $np ranks"; exit 1; }
    read -r m r sps ms ar wait kib bare blocked buckets hidden bk <<<"$line"
    rate[$np.$bucket]=$sps
    printf "$fmt" "$m" "$r" "$bk" "$sps" "$ms" "$ar" "$wait" "$blocked" "$buckets" "$hidden" \
      "$kib" "$bare"
  done
  echo "$model: 2 ranks / 1 rank = $(echo "scale=2; ${rate[2.$BUCKET_KIB]} / ${rate[1.$BUCKET_KIB]}" | bc)x" \
    "(without overlap $(echo "scale=2; ${rate[2.0]} / ${rate[1.$BUCKET_KIB]}" | bc)x)"
  unset rate
done
