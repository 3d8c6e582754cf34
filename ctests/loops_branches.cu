// Data-dependent control flow: Collatz step counts (a while loop whose trip
// count differs per thread), a switch, nested loops with break/continue,
// early returns, and divergent if/else chains within a warp.
#define CTEST_NAME "loops_branches"
#include "ctest.h"

#include <vector>

__device__ __host__ int collatz_steps(unsigned long long v) {
  int steps = 0;
  while (v != 1) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    steps++;
  }
  return steps;
}

__global__ void collatz(int *steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long v = (unsigned long long)i + 1;
  int s = 0;
  while (v != 1) {
    if (v & 1)
      v = 3 * v + 1;
    else
      v >>= 1;
    s++;
  }
  steps[i] = s;
}

__global__ void branches(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  if (x < -500) {  // early exit path
    out[i] = -1;
    return;
  }
  int acc = 0;
  switch (x & 7) {
    case 0: acc = x * 2; break;
    case 1: acc = x + 100;  // fallthrough
    case 2: acc += 7; break;
    case 3:
    case 4: acc = -x; break;
    case 5: acc = x ^ 0x5a5a; break;
    default: acc = x % 13; break;
  }
  // Nested loops with data-dependent bounds, continue and break.
  for (int a = 0; a < (x & 15); a++) {
    if (a % 3 == 1) continue;
    for (int b = a; b < 20; b++) {
      if ((a * b + x) % 11 == 0) break;
      acc += a - b;
    }
  }
  // Divergent if/else chain.
  if (x % 3 == 0)
    acc *= 3;
  else if (x % 3 == 1)
    acc -= 1000;
  else
    acc = acc / 2 + 1;
  // Do-while with data-dependent exit.
  int y = x < 0 ? -x : x;
  do {
    acc += y & 1;
    y >>= 1;
  } while (y > 0);
  out[i] = acc;
}

static int h_branches(int x) {
  if (x < -500) return -1;
  int acc = 0;
  int r = x & 7;
  if (r == 0) acc = x * 2;
  else if (r == 1) acc = x + 100 + 7;
  else if (r == 2) acc = 7;
  else if (r == 3 || r == 4) acc = -x;
  else if (r == 5) acc = x ^ 0x5a5a;
  else acc = x % 13;
  for (int a = 0; a < (x & 15); a++) {
    if (a % 3 == 1) continue;
    for (int b = a; b < 20; b++) {
      if ((a * b + x) % 11 == 0) break;
      acc += a - b;
    }
  }
  if (x % 3 == 0) acc *= 3;
  else if (x % 3 == 1) acc -= 1000;
  else acc = acc / 2 + 1;
  int y = x < 0 ? -x : x;
  do {
    acc += y & 1;
    y >>= 1;
  } while (y > 0);
  return acc;
}

int main() {
  const int n = 100000;
  int *dsteps;
  CHECK(cudaMalloc(&dsteps, n * sizeof(int)));
  collatz<<<ceil_div(n, 128), 128>>>(dsteps, n);
  CHECK_LAUNCH();
  std::vector<int> steps(n);
  CHECK(cudaMemcpy(steps.data(), dsteps, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dsteps));
  int longest = 0;
  for (int i = 0; i < n; i++) {
    int want = collatz_steps((unsigned long long)i + 1);
    EXPECT(steps[i] == want, "collatz(%d) = %d steps, want %d", i + 1, steps[i], want);
    if (steps[i] > steps[longest]) longest = i;
  }
  printf("loops_branches: longest Collatz chain below %d starts at %d (%d steps)\n", n + 1,
         longest + 1, steps[longest]);

  const int m = 50000;
  std::vector<int> in(m), out(m);
  CtestRng rng(5);
  for (int i = 0; i < m; i++) in[i] = (int)rng.range(-1000, 100000);
  int *din, *dout;
  CHECK(cudaMalloc(&din, m * sizeof(int)));
  CHECK(cudaMalloc(&dout, m * sizeof(int)));
  CHECK(cudaMemcpy(din, in.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  branches<<<ceil_div(m, 64), 64>>>(din, dout, m);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), dout, m * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; i++)
    EXPECT(out[i] == h_branches(in[i]), "branches(%d) = %d, want %d", in[i], out[i], h_branches(in[i]));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return ctest_finish();
}
