/* Checks shared by the driver-API host programs of ctests/host (C99, C11 and C++17):
 * CHECK stops the program at a call that fails, EXPECT at a call whose code is not the
 * one wanted; expect() and expect_code() count mismatches in `failures` and go on, for
 * programs that report every mismatch before they fail. */
#ifndef CTESTS_HOST_CHECK_H
#define CTESTS_HOST_CHECK_H

#include <cuda.h>

#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    CUresult check_rc_ = (call);                                                      \
    if (check_rc_ != CUDA_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, (int)check_rc_); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

#define EXPECT(call, code)                                                                          \
  do {                                                                                              \
    CUresult expect_rc_ = (call);                                                                   \
    if (expect_rc_ != (code)) {                                                                     \
      fprintf(stderr, "%s:%d: %s -> %d, expected %d\n", __FILE__, __LINE__, #call, (int)expect_rc_, \
              (int)(code));                                                                         \
      exit(1);                                                                                      \
    }                                                                                               \
  } while (0)

static int failures = 0;

static inline void expect(int ok, const char *what) {
  if (!ok) {
    printf("mismatch: %s\n", what);
    failures++;
  }
}

static inline void expect_code(CUresult got, CUresult want, const char *what) {
  if (got != want) {
    printf("mismatch: %s: got %d, want %d\n", what, (int)got, (int)want);
    failures++;
  }
}

#endif
