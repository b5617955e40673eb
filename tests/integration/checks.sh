# Shared helpers for the command-line integration scripts; source it after setting `work`:
#   work=$3; source "$(dirname "$0")/checks.sh"
#   check "summary lists the run" "^train" "$work/out.txt"
#   expect_status 1 $rc "damaged export"
#   flip_byte "$file" $((size / 2))
#   finish
# It empties $work, counts failures, and `finish` exits 1 when any check failed.
rm -rf "$work"
mkdir -p "$work"
failures=0

check() {  # check DESCRIPTION GREP_PATTERN FILE
  if grep -qE -- "$2" "$3"; then
    echo "ok: $1"
  else
    echo "FAIL: $1 (pattern '$2' not found in $3)"
    failures=$((failures + 1))
  fi
}

fail() {  # fail MESSAGE
  echo "FAIL: $1"
  failures=$((failures + 1))
}

expect_status() {  # expect_status WANTED ACTUAL WHAT
  [ "$2" -eq "$1" ] || fail "$3 gave exit status $2, expected $1"
}

flip_byte() {  # flip_byte FILE OFFSET: inverts every bit of one byte (writing a constant would
  # leave the file unchanged whenever the byte already held it: 1 run in 256 of a trained model)
  local old
  old=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "\\x$(printf '%02x' $((old ^ 0xFF)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

finish() {
  if [ $failures -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "all checks passed"
}
