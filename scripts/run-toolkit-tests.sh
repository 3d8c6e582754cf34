#!/usr/bin/env bash
# Our toolkit (build/toolkit: our nvcc, headers and libraries) as build systems use it, with
# no NVIDIA package in the environment (PATH the system's, CUDA_HOME/CUDA_PATH unset):
#   cmake   ctests/toolkit/cmake: enable_language(CUDA) and find_package(CUDAToolkit) with
#           CMAKE_CUDA_COMPILER=build/toolkit/bin/nvcc; a .cu static library, a C++ program
#           linked with CUDA::cudart, a C program linked with CUDA::cuda_driver, and a
#           separable-compilation program (device code from a static library, nvcc -dlink)
#   torch   ctests/toolkit/torch_extension.py: torch.utils.cpp_extension.load_inline with
#           CUDA_HOME=build/toolkit, run with the Python named by TORCH_PYTHON (a PyTorch
#           with CUDA 13); skipped, and said so, when TORCH_PYTHON is not set
# Programs run on our libcuda.so.1 from DRIVER_DIR. Exits non-zero if anything failed.
#
# usage: scripts/run-toolkit-tests.sh [DRIVER_DIR]   (default target/release)
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
driver_dir="$(cd "${1:-target/release}" && pwd -P)"
toolkit="$ROOT/build/toolkit"
work="$ROOT/build/toolkit-tests"
[ -x "$toolkit/bin/nvcc" ] || { echo "run-toolkit-tests: $toolkit/bin/nvcc not found (run scripts/build.sh)" >&2; exit 2; }
rm -rf "$work" && mkdir -p "$work"
clean_env=(env -i "PATH=/usr/bin:/bin" "HOME=${HOME:-/tmp}" "TMPDIR=${TMPDIR:-/tmp}" "LANG=C.UTF-8")
passed=0 failed=0 skipped=0
result() { # result NAME STATUS LOG
  if [ "$2" = 0 ]; then
    echo "PASS toolkit/$1"
    passed=$((passed + 1))
  else
    echo "FAIL toolkit/$1 (log $3)"
    tail -n 15 "$3" | sed 's/^/    | /'
    failed=$((failed + 1))
  fi
}

# nvcc found on PATH (as Makefiles call it) finds its toolkit beside itself, not around the
# working directory: ctests/ has a ../include/cuda_runtime.h that must not be taken for it.
log="$work/path.log"
(cd ctests && "${clean_env[@]}" "PATH=$toolkit/bin:/usr/bin:/bin" nvcc -v --dryrun -c vector_add.cu -o /dev/null) >"$log" 2>&1
grep -qx "#\$ TOP=$toolkit" "$log"
result nvcc_on_path $? "$log"

if command -v cmake >/dev/null 2>&1; then
  log="$work/cmake.log"
  {
    "${clean_env[@]}" cmake -S ctests/toolkit/cmake -B "$work/cmake" -DCMAKE_CUDA_COMPILER="$toolkit/bin/nvcc" &&
      "${clean_env[@]}" cmake --build "$work/cmake" -v &&
      "${clean_env[@]}" "LD_LIBRARY_PATH=$driver_dir" timeout 120 "$work/cmake/toolkit_cmake" &&
      "${clean_env[@]}" "LD_LIBRARY_PATH=$driver_dir" timeout 120 "$work/cmake/toolkit_cmake_driver" &&
      "${clean_env[@]}" "LD_LIBRARY_PATH=$driver_dir" timeout 120 "$work/cmake/toolkit_cmake_rdc"
  } >"$log" 2>&1
  rc=$?
  [ "$rc" = 0 ] && ! grep -q "PASS toolkit_cmake_rdc" "$log" && rc=1
  result cmake "$rc" "$log"
else
  echo "SKIP toolkit/cmake (cmake is not installed; scripts/bootstrap.sh installs it)"
  skipped=$((skipped + 1))
fi

if [ -n "${TORCH_PYTHON:-}" ]; then
  log="$work/torch.log"
  mkdir -p "$work/torch"
  "${clean_env[@]}" "CUDA_HOME=$toolkit" "PATH=$(dirname "$TORCH_PYTHON"):/usr/bin:/bin" "LD_LIBRARY_PATH=$driver_dir" \
    "TORCH_CUDA_ARCH_LIST=8.0" "MAX_JOBS=2" timeout 900 "$TORCH_PYTHON" ctests/toolkit/torch_extension.py "$work/torch" >"$log" 2>&1
  rc=$?
  [ "$rc" = 0 ] && ! grep -qx "PASS torch_extension" "$log" && rc=1
  result torch_extension "$rc" "$log"
else
  echo "SKIP toolkit/torch_extension (set TORCH_PYTHON to a Python with PyTorch for CUDA 13)"
  skipped=$((skipped + 1))
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
