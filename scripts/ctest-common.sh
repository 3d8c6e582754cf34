# shellcheck shell=bash
# Shared by build-ctests.sh and run-ctests.sh: the ctest build variants.
#
# Every variant is built with the CUDA 13 nvcc from the PyPI wheels
# (scripts/cuda-env.sh) into build/ctests/<variant>/<test>.
#
#   static-sass-ptx        static cudart 13; SASS for sm_80 + PTX for compute_80
#   static-ptx             static cudart 13; PTX only (the driver must JIT it)
#   static-ptx-nocompress  as static-ptx, with the fatbinary left uncompressed
#                          (nvcc 13 compresses PTX in fatbinaries by default)
#   shared-sass-ptx        -cudart shared: needs libcudart.so.13 at run time
#   shared-ptx             -cudart shared, PTX only
#   cu12-sass-ptx          linked against CUDA 12's libcudart.so.12 (see below)
#   cu12-ptx               the same, PTX only
#
# The cu12 variants: there is no CUDA 12 nvcc on PyPI (nvidia-cuda-nvcc-cu12
# ships only ptxas and libnvvm), so they are compiled by the CUDA 13 nvcc with
# `-cudart none` and linked with `-l:libcudart.so.12` from the
# nvidia-cuda-runtime-cu12 wheel.  That works because the host-side ABI that
# nvcc-generated code uses (__cudaRegisterFatBinary[End], __cudaRegisterFunction,
# __cudaRegisterVar, __cudaPush/PopCallConfiguration, __cudaLaunchKernel,
# __cudaGetKernel, __cudaUnregisterFatBinary) and the plain runtime calls the
# tests make are the same in cudart 12.9; `nm -D` on the result lists only
# such symbols, all resolved against libcudart.so.12.  What is NOT compatible
# is cudaDeviceProp: the CUDA 13 headers' layout differs from what CUDA 12's
# cudaGetDeviceProperties fills in, so device_props is left out of the cu12
# variants.  The result is a program whose runtime is CUDA 12's
# libcudart.so.12 talking to our libcuda.so.1 through the driver API.

# Where the programs go: build/ctests, or CTEST_BUILD_DIR (a checkout that shares build/
# with another can keep programs of its own there).
CTEST_BUILD_DIR="${CTEST_BUILD_DIR:-build/ctests}"

CTEST_ALL_VARIANTS=(
  static-sass-ptx
  static-ptx
  static-ptx-nocompress
  shared-sass-ptx
  shared-ptx
  cu12-sass-ptx
  cu12-ptx
)

# Flags common to every ctest build.
CTEST_COMMON_FLAGS=(-O2 -std=c++17 -Xcompiler -Wall)

CTEST_GENCODE_SASS_PTX="arch=compute_80,code=[sm_80,compute_80]"
CTEST_GENCODE_PTX="arch=compute_80,code=compute_80"

# ctest_variant_flags VARIANT [TEST]: prints the variant's nvcc flags, one per line.
# Needs CUDA12_CUDART_DIR (from cuda-env.sh) for the cu12 variants.
ctest_variant_flags() {
  case "$1" in
    static-sass-ptx) printf '%s\n' -cudart static -gencode "$CTEST_GENCODE_SASS_PTX" ;;
    static-ptx) printf '%s\n' -cudart static -gencode "$CTEST_GENCODE_PTX" ;;
    static-ptx-nocompress) printf '%s\n' -cudart static -gencode "$CTEST_GENCODE_PTX" -no-compress ;;
    shared-sass-ptx) printf '%s\n' -cudart shared -gencode "$CTEST_GENCODE_SASS_PTX" ;;
    shared-ptx) printf '%s\n' -cudart shared -gencode "$CTEST_GENCODE_PTX" ;;
    cu12-sass-ptx | cu12-ptx)
      local gencode="$CTEST_GENCODE_SASS_PTX"
      [ "$1" = cu12-ptx ] && gencode="$CTEST_GENCODE_PTX"
      if ctest_test_flags "${2:-}" | grep -qx -- -rdc=true; then
        # With -cudart none, nvcc -rdc=true skips the device link (the stub that
        # defines __cudaRegisterLinkedBinary_*): link "shared" instead, against a
        # libcudart.so that is CUDA 12's (build-ctests.sh makes build/cuda12-link).
        printf '%s\n' -cudart shared -gencode "$gencode" -L build/cuda12-link
      else
        printf '%s\n' -cudart none -gencode "$gencode" \
          "-L${CUDA12_CUDART_DIR:?CUDA12_CUDART_DIR not set}" -l:libcudart.so.12
      fi
      ;;
    *)
      echo "unknown ctest variant: $1" >&2
      return 1
      ;;
  esac
}

# ctest_test_flags TEST: extra nvcc arguments of one test, one per line: further
# translation units (kept in ctests/rdc/, which the build loop does not pick up as
# tests) and -rdc=true for separate compilation.
ctest_test_flags() {
  case "$1" in
    separate_compilation)
      printf '%s\n' -rdc=true ctests/rdc/separate_compilation_lib.cu ctests/rdc/separate_compilation_static.cu
      ;;
    # Device-side launches need the device runtime library.
    dynamic_parallelism)
      printf '%s\n' -rdc=true -lcudadevrt
      ;;
  esac
}

# ctest_variant_skips VARIANT TEST: true if TEST is not built for VARIANT.
ctest_variant_skips() {
  case "$1:$2" in
    cu12-*:device_props) return 0 ;;
    # cudaMemAdvise and cudaMemPrefetchAsync take a cudaMemLocation in CUDA 13's headers
    # but an int device under the same names in libcudart.so.12.
    cu12-*:managed_memory) return 0 ;;
    # The graph edge calls take edge data in CUDA 13's headers, not in libcudart.so.12.
    cu12-*:graph_codes) return 0 ;;
    # So do cudaGraphAddNode and cudaStreamUpdateCaptureDependencies (CUDA 12.2's plain
    # names take none).
    cu12-*:graph_conditional) return 0 ;;
    *) return 1 ;;
  esac
}

# ctest_variant_has_sass VARIANT: true if the variant embeds sm_80 SASS.
ctest_variant_has_sass() {
  case "$1" in
    *-sass-*) return 0 ;;
    *) return 1 ;;
  esac
}

# ctest_variant_cudart VARIANT: which cudart it uses: static, 13 or 12.
ctest_variant_cudart() {
  case "$1" in
    static-*) echo static ;;
    shared-*) echo 13 ;;
    cu12-*) echo 12 ;;
    *) return 1 ;;
  esac
}
