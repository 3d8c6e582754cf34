#!/usr/bin/env bash
# SGEMM/DGEMM at 256, 1024 and 4096 through our libcublas (CPU device) against OpenBLAS
# called directly, in one run; prints medians and ratios (crates/cublas/RESULTS.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
cargo build --release -p cublas -p cuda-abi --bins --lib
ln -sf libcuda.so target/release/libcuda.so.1
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
LD_LIBRARY_PATH="$ROOT/target/release" target/release/cublas_bench
