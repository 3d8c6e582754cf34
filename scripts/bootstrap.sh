#!/usr/bin/env bash
# Install what building and testing this project needs, idempotently and
# quickly when everything is already there:
#   1. Debian packages: LLVM/Clang 19 (for the inkwell/llvm-sys build), lld,
#      zstd, a C++ compiler for nvcc's host side, python3-venv.
#      `apt-get update` runs only when something is missing.
#   2. Rust: must already be installed (cargo, rustc).
#   3. .venv (gitignored) with NVIDIA's CUDA toolkit wheels pinned in
#      scripts/requirements-cuda.txt: used ONLY to build the ctests.
#      Redone only when the requirement list (or the Python) changes; a stamp
#      file .venv/.requirements-cuda.stamp records what was installed.
#   3b. .venv-clients (gitignored): CuPy and its dependencies, pinned in
#      scripts/requirements-clients.txt, which ctests/python runs on our libraries.
#   4. build/cuda-13: the CUDA_HOME-like symlink tree that scripts/cuda-env.sh
#      assembles, and a check that its nvcc runs.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

log() { echo "bootstrap: $*"; }

# --- 1. Debian packages ------------------------------------------------------
APT_PACKAGES=(
  llvm-19-dev libclang-19-dev libclang-cpp19-dev libpolly-19-dev clang-19 lld-19 libzstd-dev
  libclang-rt-19-dev
  g++ make python3-venv python3-mpmath binutils coreutils
  libhsa-runtime64-1
  pocl-opencl-icd ocl-icd-libopencl1
  libopenblas0-pthread
  cmake libomp-19-dev
)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  SUDO=()
  [ "$(id -u)" -eq 0 ] || SUDO=(sudo)
  # Wait for a concurrent apt/dpkg (e.g. another installer) instead of failing.
  APT_OPTS=(-o DPkg::Lock::Timeout=900 -o Acquire::Retries=3)
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" install -y -q \
    --no-install-recommends "${missing[@]}"
fi

# --- 2. Rust -------------------------------------------------------------------
if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1 || ! command -v rustc >/dev/null 2>&1; then
  echo "bootstrap: cargo/rustc not found: install a Rust toolchain first" >&2
  exit 1
fi

# --- 3. Python venv with the CUDA toolkit wheels ---------------------------------
REQS="scripts/requirements-cuda.txt"
VENV=".venv"
STAMP="$VENV/.requirements-cuda.stamp"

# Prefer the python3 on PATH; fall back to Debian's if it cannot make venvs.
pick_python() {
  local py
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; then
      echo "$py"
      return 0
    fi
  done
  return 1
}

venv_python_ok() {
  [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1
}

want_stamp="$(sha256sum "$REQS" | cut -d' ' -f1)"
have_stamp="$(cat "$STAMP" 2>/dev/null || true)"
if [ "$have_stamp" != "$want_stamp" ] || ! venv_python_ok; then
  if ! venv_python_ok; then
    PY="$(pick_python)" || {
      echo "bootstrap: no python3 with the venv module found" >&2
      exit 1
    }
    log "creating $VENV with $PY ($("$PY" --version 2>&1))"
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
  fi
  log "installing CUDA toolkit wheels from $REQS into $VENV (first time: ~200 MB download)"
  # --no-deps: the file pins every wheel needed (nvcc's dependencies included),
  # so nothing unpinned sneaks in.
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
    --no-input -r "$REQS"
  echo "$want_stamp" >"$STAMP"
fi

# --- 3b. A second venv with the Python clients ctests/python runs (CuPy) -------------------
CLIENT_REQS="scripts/requirements-clients.txt"
CLIENT_VENV=".venv-clients"
CLIENT_STAMP="$CLIENT_VENV/.requirements.stamp"
want_client_stamp="$(sha256sum "$CLIENT_REQS" | cut -d' ' -f1)"
if [ "$(cat "$CLIENT_STAMP" 2>/dev/null || true)" != "$want_client_stamp" ] || ! [ -x "$CLIENT_VENV/bin/python" ]; then
  PY="$(pick_python)" || {
    echo "bootstrap: no python3 with the venv module found" >&2
    exit 1
  }
  log "installing the Python clients from $CLIENT_REQS into $CLIENT_VENV (first time: ~150 MB download)"
  rm -rf "$CLIENT_VENV"
  "$PY" -m venv "$CLIENT_VENV"
  "$CLIENT_VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
    --no-input -r "$CLIENT_REQS"
  echo "$want_client_stamp" >"$CLIENT_STAMP"
fi

# --- 4. nvcc from the wheels ---------------------------------------------------------
# shellcheck source=scripts/cuda-env.sh
source scripts/cuda-env.sh
if ! "$NVCC" --version >/dev/null 2>&1; then
  echo "bootstrap: $NVCC does not run" >&2
  exit 1
fi
log "ok ($("$NVCC" --version | tail -n1 | sed 's/^Build //'); NVCC=$NVCC)"
