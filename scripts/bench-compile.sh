#!/usr/bin/env bash
# Compile-speed benchmark (issue 3): build a large PTX module with nvcc from
# crates/compiler-core/benches/data/template_heavy.cu, then time our PTX -> host-code
# compile against NVIDIA's ptxas on the same module in the same run (results and a
# profile in crates/compiler-core/benches/RESULTS.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/bootstrap.sh >/dev/null
# shellcheck source=/dev/null
source scripts/cuda-env.sh
mkdir -p build/bench
SRC=crates/compiler-core/benches/data/template_heavy.cu
PTX=build/bench/template_heavy.ptx
if [ ! -e "$PTX" ] || [ "$SRC" -nt "$PTX" ]; then
  "$NVCC" -arch=sm_80 -ptx "$SRC" -o "$PTX"
fi
cargo run --release -q -p compiler-core --example compile_bench -- "$PTX" "$(command -v ptxas)" "${RUNS:-3}"
