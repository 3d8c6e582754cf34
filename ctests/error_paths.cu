// Error handling: invalid launch configurations are reported through
// cudaGetLastError (which then resets), bad cudaMemcpy calls report errors,
// error strings are NVIDIA's exact texts, and the process keeps working: a
// later valid launch succeeds.
//
// Which code an invalid launch configuration gives depends on the CUDA
// runtime, as seen on real hardware (H200, driver 580.159.04): CUDA 12.9's
// libcudart.so.12 reports cudaErrorInvalidConfiguration, CUDA 13.0's cudart
// (static or shared) reports cudaErrorInvalidValue.  The expectation is
// picked with cudaRuntimeGetVersion.
#define CTEST_NAME "error_paths"
#include "ctest.h"

#include <string.h>
#include <vector>

__global__ void iota(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 3 + 1;
}

static void expect_code(cudaError_t got, cudaError_t want, const char *what) {
  EXPECT(got == want, "%s: got %d (%s: %s), want %d (%s)", what, (int)got, cudaGetErrorName(got),
         cudaGetErrorString(got), (int)want, cudaGetErrorName(want));
}

static void expect_string(cudaError_t e, const char *want_name, const char *want_text) {
  const char *name = cudaGetErrorName(e);
  const char *text = cudaGetErrorString(e);
  EXPECT(name && strcmp(name, want_name) == 0, "cudaGetErrorName(%d) = \"%s\", want \"%s\"",
         (int)e, name ? name : "(null)", want_name);
  EXPECT(text && strcmp(text, want_text) == 0, "cudaGetErrorString(%d) = \"%s\", want \"%s\"",
         (int)e, text ? text : "(null)", want_text);
}

static cudaError_t bad_config_error = cudaErrorInvalidConfiguration;

// Launch `iota` with a bad configuration and expect the launch error to be
// reported once by cudaGetLastError and then cleared.
static void bad_launch(dim3 grid, dim3 block, int *buf, const char *what) {
  iota<<<grid, block>>>(buf, 1);
  expect_code(cudaGetLastError(), bad_config_error, what);
  expect_code(cudaGetLastError(), cudaSuccess, "cudaGetLastError after it was read");
}

int main() {
  // Exact error names and strings (these come from the CUDA runtime).
  expect_string(cudaSuccess, "cudaSuccess", "no error");
  expect_string(cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument");
  expect_string(cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory");
  expect_string(cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
                "invalid configuration argument");
  expect_string(cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
                "invalid copy direction for memcpy");
  expect_string(cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer",
                "invalid device pointer");
  expect_string(cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol");
  expect_string(cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction",
                "invalid device function");
  expect_string(cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
                "too many resources requested for launch");
  expect_string(cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
                "no kernel image is available for execution on the device");
  EXPECT(cudaErrorInvalidValue == 1 && cudaErrorMemoryAllocation == 2 &&
             cudaErrorInvalidConfiguration == 9 && cudaErrorInvalidMemcpyDirection == 21,
         "unexpected error enum values");

  int runtime = 0;
  CHECK(cudaRuntimeGetVersion(&runtime));
  if (runtime >= 13000) bad_config_error = cudaErrorInvalidValue;
  printf("error_paths: CUDA runtime %d.%d: invalid launch configurations should give %s\n",
         runtime / 1000, runtime % 1000 / 10, cudaGetErrorName(bad_config_error));

  const int n = 1000;
  int *dbuf;
  CHECK(cudaMalloc(&dbuf, n * sizeof(int)));
  expect_code(cudaGetLastError(), cudaSuccess, "cudaGetLastError with no error pending");

  // Invalid launch configurations.
  bad_launch(dim3(1), dim3(2048), dbuf, "block of 2048 threads");
  bad_launch(dim3(1), dim3(1024, 2), dbuf, "block of 1024x2 threads");
  bad_launch(dim3(1), dim3(1, 1, 65), dbuf, "blockDim.z = 65");
  bad_launch(dim3(1), dim3(1025), dbuf, "blockDim.x = 1025");
  bad_launch(dim3(1, 65536), dim3(32), dbuf, "gridDim.y = 65536");
  bad_launch(dim3(1, 1, 65536), dim3(32), dbuf, "gridDim.z = 65536");
  bad_launch(dim3(0), dim3(32), dbuf, "gridDim.x = 0");
  bad_launch(dim3(1), dim3(0), dbuf, "blockDim.x = 0");

  // The failed launches did not run: the buffer is still what we wrote.
  std::vector<int> host(n, -5);
  CHECK(cudaMemcpy(dbuf, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  bad_launch(dim3(4), dim3(2048), dbuf, "block of 2048 threads (again)");
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(host.data(), dbuf, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(host[i] == -5, "buffer[%d] = %d after failed launch", i, host[i]);

  // Bad cudaMemcpy calls.
  expect_code(cudaMemcpy(dbuf, host.data(), n * sizeof(int), (cudaMemcpyKind)42),
              cudaErrorInvalidMemcpyDirection, "cudaMemcpy with kind 42");
  expect_code(cudaGetLastError(), cudaErrorInvalidMemcpyDirection,
              "cudaGetLastError after cudaMemcpy with kind 42");
  expect_code(cudaMemcpy(nullptr, host.data(), n * sizeof(int), cudaMemcpyHostToDevice),
              cudaErrorInvalidValue, "cudaMemcpy to a null device pointer");
  expect_code(cudaMemcpy(host.data(), nullptr, n * sizeof(int), cudaMemcpyDeviceToHost),
              cudaErrorInvalidValue, "cudaMemcpy from a null device pointer");
  expect_code(cudaGetLastError(), cudaErrorInvalidValue, "cudaGetLastError after null cudaMemcpy");
  expect_code(cudaGetLastError(), cudaSuccess, "cudaGetLastError after it was read");

  // An allocation that cannot succeed.
  void *huge = nullptr;
  expect_code(cudaMalloc(&huge, (size_t)1 << 62), cudaErrorMemoryAllocation, "cudaMalloc(2^62)");
  expect_code(cudaGetLastError(), cudaErrorMemoryAllocation, "cudaGetLastError after failed cudaMalloc");

  // Errors were not sticky: a valid launch still works.
  iota<<<ceil_div(n, 1024), 1024>>>(dbuf, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(host.data(), dbuf, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(host[i] == i * 3 + 1, "iota[%d] = %d", i, host[i]);
  CHECK(cudaFree(dbuf));
  return ctest_finish();
}
