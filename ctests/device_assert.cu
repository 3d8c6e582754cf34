// Device-side assert: a failing assert prints CUDA's message to stderr
//   file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `expr` failed.
// and the kernel ends with cudaErrorAssert, which is sticky; asserts that hold do
// nothing. The failing case runs in a child process (its context is unusable after the
// error) whose stderr the parent reads.
#define CTEST_NAME "device_assert"
#include "ctest.h"

#include <assert.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

__global__ void check_kernel(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(in[i] == 0);
  out[i] = 1;
}

static const int kBlocks = 4, kThreads = 64;

// Runs check_kernel with in[bad] = 1 (no element bad when bad < 0); returns what the
// final synchronization reported.
static cudaError_t run(int bad, int *ones) {
  const int n = kBlocks * kThreads;
  int host[n];
  for (int i = 0; i < n; i++) host[i] = (i == bad);
  int *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, n * sizeof(int)));
  check_kernel<<<kBlocks, kThreads>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) {
    CHECK(cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost));
    *ones = 0;
    for (int i = 0; i < n; i++) *ones += host[i];
  }
  return e;
}

int main() {
  // The failing case, in a child whose stderr comes back through a pipe.
  int fds[2];
  if (pipe(fds) != 0) {
    printf("FAIL %s: pipe failed\n", CTEST_NAME);
    return 1;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    int ones = 0;
    cudaError_t e = run(1 * kThreads + 3, &ones);  // block 1, thread 3
    int code = 0;
    if (e != cudaErrorAssert) {
      printf("    child: cudaDeviceSynchronize gave %d (%s), want cudaErrorAssert\n", (int)e, cudaGetErrorName(e));
      code = 1;
    }
    void *p = nullptr;
    cudaError_t again = cudaMalloc(&p, 16);
    if (again != cudaErrorAssert) {
      printf("    child: cudaMalloc after the assert gave %d (%s), want cudaErrorAssert (sticky)\n", (int)again,
             cudaGetErrorName(again));
      code = 1;
    }
    fflush(stdout);
    fflush(stderr);
    _exit(code);
  }
  close(fds[1]);
  std::string err;
  char buf[4096];
  ssize_t got;
  while ((got = read(fds[0], buf, sizeof(buf))) > 0) err.append(buf, (size_t)got);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the asserting child failed (status %#x)", status);

  const std::string want = "block: [1,0,0], thread: [3,0,0] Assertion `in[i] == 0` failed.";
  size_t at = err.find(want);
  EXPECT(at != std::string::npos, "stderr lacks \"%s\"; it was:\n%s", want.c_str(), err.c_str());
  if (at != std::string::npos) {
    // The line starts with file:line: function:
    size_t start = err.rfind('\n', at);
    start = start == std::string::npos ? 0 : start + 1;
    std::string prefix = err.substr(start, at - start);
    EXPECT(prefix.find("device_assert.cu:16: ") != std::string::npos &&
               prefix.find("check_kernel(const int *, int *): ") != std::string::npos,
           "assert message prefix \"%s\"", prefix.c_str());
    EXPECT(err.find("Assertion", at + want.size()) == std::string::npos, "more than one assert message:\n%s",
           err.c_str());
  }

  // Asserts that hold change nothing.
  int ones = 0;
  CHECK(run(-1, &ones));
  EXPECT(ones == kBlocks * kThreads, "%d of %d threads ran past a passing assert", ones, kBlocks * kThreads);
  return ctest_finish();
}
