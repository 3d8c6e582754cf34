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
# Our math libraries (crates cublas, curand, cufft, cusolver, cusparse; soname set in each
# build.rs) and libnvJitLink (crate nvjitlink) under every name their clients load: CUDA 13's
# and CUDA 12's majors (CuPy for CUDA 12 loads libcublas.so.12 and libcufft.so.11;
# cuda.pathfinder loads libnvJitLink.so.13 or .12 before libcusolver/libcusparse).
for names in "cublas 13 12" "curand 10" "cufft 12 11" "cusolver 12 11" "cusparse 12" "nvJitLink 13 12"; do
  read -r lib majors <<<"$names"
  [ -e "$TARGET_DIR/release/lib$lib.so" ] || continue
  for m in $majors; do ln -sf "lib$lib.so" "$TARGET_DIR/release/lib$lib.so.$m"; done
done
# cuBLAS's loaders (CuPy's, PyTorch's) load libcublasLt first, as NVIDIA's libcublas
# depends on it. Ours serves the cuBLASLt API from libcublas itself, under these names.
if [ -e "$TARGET_DIR/release/libcublas.so" ]; then
  for m in 13 12; do ln -sf libcublas.so "$TARGET_DIR/release/libcublasLt.so.$m"; done
  ln -sf libcublas.so "$TARGET_DIR/release/libcublasLt.so"
fi
# libnvidia-ml (crate nvml, soname libnvidia-ml.so.1): our NVML, under the name its clients
# dlopen (PyTorch, tensorpipe, pynvml) and the one -lnvidia-ml links.
ln -sf libnvml.so "$TARGET_DIR/release/libnvidia-ml.so.1"
ln -sf libnvml.so "$TARGET_DIR/release/libnvidia-ml.so"
# libcudart.so (crate cudart-abi, soname libcudart.so.13): our CUDA runtime, under the names
# programs linked against CUDA 13's and 12's runtime load, and the one -lcudart links.
ln -sf libcudart.so "$TARGET_DIR/release/libcudart.so.13"
ln -sf libcudart.so "$TARGET_DIR/release/libcudart.so.12"

# Our toolkit in the layout build systems look for (CUDA_HOME: bin/nvcc, include/, lib64/,
# version.json): torch.utils.cpp_extension, CMake's CUDA language and Makefiles find it
# with CUDA_HOME=build/toolkit or PATH=build/toolkit/bin:$PATH. nvcc finds the headers and
# libraries beside itself, so it is a copy (a hard link where possible), not a symlink.
toolkit="$ROOT/build/toolkit"
# nvvm/libdevice stays empty (device math is in our headers); CMake requires the directory.
mkdir -p "$toolkit/bin" "$toolkit/nvvm/libdevice"
ln -f "$TARGET_DIR/release/nvcc" "$toolkit/bin/nvcc" 2>/dev/null || cp -f "$TARGET_DIR/release/nvcc" "$toolkit/bin/nvcc"
ln -sfn "$ROOT/include" "$toolkit/include"
ln -sfn "$TARGET_DIR/release" "$toolkit/lib64"
# The static runtime libraries build systems link by default (CMake: -lcudadevrt
# -lcudart_static): libcudart_static.a is cudart-abi's staticlib (our runtime, which opens
# the driver at run time as the shared one does), libcudadevrt.a an empty archive (the
# device runtime is the driver's own, linked into modules by the JIT).
ln -f "$TARGET_DIR/release/libcudart.a" "$TARGET_DIR/release/libcudart_static.a" 2>/dev/null ||
  cp -f "$TARGET_DIR/release/libcudart.a" "$TARGET_DIR/release/libcudart_static.a"
rm -f "$TARGET_DIR/release/libcudadevrt.a" && ar rc "$TARGET_DIR/release/libcudadevrt.a"
cat >"$toolkit/version.json" <<'JSON'
{
  "cuda": { "name": "CUDA SDK", "version": "13.0.0" },
  "cuda_cudart": { "name": "CUDA Runtime (cudart)", "version": "13.0.88" },
  "cuda_nvcc": { "name": "CUDA NVCC", "version": "13.0.88" },
  "cuda_nvrtc": { "name": "CUDA NVRTC", "version": "13.0.88" }
}
JSON
