#!/usr/bin/env bash
# Build and run the math-library test programs (ctests/libs/*.cu) on our stack: each is
# built with the wheel's nvcc against OUR library headers (include/: cublas_v2.h, curand.h,
# cufft.h, ...; gathered under build/lib-include so NVIDIA's runtime headers still come
# from the wheel) and linked with OUR libraries in the driver directory, then run there
# with our libcuda.so.1 (CPU device). A program passes when it exits 0 and prints
# "PASS <name>". A line "// link: -lcublas ..." in a program names what it links.
# Then the driver-API host programs of ctests/host (see below).
# Also the host programs ctests/host/*.cpp: built with g++ (no CUDA compiler) against our
# runtime headers alone (include/: cuda_runtime_api.h, ...) and linked with our -lcudart.
#
# usage: scripts/run-libtests.sh [DRIVER_DIR] [NAME]...   (default: target/release)
# environment: LIBTESTS_BUILD_DIR, LIBTESTS_LOG_DIR (default build/libtests,
# build/ctests-logs/libs): where programs and logs go; CTEST_PRELOAD: a library preloaded
# into each program (the sanitizer runtime, scripts/sanitizers.sh); LIBTESTS_LDFLAGS: more
# arguments for nvcc's link.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/cuda-env.sh
source scripts/cuda-env.sh
driver_dir="$(cd "${1:-target/release}" && pwd)"
shift || true
names=" $* "

# Generated headers must match the libraries' exports.
python3 crates/cublas/tools/gen_header.py --check || exit 1

inc="build/lib-include"
rm -rf "$inc"
bin_dir="${LIBTESTS_BUILD_DIR:-build/libtests}"
log_dir="${LIBTESTS_LOG_DIR:-build/ctests-logs/libs}"
mkdir -p "$inc" "$bin_dir" "$log_dir"
for h in include/cublas*.h include/curand*.h include/cufft*.h include/cusolver*.h include/cusparse*.h include/nvJitLink.h include/library_types.h; do
  [ -f "$h" ] && ln -sf "$ROOT/$h" "$inc/"
done

passed=0
failed=0
# build_and_run LABEL NAME BIN LOG LIMIT CMD...: builds with CMD (its output goes to LOG),
# then runs BIN on our libraries for at most LIMIT seconds; it passes when it exits 0 and
# prints "PASS NAME".
build_and_run() {
  local label="$1" name="$2" bin="$3" log="$4" limit="$5" rc
  shift 5
  if ! "$@" >"$log" 2>&1; then
    failed=$((failed + 1))
    echo "FAIL $label (does not build; log $log)"
    tail -n 12 "$log" | sed 's/^/    | /'
    return
  fi
  env ${CTEST_PRELOAD:+LD_PRELOAD="$CTEST_PRELOAD"} LD_LIBRARY_PATH="$driver_dir" timeout -k 10 "$limit" "$bin" >>"$log" 2>&1 </dev/null
  rc=$?
  if [ "$rc" -eq 0 ] && grep -qx "PASS $name" "$log"; then
    passed=$((passed + 1))
    echo "PASS $label"
  else
    failed=$((failed + 1))
    echo "FAIL $label (exit $rc; log $log)"
    tail -n 12 "$log" | sed 's/^/    | /'
  fi
}
wanted() { [ "$names" = "  " ] || [[ "$names" == *" $1 "* ]]; }

for src in ctests/libs/*.cu; do
  [ -f "$src" ] || continue
  t="$(basename "$src" .cu)"
  wanted "$t" || continue
  read -r -a link <<<"$(sed -n 's|^// link: ||p' "$src" | head -n1)"
  # shellcheck disable=SC2086
  build_and_run "libs/$t" "$t" "$bin_dir/$t" "$log_dir/$t.log" 300 \
    "$NVCC" -arch=sm_80 -O2 -I"$inc" "$src" -o "$bin_dir/$t" -L"$driver_dir" "${link[@]}" -Xlinker -rpath="$driver_dir" ${LIBTESTS_LDFLAGS:-}
done
# Host programs of the driver API (ctests/host/*.c): compiled by the host compiler against
# our include/cuda.h only (no NVIDIA header, no nvcc) and linked with -lcuda from the driver
# directory. Each runs as C99, as C11 with the per-thread default stream (the _ptds/_ptsz
# symbols), and as C++17 (-pedantic), the header's three common host uses.
for src in ctests/host/*.c; do
  [ -f "$src" ] || continue
  t="$(basename "$src" .c)"
  wanted "$t" || continue
  for variant in c99 c11-ptds cxx17; do
    case "$variant" in
      c99) build=(cc -std=c99 -x c) ;;
      c11-ptds) build=(cc -std=c11 -DCUDA_API_PER_THREAD_DEFAULT_STREAM -x c) ;;
      cxx17) build=(c++ -std=c++17 -x c++) ;;
    esac
    bin="$bin_dir/host_${t}_$variant"
    build_and_run "host/$t [$variant]" "$t" "$bin" "$log_dir/host_${t}_$variant.log" 120 \
      "${build[@]}" -Wall -Wextra -Werror -pedantic -Iinclude "$src" -o "$bin" -L"$driver_dir" -lcuda -Wl,-rpath,"$driver_dir"
  done
done
# Host programs of the runtime API (ctests/host/*.cpp): g++ against our runtime headers
# alone, linked with our -lcudart.
for src in ctests/host/*.cpp; do
  [ -f "$src" ] || continue
  t="$(basename "$src" .cpp)"
  wanted "$t" || continue
  # shellcheck disable=SC2086
  build_and_run "host/$t" "$t" "$bin_dir/$t" "$log_dir/$t.log" 300 \
    g++ -std=c++17 -O1 -Wall -Wextra -Werror -Iinclude "$src" -o "$bin_dir/$t" -L"$driver_dir" -lcudart -Wl,-rpath,"$driver_dir" ${LIBTESTS_LDFLAGS:-}
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
