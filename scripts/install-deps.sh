#!/usr/bin/env bash
# Installs every Debian package tfcc needs to build, test and run its demo.
# Idempotent: when everything is present it only runs dpkg-query and exits.
set -euo pipefail

packages=(
  cmake gcc g++ make ccache pkg-config
  libdnnl-dev libgtest-dev libgmock-dev libbenchmark-dev
  zlib1g-dev libpng-dev libjpeg62-turbo-dev libgif-dev
  dataset-fashion-mnist
  libopenmpi-dev openmpi-bin
  clang clang-format libclang-rt-14-dev
  clang-16 libclang-rt-16-dev libomp-16-dev llvm-16
  protobuf-compiler libprotobuf-dev
  libhdf5-dev nlohmann-json3-dev
  libeigen3-dev
  python3-dev python3-venv
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
