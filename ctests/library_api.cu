// The runtime's library management (cudaLibrary*, CUDA 12): a library loaded from PTX
// text, its kernels counted, enumerated and found by name, a global read back through the
// address the library gives, misuse codes, and the unload. Also a registered kernel's
// parameter layout (cudaFuncGetParamInfo) and cudaKernelSetAttributeForDevice.
#define CTEST_NAME "library_api"
#include "ctest.h"

#include <cstring>

static const char kPtx[] =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .global .align 4 .u32 answer = 42;\n"
    ".visible .entry first(.param .u64 p) { ret; }\n"
    ".visible .entry second(.param .u64 p) { ret; }\n";

__global__ void params_kernel(char c, double d, int *p) {
  if (p) *p = c + (int)d;
}

int main() {
  size_t off = 0, size = 0;
  CHECK(cudaFuncGetParamInfo((const void *)params_kernel, 1, &off, &size));
  EXPECT(off == 8 && size == 8, "parameter 1 at %zu, %zu bytes; want 8, 8", off, size);
  CHECK(cudaFuncGetParamInfo((const void *)params_kernel, 2, &off, &size));
  EXPECT(off == 16 && size == 8, "parameter 2 at %zu, %zu bytes; want 16, 8", off, size);
  EXPECT(cudaFuncGetParamInfo((const void *)params_kernel, 3, &off, &size) == cudaErrorInvalidValue,
         "a parameter past the last");
  cudaGetLastError();
  cudaKernel_t pk;
  CHECK(cudaGetKernel(&pk, params_kernel));
  CHECK(cudaKernelSetAttributeForDevice(pk, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0));
  EXPECT(cudaKernelSetAttributeForDevice(pk, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 99) ==
             cudaErrorInvalidDevice,
         "an attribute for device 99");
  cudaGetLastError();

  cudaLibrary_t lib;
  CHECK(cudaLibraryLoadData(&lib, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0));
  unsigned count = 0;
  CHECK(cudaLibraryGetKernelCount(&count, lib));
  EXPECT(count == 2, "%u kernels, want 2", count);
  cudaKernel_t all[2] = {nullptr, nullptr}, first = nullptr, second = nullptr;
  CHECK(cudaLibraryEnumerateKernels(all, 2, lib));
  CHECK(cudaLibraryGetKernel(&first, lib, "first"));
  CHECK(cudaLibraryGetKernel(&second, lib, "second"));
  EXPECT(first && second && first != second, "kernel handles");
  EXPECT((all[0] == first && all[1] == second) || (all[0] == second && all[1] == first),
         "the enumeration names both kernels");
  EXPECT(cudaLibraryGetKernel(&first, lib, "third") == cudaErrorSymbolNotFound, "an unknown kernel name");
  cudaGetLastError();

  void *p = nullptr;
  size_t bytes = 0;
  CHECK(cudaLibraryGetGlobal(&p, &bytes, lib, "answer"));
  EXPECT(p != nullptr && bytes == 4, "global at %p, %zu bytes", p, bytes);
  unsigned value = 0;
  CHECK(cudaMemcpy(&value, p, sizeof value, cudaMemcpyDeviceToHost));
  EXPECT(value == 42, "global reads %u, want 42", value);
  EXPECT(cudaLibraryGetGlobal(&p, &bytes, lib, "missing") == cudaErrorSymbolNotFound, "an unknown global");
  cudaGetLastError();

  CHECK(cudaLibraryUnload(lib));
  return ctest_finish();
}
