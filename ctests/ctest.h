// Shared helpers for the ctests: CUDA test programs written for this project.
// Every program checks its GPU results against an independent host
// computation, prints "PASS <name>" and exits 0, or prints what mismatched
// and exits 1.  Only the CUDA runtime API is used.
#pragma once

#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifndef CTEST_NAME
#error "define CTEST_NAME before including ctest.h"
#endif

// Abort the test on any unexpected CUDA error.
#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t ctest_err_ = (call);                                             \
    if (ctest_err_ != cudaSuccess) {                                             \
      printf("FAIL %s: %s:%d: %s returned %d (%s)\n", CTEST_NAME, __FILE__,      \
             __LINE__, #call, (int)ctest_err_, cudaGetErrorString(ctest_err_)); \
      fflush(stdout);                                                            \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

// After a <<<>>> launch: check the launch itself, then wait for completion.
#define CHECK_LAUNCH()                 \
  do {                                 \
    CHECK(cudaGetLastError());         \
    CHECK(cudaDeviceSynchronize());    \
  } while (0)

static long ctest_failures = 0;

// Record one mismatch; only the first 20 are printed.
static void ctest_fail(const char *fmt, ...) {
  if (ctest_failures < 20) {
    va_list ap;
    va_start(ap, fmt);
    printf("mismatch: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
  }
  ctest_failures++;
}

// Check a condition, recording a mismatch with the given message otherwise.
#define EXPECT(cond, ...)       \
  do {                          \
    if (!(cond)) {              \
      ctest_fail(__VA_ARGS__);  \
    }                           \
  } while (0)

// Print the verdict and return the process exit code.
static int ctest_finish() {
  if (ctest_failures != 0) {
    printf("FAIL %s: %ld mismatches\n", CTEST_NAME, ctest_failures);
    fflush(stdout);
    return 1;
  }
  printf("PASS %s\n", CTEST_NAME);
  fflush(stdout);
  return 0;
}

// Small deterministic generator (64-bit LCG with an output mix) so that the
// host and every run see the same inputs.
struct CtestRng {
  uint64_t s;
  explicit CtestRng(uint64_t seed) : s(seed * 2862933555777941757ull + 3037000493ull) {}
  uint64_t next64() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t x = s;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 29;
    return x;
  }
  uint32_t next32() { return (uint32_t)(next64() >> 16); }
  // Uniform-ish integer in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return lo + (int64_t)(next64() % (uint64_t)(hi - lo + 1));
  }
};

static inline unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }
