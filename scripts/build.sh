#!/usr/bin/env bash
# Build the workspace in release mode and lay out the driver library under the names
# programs load: libcuda.so.1 (what cudart dlopens) and libcuda.so (what -lcuda links).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cargo build --workspace --release
# Cargo names the cdylib libcuda.so; its soname is libcuda.so.1 (see crates/cuda-abi/build.rs).
ln -sf libcuda.so "$TARGET_DIR/release/libcuda.so.1"
# libnvrtc.so (crate nvrtc-abi, soname libnvrtc.so.13): clients dlopen it under the
# names of NVRTC 13 and 12 too.
ln -sf libnvrtc.so "$TARGET_DIR/release/libnvrtc.so.13"
ln -sf libnvrtc.so "$TARGET_DIR/release/libnvrtc.so.12"
# libcudart.so (crate cudart-abi, soname libcudart.so.13): our CUDA runtime, under the names
# programs linked against CUDA 13's and 12's runtime load, and the one -lcudart links.
ln -sf libcudart.so "$TARGET_DIR/release/libcudart.so.13"
ln -sf libcudart.so "$TARGET_DIR/release/libcudart.so.12"
