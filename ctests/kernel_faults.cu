// Faulting kernels: `trap` gives cudaErrorLaunchFailure and a store to an unmapped
// address cudaErrorIllegalAddress, in kernels with and without __syncthreads. The launch
// itself succeeds; the error shows at the next synchronization, is sticky (later calls
// report it too), and the process keeps running.
//
// A sticky error leaves the process's CUDA context unusable, so each case runs in a
// child process (forked before the parent touches CUDA) that exits 0 when everything it
// saw was as expected.
#define CTEST_NAME "kernel_faults"
#include "ctest.h"

#include <sys/wait.h>
#include <unistd.h>

__global__ void trap_kernel(int *out, int who) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
  if (i == who) asm volatile("trap;");
}

__global__ void trap_after_barrier(int *out, int who) {
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i;
  __syncthreads();
  if (i == who) asm volatile("trap;");
  out[i] = s[blockDim.x - 1 - threadIdx.x];
}

__global__ void bad_store(int *out, int *bad, int who) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
  if (i == who) *bad = 1;
}

__global__ void bad_store_after_barrier(int *out, int *bad, int who) {
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i;
  __syncthreads();
  if (i == who) *bad = s[0];
  out[i] = s[threadIdx.x];
}

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 7;
}

static int child_failures = 0;

static void child_expect(bool ok, const char *what, cudaError_t got) {
  if (!ok) {
    printf("    child: %s: got %d (%s)\n", what, (int)got, cudaGetErrorName(got));
    child_failures++;
  }
}

// One case, in the child: launch the faulting kernel and check what the API reports.
static int run_case(int which) {
  const int blocks = 16, threads = 256, n = blocks * threads;
  int *out;
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  int *bad = (int *)(uintptr_t)0x10;  // never mapped, on a GPU or a CPU
  cudaError_t want;
  switch (which) {
    case 0:
      trap_kernel<<<blocks, threads>>>(out, 5 * threads + 3);
      want = cudaErrorLaunchFailure;
      break;
    case 1:
      trap_after_barrier<<<blocks, threads>>>(out, 2 * threads + 200);
      want = cudaErrorLaunchFailure;
      break;
    case 2:
      bad_store<<<blocks, threads>>>(out, bad, 9 * threads + 17);
      want = cudaErrorIllegalAddress;
      break;
    default:
      bad_store_after_barrier<<<blocks, threads>>>(out, bad, threads + 1);
      want = cudaErrorIllegalAddress;
      break;
  }
  cudaError_t launch = cudaGetLastError();
  child_expect(launch == cudaSuccess || launch == want, "the launch itself", launch);
  cudaError_t e = cudaDeviceSynchronize();
  child_expect(e == want, "cudaDeviceSynchronize after the fault", e);
  // Sticky: later calls report the same error.
  e = cudaDeviceSynchronize();
  child_expect(e == want, "a second cudaDeviceSynchronize", e);
  int *more = nullptr;
  e = cudaMalloc(&more, 64);
  child_expect(e == want, "cudaMalloc after the fault", e);
  fill<<<1, 32>>>(out, 32);
  e = cudaGetLastError();
  child_expect(e == want, "a launch after the fault", e);
  int host[4];
  e = cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  child_expect(e == want, "cudaMemcpy after the fault", e);
  // The process is alive and its own code keeps working.
  volatile long sum = 0;
  for (int i = 0; i < 1000; i++) sum += i;
  child_expect(sum == 499500, "host code after the fault", cudaSuccess);
  return child_failures == 0 ? 0 : 1;
}

int main() {
  const char *names[] = {"trap", "trap after __syncthreads", "store to an unmapped address",
                         "store to an unmapped address after __syncthreads"};
  for (int which = 0; which < 4; which++) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
      printf("FAIL %s: fork failed\n", CTEST_NAME);
      return 1;
    }
    if (pid == 0) _exit(run_case(which));
    int status = 0;
    waitpid(pid, &status, 0);
    bool exited = WIFEXITED(status);
    EXPECT(exited && WEXITSTATUS(status) == 0, "case '%s': child %s %d", names[which],
           exited ? "exited with" : "was killed by signal", exited ? WEXITSTATUS(status) : WTERMSIG(status));
  }

  // The parent's own CUDA context is unaffected by the children's faults.
  int *d;
  CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  fill<<<1, 64>>>(d, 64);
  CHECK_LAUNCH();
  int h[64];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) EXPECT(h[i] == 7, "fill[%d] = %d", i, h[i]);
  CHECK(cudaFree(d));
  return ctest_finish();
}
