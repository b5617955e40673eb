#!/usr/bin/env bash
# An export made by one process is run by another: examples/export_cnn trains the seed CNN briefly
# on Fashion-MNIST, exports it and writes 16 test images with its own predictions; then
# `tfcc saved-model show` lists the signature and `tfcc saved-model run` (a separate process with
# none of the model's code) must produce the same predictions (to rounding). Damaged exports and
# bad arguments must fail cleanly.
# usage: saved_model_cli_test.sh EXPORT_CNN TFCC_BINARY WORK_DIR
set -u

# The export is a TensorFlow SavedModel run through tfcc's importer: its graph (batch norm as
# TensorFlow's ops) is not the traced one, so outputs agree to rounding, not bit for bit.
# close_npy A B: two float32 .npy files of one shape, |a - b| <= 1e-5 * max|b|.
close_npy() {
  python3 - "$1" "$2" <<'PY'
import struct, sys
def load(path):
    data = open(path, "rb").read()
    if data[:6] != b"\x93NUMPY":
        sys.exit(f"{path}: not an .npy file")
    n = struct.unpack("<H", data[8:10])[0] if data[6] == 1 else struct.unpack("<I", data[8:12])[0]
    start = (10 if data[6] == 1 else 12) + n
    header = data[start - n:start].decode("latin1")
    if "'<f4'" not in header:
        sys.exit(f"{path}: not float32: {header}")
    body = data[start:]
    return header, struct.unpack(f"<{len(body) // 4}f", body)
ha, a = load(sys.argv[1])
hb, b = load(sys.argv[2])
scale = max(abs(v) for v in b) or 1.0
worst = max((abs(x - y) for x, y in zip(a, b)), default=0.0)
ok = ha == hb and len(a) == len(b) and worst <= 1e-5 * scale
print(f"  max |diff| {worst:.3g} (max |value| {scale:.3g})")
sys.exit(0 if ok else 1)
PY
}
export_cnn=$1
tfcc=$2
work=$3
source "$(dirname "$0")/checks.sh"

"$export_cnn" "$work" --steps 40 || { echo "FAIL: export_cnn failed"; exit 1; }

"$tfcc" saved-model show "$work/export" > "$work/show.txt" 2>&1
cat "$work/show.txt"
check "signature listed" "^signature_def\['serving_default'\]:$" "$work/show.txt"
check "input spec" "shape: \(-1, 28, 28, 1\)" "$work/show.txt"
check "output spec" "outputs\['output_0'\] tensor_info:" "$work/show.txt"

input=$(sed -n "s/^    inputs\['\(.*\)'\] tensor_info:$/\1/p" "$work/show.txt")
echo "running: $tfcc saved-model run $work/export --signature serving_default --input $input=$work/images.npy --output $work/out.npy"
"$tfcc" saved-model run "$work/export" --signature serving_default \
  --input "$input=$work/images.npy" --output "$work/out.npy" || failures=$((failures + 1))
if close_npy "$work/out.npy" "$work/predictions.npy"; then
  echo "ok: outputs of tfcc saved-model run equal the model's own (1e-5 relative)"
else
  echo "FAIL: outputs differ from the model's own predictions"
  failures=$((failures + 1))
fi
"$tfcc" saved-model run "$work/export" --input "$input=$work/images.npy" \
  --output_dir "$work/outs" > /dev/null || failures=$((failures + 1))
if close_npy "$work/outs/output_0.npy" "$work/predictions.npy"; then
  echo "ok: --output_dir writes output_0.npy"
else
  echo "FAIL: --output_dir output differs"
  failures=$((failures + 1))
fi

"$tfcc" saved-model run "$work/export" --signature nope --input "$input=$work/images.npy" \
  > /dev/null 2> "$work/err1.txt"
rc=$?
expect_status 1 $rc "unknown signature"
check "unknown signature reported" "No signature 'nope'" "$work/err1.txt"

# A flipped byte in the variables' data file: exit status 1, DataLossError naming the file.
cp -r "$work/export" "$work/damaged"
file="$work/damaged/variables/variables.data-00000-of-00001"
size=$(stat -c %s "$file")
flip_byte "$file" $((size / 2))
"$tfcc" saved-model run "$work/damaged" --input "$input=$work/images.npy" --output "$work/x.npy" \
  > /dev/null 2> "$work/err2.txt"
rc=$?
cat "$work/err2.txt"
expect_status 1 $rc "damaged export"
check "corruption reported" "DataLossError: .*variables.data-00000-of-00001.*checksum" "$work/err2.txt"

finish
