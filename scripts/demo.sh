#!/usr/bin/env bash
# Demo: build our libcuda.so.1, compile an unmodified CUDA program (ctests/saxpy.cu)
# with NVIDIA's nvcc (static cudart, SASS+PTX), and run it on the CPU through
# our libcuda.so.1.  The program checks its own result against the host.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
DRIVER_DIR="$TARGET_DIR/release"

scripts/bootstrap.sh
scripts/build.sh
if [ ! -e "$DRIVER_DIR/libcuda.so.1" ]; then
  echo "demo.sh: cargo build --release did not produce $DRIVER_DIR/libcuda.so.1 (crate crates/cuda-abi)" >&2
  exit 1
fi
scripts/build-ctests.sh -v static-sass-ptx saxpy

BIN=build/ctests/static-sass-ptx/saxpy
echo
echo "\$ LD_LIBRARY_PATH=$DRIVER_DIR $BIN"
LD_LIBRARY_PATH="$DRIVER_DIR" "$BIN"
