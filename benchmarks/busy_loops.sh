# Sourced by the benchmark scripts: two busy-looping processes beside a run (the "busy machine"
# load), each bounded by `timeout BUSY_MAX_S`, stopped by stop_busy and on exit.
BUSY_PIDS=()
start_busy() {
  for _ in 1 2; do
    timeout "$BUSY_MAX_S" bash -c 'while :; do :; done' &
    BUSY_PIDS+=($!)
  done
  sleep 0.2
}
stop_busy() {
  for p in "${BUSY_PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${BUSY_PIDS[@]}"; do wait "$p" 2>/dev/null; done
  BUSY_PIDS=()
}
trap stop_busy EXIT INT TERM
