#!/usr/bin/env bash
# A tfcc error escaping a program's main ends it with "<program>: <ErrorName>: <message>" on
# stderr and exit status 1 (tfcc::run_main), never std::terminate, SIGABRT and a backtrace.
#   error_exit_test.sh WORK_DIR PROGRAM [ARGS...]   (ARGS may use $WORK, a blocking file)
set -uo pipefail
work=$1
shift
rm -rf "$work"
mkdir -p "$work"
touch "$work/not_a_directory"
args=()
for a in "$@"; do args+=("${a//\$WORK/$work}"); done
"${args[@]}" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
cat "$work/err.txt"
name=$(basename "${args[0]}")
[ "$rc" -eq 1 ] || { echo "FAIL: exit status $rc, expected 1"; exit 1; }
grep -qE "^$name: [A-Za-z]+Error: " "$work/err.txt" || { echo "FAIL: no '$name: <Error>: ' line"; exit 1; }
if grep -qiE "terminate called|Aborted|backtrace" "$work/err.txt"; then
  echo "FAIL: the program aborted"
  exit 1
fi
echo "PASS"
