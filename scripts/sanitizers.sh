#!/usr/bin/env bash
# The test suite and the ctests under AddressSanitizer or ThreadSanitizer
# (docs/SANITIZERS.md: what runs, how long it takes, what was found).
#
# usage: scripts/sanitizers.sh asan|tsan [STEP]...
#   asan   Rust tests of SAN_PACKAGES built with -Zsanitizer=address (std uninstrumented,
#          the cuda-frontend C++ shim built by clang++ -fsanitize=address), then the
#          libraries (libcuda.so.1, libnvrtc, libcudart, the math libraries) built the same
#          way and the ctests, the ctests under our libcudart and the math-library programs
#          run against them with clang's ASan runtime preloaded (the programs are nvcc's,
#          uninstrumented).
#   tsan   Rust tests of SAN_PACKAGES built with -Zsanitizer=thread and -Zbuild-std (std
#          instrumented too, so its locks and atomics are seen), then the libraries and the
#          ctests as for asan with clang's TSan runtime preloaded.
#   STEP   any of: tests ctests own-cudart libtests (default: all four)
# environment:
#   SAN_PACKAGES   packages whose tests run (default: the driver, the CPU device, NVRTC,
#                  cudart and the math libraries, see below); "workspace" for all
#   SAN_TEST_ARGS  extra arguments for the test binaries (e.g. a test name filter)
#   CTEST_VARIANTS, CTEST_NAMES, CTEST_BUILD_DIR   as for scripts/run-ctests.sh
#   SAN_LOGS       where logs go (default build/sanitizers/<asan|tsan>)
# Builds go to target/asan or target/tsan (the normal target/ is untouched); kernels are
# compiled into a fresh cache under SAN_LOGS. Needs the rust-src component (tsan) and
# Debian's libclang-rt-19-dev (the runtimes preloaded into nvcc-built programs).
#
# Exit status: 0 when every step passed and no sanitizer report was printed; 1 when a
# test failed or a report was found (listed at the end with the log it is in); 2 when
# something needed is missing.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
kind="${1:-}"
shift || true
case "$kind" in
  asan | tsan) ;;
  *) echo "usage: scripts/sanitizers.sh asan|tsan [tests] [ctests] [own-cudart] [libtests]" >&2; exit 2 ;;
esac
steps=" ${*:-tests ctests own-cudart libtests} "

host="$(rustc -vV | sed -n 's/^host: //p')"
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="$ROOT/target/$kind"
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"
out="$CARGO_TARGET_DIR/$host/debug"
logs="${SAN_LOGS:-$ROOT/build/sanitizers/$kind}"
supp="$ROOT/scripts/sanitizers"
rt_dir="$(ls -d /usr/lib/llvm-19/lib/clang/*/lib/linux 2>/dev/null | head -n1)"
mkdir -p "$logs" "$CARGO_TARGET_DIR"
rm -rf "$logs/kernel-cache"
export CUDA_CACHE_PATH="$logs/kernel-cache"

# The sanitizer runtime symbols the instrumented cdylibs need: the test executables link
# the runtime statically and export these (and only these, so that a test that dlopens
# libcuda.so still gets the library's own cuInit, not the rlib copy in the executable).
printf '{\n  __asan_*;\n  __lsan_*;\n  __tsan_*;\n  __sanitizer_*;\n  __ubsan_*;\n};\n' >"$CARGO_TARGET_DIR/sanitizer-exports.list"
# Line tables only and no incremental state: reports keep file:line, and the test
# executables take a third of the disk that full debug info takes (CI's disk is small).
export CARGO_INCREMENTAL=0
rustflags="-Cforce-frame-pointers=yes -Cdebuginfo=line-tables-only -Clink-arg=-Wl,--dynamic-list=$CARGO_TARGET_DIR/sanitizer-exports.list"
build_std=()
if [ "$kind" = asan ]; then
  export RUSTFLAGS="-Zsanitizer=address $rustflags"
  # Leaks are valgrind's part (scripts/valgrind-leaks.sh); the coroutine stacks make
  # "use after return" detection meaningless (see docs/SANITIZERS.md).
  # cuMemAlloc of more than there is answers CUDA_ERROR_OUT_OF_MEMORY (error_paths asks
  # for 2^62 bytes): the allocator returns null instead of ASan ending the process.
  export ASAN_OPTIONS="detect_leaks=0:detect_stack_use_after_return=0:allocator_may_return_null=1:print_summary=1:${ASAN_OPTIONS:-}"
  runtime="$rt_dir/libclang_rt.asan-x86_64.so"
  cxx_flag="-fsanitize=address"
  report='ERROR: AddressSanitizer'
else
  export RUSTFLAGS="-Zsanitizer=thread $rustflags"
  if ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
    echo "sanitizers.sh: tsan builds std with -Zbuild-std, which needs 'rustup component add rust-src'" >&2
    exit 2
  fi
  build_std=(-Zbuild-std)
  # allocator_may_return_null=1 as for asan; die_after_fork=0: nvrtc-abi tests/fork.rs compiles in a child forked from a process
  # with threads (as Python's multiprocessing does); TSan would end such a child at its
  # first thread.
  export TSAN_OPTIONS="suppressions=$supp/tsan.supp:halt_on_error=0:report_signal_unsafe=0:history_size=4:die_after_fork=0:allocator_may_return_null=1:${TSAN_OPTIONS:-}"
  runtime="$rt_dir/libclang_rt.tsan-x86_64.so"
  cxx_flag="-fsanitize=thread"
  report='WARNING: ThreadSanitizer'
fi
if [ ! -e "$runtime" ]; then
  echo "sanitizers.sh: $runtime not found (apt-get install libclang-rt-19-dev)" >&2
  exit 2
fi
# The cuda-frontend shim (C++, built by build.rs with cc) instrumented by clang; the C
# programs of nvrtc-abi's tests (tests/c_programs.rs) built by clang with the runtime.
export CXX=clang++-19 CC=clang-19
shim_flags="$cxx_flag -fno-omit-frame-pointer"
[ "$kind" = asan ] && shim_flags+=" -include $supp/llvm-no-poisoning.h"
export "CXXFLAGS_${host//-/_}=$shim_flags"
export C_PROGRAMS_CFLAGS="$cxx_flag"
# The leak harness (nvrtc-abi tests/leaks.rs) without its resident-memory bounds, which
# the sanitizers' allocators do not meet; fewer repetitions.
export LEAKS_UNDER_SANITIZER=1 LEAKS_COMPILES="${LEAKS_COMPILES:-50}" LEAKS_CYCLES="${LEAKS_CYCLES:-200}" LEAKS_NVRTC="${LEAKS_NVRTC:-50}"

if [ "${SAN_PACKAGES:-}" = workspace ]; then
  packages=(--workspace)
else
  packages=()
  for p in ${SAN_PACKAGES:-cuda-driver cpu-backend cuda-abi nvrtc-abi cudart-abi cublas curand cufft cusolver cusparse nvjitlink libcuda-client}; do
    packages+=(-p "$p")
  done
fi
cargo_san() { cargo "$1" "${build_std[@]}" --target "$host" "${@:2}"; }

status=0
t0=$(date +%s)
elapsed() { echo "$(($(date +%s) - t0))s"; }

if [[ "$steps" == *" tests "* ]]; then
  echo "== $kind: build the Rust tests (${packages[*]}) into $CARGO_TARGET_DIR"
  if ! cargo_san test "${packages[@]}" --tests --no-run >"$logs/build-tests.log" 2>&1; then
    tail -n 30 "$logs/build-tests.log"
    echo "sanitizers.sh: building the tests failed (log $logs/build-tests.log)"
    exit 1
  fi
  echo "   built ($(elapsed))"
  echo "== $kind: run the Rust tests"
  # shellcheck disable=SC2086
  cargo_san test "${packages[@]}" --tests --no-fail-fast -- ${SAN_TEST_ARGS:-} >"$logs/tests.log" 2>&1 || status=1
  awk '/^test result:/ { p += $4; f += $6; n++ } END { printf "   %d test binaries: %d passed, %d failed\n", n, p, f }' "$logs/tests.log"
  grep -E '^    `-p ' "$logs/tests.log" | sed 's/^ */   failed: /'
  echo "   ran ($(elapsed)); log $logs/tests.log"
fi

if [[ "$steps" == *" ctests "* || "$steps" == *" own-cudart "* || "$steps" == *" libtests "* ]]; then
  echo "== $kind: build the libraries into $out"
  if ! cargo_san build --workspace --lib >"$logs/build-libs.log" 2>&1; then
    tail -n 30 "$logs/build-libs.log"
    echo "sanitizers.sh: building the libraries failed (log $logs/build-libs.log)"
    exit 1
  fi
  # The names programs load, as scripts/build.sh lays them out.
  ln -sf libcuda.so "$out/libcuda.so.1"
  for names in "nvrtc 13 12" "cudart 13 12" "cublas 13 12" "curand 10" "cufft 12 11" "cusolver 12 11" "cusparse 12" "nvJitLink 13 12"; do
    read -r lib majors <<<"$names"
    [ -e "$out/lib$lib.so" ] || continue
    for m in $majors; do ln -sf "lib$lib.so" "$out/lib$lib.so.$m"; done
  done
  for m in 13 12; do ln -sf libcublas.so "$out/libcublasLt.so.$m"; done
  echo "   built ($(elapsed))"
  # nvcc's programs are not instrumented: the runtime comes first, preloaded.
  # launch_allocations replaces malloc for the whole process (to count the calls), which
  # takes the allocator from under the sanitizer: it cannot run under one.
  export CTEST_PRELOAD="$runtime" CTEST_SKIP="launch_allocations ${CTEST_SKIP:-}"
  [ -d "${CTEST_BUILD_DIR:-build/ctests}" ] || scripts/build-ctests.sh >"$logs/build-ctests.log" 2>&1 || {
    echo "sanitizers.sh: scripts/build-ctests.sh failed (log $logs/build-ctests.log)"
    exit 1
  }
fi
if [[ "$steps" == *" ctests "* ]]; then
  echo "== $kind: ctests against $out/libcuda.so.1"
  CTEST_LOG_DIR="$logs/ctests" scripts/run-ctests.sh "$out" >"$logs/ctests.log" 2>&1 || status=1
  grep -v '^PASS' "$logs/ctests.log" | sed 's/^/   /'
  echo "   ran ($(elapsed)); log $logs/ctests.log"
fi
if [[ "$steps" == *" own-cudart "* ]]; then
  echo "== $kind: ctests under our libcudart"
  CTEST_LOG_DIR="$logs/own-cudart" scripts/run-ctests-own-cudart.sh "$out" >"$logs/own-cudart.log" 2>&1 || status=1
  grep -v '^PASS' "$logs/own-cudart.log" | sed 's/^/   /'
  echo "   ran ($(elapsed)); log $logs/own-cudart.log"
fi
if [[ "$steps" == *" libtests "* ]]; then
  echo "== $kind: math-library programs (ctests/libs)"
  # The libraries they link leave the sanitizer's symbols to the preloaded runtime.
  LIBTESTS_LDFLAGS="-Xlinker --allow-shlib-undefined" LIBTESTS_BUILD_DIR="$logs/libtests-bin" LIBTESTS_LOG_DIR="$logs/libtests" scripts/run-libtests.sh "$out" >"$logs/libtests.log" 2>&1 || status=1
  grep -v '^PASS' "$logs/libtests.log" | sed 's/^/   /'
  echo "   ran ($(elapsed)); log $logs/libtests.log"
fi

# Every report, wherever it was printed (test output, ctest logs).
reports="$(grep -rlF "$report" "$logs" --include='*.log' 2>/dev/null | sort)"
if [ -n "$reports" ]; then
  status=1
  echo "== $kind reports ($(grep -rhF "$report" "$logs" --include='*.log' | wc -l)):"
  for f in $reports; do
    echo "   $f: $(grep -hE '^SUMMARY: (Address|Thread)Sanitizer' "$f" | sort | uniq -c | sed 's/^ *//' | head -n 5 | tr '\n' ';')"
  done
fi
echo "sanitizers ($kind): $([ "$status" -eq 0 ] && echo PASS || echo FAIL) in $(elapsed)"
exit "$status"
