#!/usr/bin/env bash
# CPU device speed benchmark (issue 4): compiles crates/cpu-bench/kernels/*.cu to PTX with
# NVIDIA's nvcc (from the project venv) into build/cpu-bench/, builds cpu-bench (release)
# and runs it. It prints, for each case, our time, a baseline measured in the same run
# (native Rust, OpenCL on PoCL, our fiber fallback, or for a replayed graph the same kernels
# launched one by one), the ratio and the target.
#
# usage: scripts/bench-cpu.sh [--reps N] [--only saxpy,sum-shared,...]
# CUDA_CPU_THREADS=N sets the worker count of ours and of the baselines.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
scripts/bootstrap.sh >/dev/null
# shellcheck source=scripts/cuda-env.sh
source scripts/cuda-env.sh
mkdir -p build/cpu-bench
for src in crates/cpu-bench/kernels/*.cu; do
  out="build/cpu-bench/$(basename "$src" .cu).ptx"
  if [ ! -e "$out" ] || [ "$src" -nt "$out" ] || [ "$0" -nt "$out" ]; then
    "$NVCC" -ptx -arch=sm_80 "$src" -o "$out"
  fi
done
cargo run --release -q -p cpu-bench -- --ptx-dir build/cpu-bench "$@"
