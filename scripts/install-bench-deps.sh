#!/usr/bin/env bash
# Installs the peers `make bench` measures tfcc against. Kept apart from install-deps.sh so that
# `make test` stays lean: LibTorch and TensorFlow are big and only the benchmarks need them.
#   - LibTorch C++ and PyTorch: Debian 12's libtorch-dev and python3-torch (1.13.1), and
#     libopenblas0-pthread: without it Debian's PyTorch does its matmuls with the reference BLAS
#     (libblas3), far from its best; OpenBLAS takes over libblas.so.3 through the alternatives.
#   - linux-perf: `perf record -g` to profile a benchmark (docs/benchmark-history.md's profiles).
#   - TensorFlow: pip's tensorflow-cpu in a virtual environment under the build folder
#     (BUILD_DIR/tf-venv, default build/release), which benchmarks/run.sh picks up.
#   - PyTorch 2.x and ONNX Runtime from pip, for the benchmark suite (benchmarks/suite_run.sh,
#     `make bench-suite`): torch, onnx and onnxruntime in BUILD_DIR/bench-venv. PyPI's Linux torch
#     wheel pulls in the CUDA libraries (about 5.5 GB installed); the CPU kernels it runs are the
#     same (MKL, oneDNN 3). Kept apart from tf-venv so neither pins the other's numpy/protobuf.
# Every step is best effort: a peer that cannot be installed is reported and skipped, and the
# benchmarks print n/a for it. Idempotent: when everything is present it only checks and exits.
#
#   bash scripts/install-bench-deps.sh [BUILD_DIR]
set -uo pipefail

BUILD=${1:-build/release}
TF_VERSION=${TF_VERSION:-2.21.0}

packages=(libtorch-dev python3-torch libopenblas0-pthread python3-venv linux-perf)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-bench-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  if ! { $SUDO apt-get update -qq &&
         $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
    echo "install-bench-deps: apt-get failed; LibTorch/PyTorch peers will print n/a" >&2
  fi
fi

VENV="$BUILD/tf-venv"
if ! "$VENV/bin/python" -c "import tensorflow" >/dev/null 2>&1; then
  echo "install-bench-deps: installing tensorflow-cpu==$TF_VERSION into $VENV"
  mkdir -p "$BUILD"
  if ! { /usr/bin/python3 -m venv "$VENV" &&
         timeout 900 "$VENV/bin/pip" install -q "tensorflow-cpu==$TF_VERSION"; }; then
    echo "install-bench-deps: tensorflow-cpu could not be installed; TensorFlow prints n/a" >&2
  fi
fi
BENCH_VENV="$BUILD/bench-venv"
if ! "$BENCH_VENV/bin/python" -c "import torch, onnxruntime, onnx" >/dev/null 2>&1; then
  echo "install-bench-deps: installing torch, onnx, onnxruntime into $BENCH_VENV"
  mkdir -p "$BUILD"
  if ! { /usr/bin/python3 -m venv "$BENCH_VENV" &&
         timeout 1800 "$BENCH_VENV/bin/pip" install -q torch onnx onnxruntime numpy; }; then
    echo "install-bench-deps: torch/onnxruntime could not be installed; the suite's PyTorch" \
      "and ONNX Runtime columns print n/a" >&2
  fi
fi
exit 0
