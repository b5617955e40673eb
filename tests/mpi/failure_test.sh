#!/usr/bin/env bash
# Runs mpi_failure_probe on 2 ranks in one failure mode and checks that the job ends non-zero,
# within twice the collective timeout (plus MPI start-up), with the expected message.
#   failure_test.sh MPIRUN PROBE MODE
set -uo pipefail
mpirun=$1 probe=$2 mode=$3
timeout_s=4
limit=$((2 * timeout_s + 10))   # 2x the timeout, plus start-up of two processes on a busy machine
log=$(mktemp)
start=$(date +%s.%N)
timeout 120 "$mpirun" --oversubscribe --allow-run-as-root -np 2 -x OMP_NUM_THREADS=1 \
  "$probe" "$mode" "$timeout_s" >"$log" 2>&1
rc=$?
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
cat "$log"
echo "failure_test[$mode]: exit $rc after ${elapsed}s (limit ${limit}s)"
fail() { echo "FAIL: $*"; rm -f "$log"; exit 1; }
[ "$rc" -ne 0 ] || fail "the job exited 0 although rank 1 failed"
[ "$rc" -ne 124 ] || fail "the job hung (killed by timeout 120)"
(( $(echo "$elapsed < $limit" | bc) )) || fail "the survivors took ${elapsed}s to exit"
grep -q "finished all steps" "$log" && fail "a rank finished training although its peer failed"
case "$mode" in
  stall|gradient_stall) grep -q "DeadlineExceededError: .*did not complete within 4 s" "$log" ||
           fail "no DeadlineExceededError naming the timeout" ;;
  mismatch) grep -q "FailedPreconditionError: .*mismatched collectives" "$log" ||
              fail "no mismatched-collectives error" ;;
esac
rm -f "$log"
echo "PASS"
