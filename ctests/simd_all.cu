// Every SIMD-within-a-word intrinsic (CUDA Math API, "SIMD Intrinsics") over the same inputs:
// edge values of each lane width and pseudo-random words. Each function's outputs are folded
// into an FNV-1a hash, compared with the hash NVIDIA's H100/H200 gave for the same inputs
// (the table below; `SIMD_ALL_PRINT=1` prints this machine's table in the same form).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CTEST_NAME "simd_all"
#include "ctest.h"

#define SIMD_BINARY(X)                                                                                           \
  X(__vabsdiffs2) X(__vabsdiffs4) X(__vabsdiffu2) X(__vabsdiffu4) X(__vadd2) X(__vadd4) X(__vaddss2) X(__vaddss4)  \
  X(__vaddus2) X(__vaddus4) X(__vavgs2) X(__vavgs4) X(__vavgu2) X(__vavgu4) X(__vcmpeq2) X(__vcmpeq4) X(__vcmpges2) \
  X(__vcmpges4) X(__vcmpgeu2) X(__vcmpgeu4) X(__vcmpgts2) X(__vcmpgts4) X(__vcmpgtu2) X(__vcmpgtu4) X(__vcmples2)   \
  X(__vcmples4) X(__vcmpleu2) X(__vcmpleu4) X(__vcmplts2) X(__vcmplts4) X(__vcmpltu2) X(__vcmpltu4) X(__vcmpne2)    \
  X(__vcmpne4) X(__vhaddu2) X(__vhaddu4) X(__vmaxs2) X(__vmaxs4) X(__vmaxu2) X(__vmaxu4) X(__vmins2) X(__vmins4)    \
  X(__vminu2) X(__vminu4) X(__vsads2) X(__vsads4) X(__vsadu2) X(__vsadu4) X(__vseteq2) X(__vseteq4) X(__vsetges2)   \
  X(__vsetges4) X(__vsetgeu2) X(__vsetgeu4) X(__vsetgts2) X(__vsetgts4) X(__vsetgtu2) X(__vsetgtu4) X(__vsetles2)  \
  X(__vsetles4) X(__vsetleu2) X(__vsetleu4) X(__vsetlts2) X(__vsetlts4) X(__vsetltu2) X(__vsetltu4) X(__vsetne2)    \
  X(__vsetne4) X(__vsub2) X(__vsub4) X(__vsubss2) X(__vsubss4) X(__vsubus2) X(__vsubus4)
#define SIMD_UNARY(X) X(__vabs2) X(__vabs4) X(__vabsss2) X(__vabsss4) X(__vneg2) X(__vneg4) X(__vnegss2) X(__vnegss4)

#define COUNT_ONE(f) +1
constexpr int kBinary = 0 SIMD_BINARY(COUNT_ONE);
constexpr int kUnary = 0 SIMD_UNARY(COUNT_ONE);
constexpr int kFunctions = kBinary + kUnary;
constexpr int kEdges = 16;
constexpr int kPairs = kEdges * kEdges + 4096;

#define NAME_ONE(f) #f,
static const char *kNames[kFunctions] = {SIMD_BINARY(NAME_ONE) SIMD_UNARY(NAME_ONE)};

// Hashes from NVIDIA's hardware (nvcc 13.0, sm_90), in kNames order.
static const unsigned long long kExpected[kFunctions] = {
#include "simd_all_expected.inc"
};

__global__ void run_all(const unsigned *a, const unsigned *b, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kPairs) return;
  unsigned x = a[i], y = b[i];
  int k = 0;
#define APPLY_BINARY(f) out[(k++) * kPairs + i] = f(x, y);
#define APPLY_UNARY(f) out[(k++) * kPairs + i] = f(x);
  SIMD_BINARY(APPLY_BINARY)
  SIMD_UNARY(APPLY_UNARY)
}

int main() {
  static const unsigned edges[kEdges] = {0u,          1u,          0x7f7f7f7fu, 0x80808080u, 0xffffffffu, 0x7fff7fffu,
                                         0x80008000u, 0x00ff00ffu, 0xff00ff00u, 0x01800180u, 0x7f807f80u, 0xfe01fe01u,
                                         0x12345678u, 0x9abcdef0u, 0x80017ffeu, 0x00010000u};
  unsigned *a, *b, *out;
  CHECK(cudaMallocManaged(&a, kPairs * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&b, kPairs * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&out, (size_t)kFunctions * kPairs * sizeof(unsigned)));
  for (int i = 0; i < kEdges * kEdges; ++i) {
    a[i] = edges[i / kEdges];
    b[i] = edges[i % kEdges];
  }
  unsigned long long s = 0x9e3779b97f4a7c15ull;
  for (int i = kEdges * kEdges; i < kPairs; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    a[i] = (unsigned)s;
    b[i] = (unsigned)(s >> 32);
  }
  run_all<<<(kPairs + 127) / 128, 128>>>(a, b, out);
  CHECK(cudaDeviceSynchronize());
  bool print = getenv("SIMD_ALL_PRINT") != nullptr;
  int failures = 0;
  for (int f = 0; f < kFunctions; ++f) {
    unsigned long long h = 0xcbf29ce484222325ull;
    for (int i = 0; i < kPairs; ++i) {
      h ^= out[(size_t)f * kPairs + i];
      h *= 0x100000001b3ull;
    }
    if (print) printf("0x%016llxull, // %s\n", h, kNames[f]);
    if (!print && h != kExpected[f]) {
      printf("FAIL %s: hash 0x%016llx, NVIDIA's 0x%016llx\n", kNames[f], h, kExpected[f]);
      ++failures;
    }
  }
  if (failures) return 1;
  if (!print) printf("%d functions, %d input pairs each\nPASS simd_all\n", kFunctions, kPairs);
  return 0;
}
