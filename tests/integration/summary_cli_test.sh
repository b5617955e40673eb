#!/usr/bin/env bash
# `tfcc summary LOGDIR` on a log directory written by summary_log_writer: the expected runs, tags,
# values and sparklines, and a clean failure on a corrupted file or a missing directory.
# usage: summary_cli_test.sh SUMMARY_LOG_WRITER TFCC_BINARY WORK_DIR
set -u
writer=$1
tfcc=$2
work=$3
source "$(dirname "$0")/checks.sh"

"$writer" "$work/logs" || { echo "FAIL: summary_log_writer failed"; exit 1; }
"$tfcc" summary "$work/logs" > "$work/out.txt" 2> "$work/err.txt"
rc=$?
cat "$work/out.txt" "$work/err.txt"
[ $rc -eq 0 ] || { echo "FAIL: tfcc summary exited $rc"; failures=$((failures + 1)); }
check "train run" '^run train  \(1 event file, 48 events, 1 graph\)$' "$work/out.txt"
check "validation run" '^run validation  \(1 event file, 6 events\)$' "$work/out.txt"
check "train loss: 20 values, last 0.05, min 0.05, max 1, falling curve" \
  '^  loss +scalars +20 +0\.\.19 +0\.05 +0\.05 +1 +█▄▃▂▂▂▂▂▁▁▁▁▁▁▁▁▁▁▁▁$' "$work/out.txt"
check "accuracy: last 0.95, rising curve" '^  accuracy +scalars +20 +0\.\.19 +0\.95 +0 +0\.95 +▁.*█$' \
  "$work/out.txt"
check "validation loss" '^  loss +scalars +5 +0\.\.4 +1 +1 +2 +█▆▅▃▁$' "$work/out.txt"
check "histograms listed" '^  weights +histograms +2 +0\.\.10$' "$work/out.txt"
check "images listed" '^  samples +images +2 +0\.\.1$' "$work/out.txt"
check "text listed" '^  notes +text +2 +0\.\.1$' "$work/out.txt"

# A flipped byte in the middle of a file: exit status 1 and an error naming the file and offset.
file=$(ls "$work"/logs/validation/*tfevents*)
size=$(stat -c %s "$file")
flip_byte "$file" $((size / 2))
"$tfcc" summary "$work/logs" > "$work/out2.txt" 2> "$work/err2.txt"
rc=$?
cat "$work/err2.txt"
expect_status 1 $rc "corrupted file"
check "corruption reported with file and offset" "error: .*tfevents.*corrupted record at offset [0-9]+" \
  "$work/err2.txt"

"$tfcc" summary "$work/no-such-dir" > /dev/null 2> "$work/err3.txt"
rc=$?
expect_status 1 $rc "missing logdir"
check "missing logdir reported" "No such log directory" "$work/err3.txt"

finish
