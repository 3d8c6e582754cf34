#!/usr/bin/env bash
# Fuzz one input surface: `scripts/fuzz.sh TARGET [SECONDS] [JOBS]` (default 3600 s, 1 job).
#
# Targets (fuzz/fuzz_targets/*.rs; compile_ptx lives in crates/compiler-core/fuzz):
#   load_image     bytes as a kernel image through cuModuleLoadData and cuLibraryLoadData
#   link_inputs    cuLink* with up to four inputs of fuzzer-chosen types
#   driver_calls   programs of driver calls on live, destroyed and arbitrary handles
#   nvrtc_compile  NVRTC with arbitrary options and sources
#   nvcc_options   our nvcc's command-line parser
#   compile_ptx    the PTX parser, the lowering and LLVM's IR verifier
#
# The corpus (fuzz/corpus/TARGET, not tracked) is seeded from this repository's own test
# inputs: the PTX files of the compiler and CPU backend tests, fatbins our nvcc makes from
# ctests/*.cu, and the kernels and command lines below. Crashes land in
# fuzz/artifacts/TARGET; each one found gets a regression test (fuzz/RESULTS.md).
# Needs cargo-fuzz (`cargo install cargo-fuzz`) and the nightly toolchain. Leaks are not
# judged here (-detect_leaks=0): LeakSanitizer's scan trips its own CHECK on the driver's
# coroutine stacks, and leaks are scripts/valgrind-leaks.sh's part.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${1:?usage: scripts/fuzz.sh TARGET [SECONDS] [JOBS]}"
seconds="${2:-3600}"
jobs="${3:-1}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
export LLVM_SYS_191_PREFIX=/usr/lib/llvm-19

if [ "$target" = compile_ptx ]; then
  exec "$ROOT/scripts/fuzz-ptx.sh" "$seconds"
fi

cd "$ROOT/fuzz"
corpus="corpus/$target"
mkdir -p "$corpus"
seed() { # seed NAME < bytes
  cat >"$corpus/seed-$1"
}
ptx_files=("$ROOT"/crates/compiler-core/tests/ptx/*.ptx "$ROOT"/crates/cpu-backend/tests/data/*.ptx)
fatbins=()
if [ -x "$ROOT/build/toolkit/bin/nvcc" ] && [[ "$target" = load_image || "$target" = link_inputs ]]; then
  mkdir -p "$ROOT/build/fuzz-seeds"
  for cu in "$ROOT"/ctests/{vector_add,saxpy,block_reduce,textures}.cu; do
    out="$ROOT/build/fuzz-seeds/$(basename "$cu" .cu).fatbin"
    [ -f "$out" ] || "$ROOT/build/toolkit/bin/nvcc" -fatbin -arch=sm_80 -I"$ROOT/ctests" "$cu" -o "$out" 2>/dev/null || true
    [ -f "$out" ] && fatbins+=("$out")
  done
fi
case "$target" in
  load_image)
    for f in "${ptx_files[@]}" "${fatbins[@]}"; do seed "$(basename "$f")" <"$f"; done
    ;;
  link_inputs)
    # The first byte of each part picks its CUjitInputType (1 PTX, 2 fatbin).
    for f in "${ptx_files[@]}"; do { printf '\001'; cat "$f"; } | seed "$(basename "$f")"; done
    for f in "${fatbins[@]}"; do { printf '\002'; cat "$f"; } | seed "$(basename "$f")"; done
    ;;
  driver_calls)
    head -c 256 /dev/urandom | seed random-256
    printf '\000\100\000\000\015\000\100\000\000\000\000\000\014\000' | seed alloc-launch-sync
    ;;
  nvrtc_compile)
    printf '%s\n%s\n' "-arch=compute_80 -std=c++17" 'extern "C" __global__ void k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = sinf(x[i]) * 2.0f; }' | seed saxpy-like
    printf '%s\n%s\n' "-default-device --use_fast_math" '#include <cuda_fp16.h>
template <typename T> __device__ T twice(T v) { return v + v; }
__global__ void h(__half *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }' | seed template-half
    printf '%s\n%s\n' "-G -lineinfo" '__global__ void s() { __shared__ int t[32]; t[threadIdx.x] = threadIdx.x; __syncthreads(); }' | seed shared
    ;;
  nvcc_options)
    printf '%s' "-O2 -arch=sm_80 -std=c++17 saxpy.cu -o saxpy" | seed plain
    printf '%s' "-gencode=arch=compute_86,code=sm_86 -gencode=arch=compute_86,code=compute_86 --compiler-options -fPIC -c x.cu -o x.o -MD -MF x.d" | seed torch-like
    printf '%s' "-rdc=true -dlink -Xcompiler -Wall --expt-relaxed-constexpr -lineinfo -G -x cu -I. -DFOO=1 a.cu b.o" | seed rdc
    ;;
  *)
    echo "fuzz.sh: unknown target $target" >&2
    exit 2
    ;;
esac
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
exec cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" -max_len=262144 -rss_limit_mb=6144 -timeout=60 -detect_leaks=0 "${parallel[@]}"
