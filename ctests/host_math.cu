// CUDA's math functions that the C library lacks are callable from host code in a .cu
// file too (CUDA Math API): min/max over mixed integer types, rsqrt, rcbrt, sinpi, cospi,
// normcdf, erfcx, erfinv, erfcinv, normcdfinv. Each is evaluated on the host
// and on the device and compared with values computed with mpmath (40 digits).
#define CTEST_NAME "host_math"
#include "ctest.h"

#include <cmath>

struct Case {
  const char *name;
  double want;
};
static const Case kCases[] = {
    {"rsqrt(2)", 0.707106781186547524401},
    {"rcbrt(27)", 0.333333333333333333333},
    {"sinpi(1/6)", 0.5},
    {"cospi(1/3)", 0.5},
    {"normcdf(1)", 0.841344746068542948585},
    {"erfcx(2)", 0.255395676310505743865},
    {"erfinv(0.5)", 0.476936276204469873381},
    {"erfcinv(1e-10)", 4.57282496738948527874},
    {"normcdfinv(0.975)", 1.95996398454005423552},
    {"rsqrtf(16)", 0.25},
};
constexpr int kN = sizeof(kCases) / sizeof(kCases[0]);

__host__ __device__ void evaluate(double *out) {
  out[0] = rsqrt(2.0);
  out[1] = rcbrt(27.0);
  out[2] = sinpi(1.0 / 6.0);
  out[3] = cospi(1.0 / 3.0);
  out[4] = normcdf(1.0);
  out[5] = erfcx(2.0);
  out[6] = erfinv(0.5);
  out[7] = erfcinv(1e-10);
  out[8] = normcdfinv(0.975);
  out[9] = rsqrtf(16.0f);
}

__global__ void on_device(double *out) { evaluate(out); }

int main() {
  double host[kN], *device;
  evaluate(host);
  CHECK(cudaMallocManaged(&device, sizeof(host)));
  on_device<<<1, 1>>>(device);
  CHECK_LAUNCH();
  for (int i = 0; i < kN; ++i) {
    double tol = 4e-15 * fabs(kCases[i].want) + 1e-300;
    EXPECT(fabs(host[i] - kCases[i].want) <= tol, "host %s = %.17g, want %.17g", kCases[i].name, host[i], kCases[i].want);
    EXPECT(fabs(device[i] - kCases[i].want) <= tol, "device %s = %.17g, want %.17g", kCases[i].name, device[i], kCases[i].want);
  }
  // min/max of mixed types convert as C's usual arithmetic conversions do.
  EXPECT(min(3, 7) == 3 && max(-2, 5u) == 0xfffffffeu && min(2.5f, 1.0) == 1.0, "min/max overloads");
  EXPECT(umin(3u, 9u) == 3u && llmax(-4ll, 5ll) == 5 && ullmin(1ull, 2ull) == 1ull, "umin/llmax/ullmin");
  return ctest_finish();
}
