# shellcheck shell=bash
# Source this file (after scripts/bootstrap.sh has created .venv) to get a
# working CUDA 13 nvcc from NVIDIA's PyPI wheels:
#
#   source scripts/cuda-env.sh
#   $NVCC -arch=sm_80 x.cu -o x
#
# The toolkit is used ONLY to build the test programs in ctests/.
#
# Layout of the wheels inside .venv/lib/python3.*/site-packages/nvidia/:
#   cu13/bin/{nvcc,nvcc.profile,ptxas,fatbinary,nvlink,cudafe++,bin2c,crt/}
#                                           nvidia-cuda-nvcc (+ cuobjdump wheel)
#   cu13/nvvm/{bin/cicc,libdevice/}          nvidia-nvvm (libnvvm.so.4 in cu13/lib)
#   cu13/include/ (cuda_runtime.h, ...)      nvidia-cuda-runtime
#   cu13/include/crt/                        nvidia-cuda-crt
#   cu13/lib/{libcudart.so.13,libcudart_static.a,libcudadevrt.a}
#                                            nvidia-cuda-runtime
#   cuda_runtime/lib/libcudart.so.12         nvidia-cuda-runtime-cu12
#
# nvcc finds its tools through nvcc.profile next to the nvcc it was started
# as: TOP=<that dir>/.., includes from TOP/include, libraries from TOP/lib64,
# cicc from TOP/nvvm/bin.  The wheel has no lib64 and no unversioned
# libcudart.so (needed by -cudart shared), so we assemble a CUDA_HOME-like
# tree of symlinks under build/cuda-13 and run nvcc from there.
#
# Exports: CUDA_HOME CUDA_PATH NVCC PATH(+CUDA_HOME/bin) CUDA13_CUDART_DIR
#          CUDA12_CUDART_DIR CUOBJDUMP CUDA_ENV_ROOT

_cuda_env_main() {
  local root venv site wheel cu12 home f
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  venv="$root/.venv"
  site="$(ls -d "$venv"/lib/python3*/site-packages 2>/dev/null | head -n1)"
  wheel="$site/nvidia/cu13"
  cu12="$site/nvidia/cuda_runtime/lib"
  if [ -z "$site" ] || [ ! -x "$wheel/bin/nvcc" ]; then
    echo "cuda-env.sh: no nvcc in $venv; run scripts/bootstrap.sh first" >&2
    return 1
  fi
  home="$root/build/cuda-13"
  mkdir -p "$home/bin" "$home/lib64"
  # bin/: every tool (and nvcc.profile, crt/) as a link, so _HERE_ is our bin.
  # (-e follows the link: a dangling one, e.g. after the checkout moved, is redone.)
  for f in "$wheel"/bin/*; do
    [ -e "$home/bin/${f##*/}" ] || ln -sfn "$f" "$home/bin/${f##*/}"
  done
  [ -e "$home/include" ] || ln -sfn "$wheel/include" "$home/include"
  [ -e "$home/nvvm" ] || ln -sfn "$wheel/nvvm" "$home/nvvm"
  for f in "$wheel"/lib/*; do
    [ -e "$home/lib64/${f##*/}" ] || ln -sfn "$f" "$home/lib64/${f##*/}"
  done
  [ -e "$home/lib64/libcudart.so" ] || ln -sfn libcudart.so.13 "$home/lib64/libcudart.so"
  [ -e "$home/lib" ] || ln -sfn lib64 "$home/lib"

  export CUDA_ENV_ROOT="$root"
  export CUDA_HOME="$home"
  export CUDA_PATH="$home"
  export NVCC="$home/bin/nvcc"
  export CUOBJDUMP="$home/bin/cuobjdump"
  # Directory holding libcudart.so.13 (for -cudart shared builds at run time).
  export CUDA13_CUDART_DIR="$home/lib64"
  # Directory holding CUDA 12's libcudart.so.12 (for the cu12-* builds).
  export CUDA12_CUDART_DIR="$cu12"
  case ":$PATH:" in
    *":$home/bin:"*) ;;
    *) export PATH="$home/bin:$PATH" ;;
  esac
}

_cuda_env_main
_cuda_env_rc=$?
unset -f _cuda_env_main
if [ "$_cuda_env_rc" -ne 0 ]; then
  unset _cuda_env_rc
  # shellcheck disable=SC2317
  return 1 2>/dev/null || exit 1
fi
unset _cuda_env_rc
