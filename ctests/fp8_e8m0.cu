// e8m0 scale factors (cuda_fp8.h): |x| to a power of two toward zero or up, 2^-127..2^127,
// NaN code 0xFF. Expected codes worked out by hand: code = floor(log2|x|) + 127 (rounding
// toward zero) or ceil (rounding up), clipped to 0 below, 0xFE or 0xFF above; on host and
// device, from float, double and bfloat16, and back to bfloat16. A double beyond float's
// range rounded toward zero is float's largest value (code 254, even without saturation),
// as NVIDIA's header computes it.
#define CTEST_NAME "fp8_e8m0"
#include "ctest.h"

#include <cuda_fp8.h>

struct Case {
  double x;
  __nv_saturation_t sat;
  cudaRoundMode round;
  unsigned char want;
};
static const Case kCases[] = {
    {1.0, __NV_SATFINITE, cudaRoundZero, 127},    {1.0, __NV_SATFINITE, cudaRoundPosInf, 127},
    {3.0, __NV_SATFINITE, cudaRoundZero, 128},    {3.0, __NV_SATFINITE, cudaRoundPosInf, 129},
    {-3.0, __NV_NOSAT, cudaRoundPosInf, 129},     {0.3, __NV_SATFINITE, cudaRoundPosInf, 126},
    {0.3, __NV_SATFINITE, cudaRoundZero, 125},    {0.0, __NV_SATFINITE, cudaRoundPosInf, 0},
    {0x1p-127, __NV_NOSAT, cudaRoundPosInf, 0},   {0x1.8p-127, __NV_NOSAT, cudaRoundPosInf, 1},
    {0x1p-140, __NV_NOSAT, cudaRoundZero, 0},     {0x1p127, __NV_NOSAT, cudaRoundZero, 254},
    {0x1.2p127, __NV_NOSAT, cudaRoundPosInf, 255}, {0x1.2p127, __NV_SATFINITE, cudaRoundPosInf, 254},
    {1e300, __NV_SATFINITE, cudaRoundZero, 254},  {1e300, __NV_NOSAT, cudaRoundZero, 254},
    {1e300, __NV_NOSAT, cudaRoundPosInf, 255},   {1e300, __NV_SATFINITE, cudaRoundPosInf, 254},
};
constexpr int kN = sizeof(kCases) / sizeof(kCases[0]);

__host__ __device__ void convert(const Case *c, unsigned char *from_double, unsigned char *from_float) {
  for (int i = 0; i < kN; ++i) {
    from_double[i] = __nv_cvt_double_to_e8m0(c[i].x, c[i].sat, c[i].round);
    // Cases whose value a float keeps exactly (1e300 is beyond float: infinity).
    from_float[i] = __nv_cvt_float_to_e8m0((float)c[i].x, c[i].sat, c[i].round);
  }
}

__global__ void on_device(const Case *c, unsigned char *d, unsigned char *f) { convert(c, d, f); }

int main() {
  Case *cases;
  unsigned char *dev;
  CHECK(cudaMallocManaged(&cases, sizeof(kCases)));
  CHECK(cudaMallocManaged(&dev, 2 * kN));
  memcpy(cases, kCases, sizeof(kCases));
  on_device<<<1, 1>>>(cases, dev, dev + kN);
  CHECK_LAUNCH();
  unsigned char host[2 * kN];
  convert(kCases, host, host + kN);
  for (int i = 0; i < kN; ++i) {
    const Case &c = kCases[i];
    // float(1e300) is infinity: saturated to 0xFE, else NaN; 2^-140 becomes float exactly.
    unsigned char want_float = c.x == 1e300 ? (c.sat == __NV_SATFINITE ? 0xFE : 0xFF) : c.want;  // infinity
    EXPECT(host[i] == c.want && dev[i] == c.want, "double %a: host %u device %u, want %u", c.x, host[i], dev[i], c.want);
    EXPECT(host[kN + i] == want_float && dev[kN + i] == want_float, "float %a: host %u device %u, want %u", c.x,
           host[kN + i], dev[kN + i], want_float);
  }
  // Back to bfloat16: 2^(code-127); code 0 is the subnormal 2^-127, 0xFF the quiet NaN.
  EXPECT(__nv_cvt_e8m0_to_bf16raw(127).x == 0x3F80 && __nv_cvt_e8m0_to_bf16raw(0).x == 0x0040 &&
             __nv_cvt_e8m0_to_bf16raw(0xFF).x == 0x7FFF && __nv_cvt_e8m0_to_bf16raw(254).x == 0x7F00,
         "e8m0 to bfloat16");
  __nv_bfloat16_raw b;
  b.x = 0x4040;  // 3.0
  EXPECT(__nv_cvt_bfloat16raw_to_e8m0(b, __NV_SATFINITE, cudaRoundPosInf) == 129, "bfloat16 3.0 rounded up");
  EXPECT((float)__nv_fp8_e8m0(0.3f) == 0.5f && __nv_fp8_e8m0(5).__x == 130, "the class rounds up");
  return ctest_finish();
}
