// The reserved shared memory registers (PTX ISA, "Special Registers":
// %reserved_smem_offset_begin, _end, _cap and _<2>), which cooperative groups read on
// sm_80 and later for the scratch of multi-warp tiles (cooperative_groups/details/
// memory.h: %reserved_smem_offset_1). The region lies in the CTA's shared window, holds at
// least the 288 bytes CG expects at offset 1, and does not overlap the kernel's own
// __shared__ variables.
#define CTEST_NAME "reserved_smem"
#include "ctest.h"

static const int kThreads = 128, kBlocks = 4;

__device__ unsigned sreg_begin() {
  unsigned v;
  asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v));
  return v;
}
__device__ unsigned sreg_end() {
  unsigned v;
  asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v));
  return v;
}
__device__ unsigned sreg_cap() {
  unsigned v;
  asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v));
  return v;
}
__device__ unsigned sreg_one() {
  unsigned v;
  asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(v));
  return v;
}

// out[block * 8 + k]: begin, end, cap, offset_1, then (thread 0) the number of words of
// the kernel's own array and of the reserved scratch that did not read back as written.
__global__ void reserved_kernel(unsigned *out) {
  __shared__ unsigned own[kThreads];
  unsigned begin = sreg_begin(), end = sreg_end(), cap = sreg_cap(), one = sreg_one();
  unsigned *scratch = (unsigned *)__cvta_shared_to_generic(one);
  unsigned t = threadIdx.x;
  own[t] = 0x1000u * blockIdx.x + t;
  if (t < 72) scratch[t] = 0x5000u * (blockIdx.x + 1) + t;  // 288 bytes
  __syncthreads();
  if (t == 0) {
    unsigned bad_own = 0, bad_scratch = 0;
    for (unsigned k = 0; k < kThreads; k++) bad_own += own[k] != 0x1000u * blockIdx.x + k;
    for (unsigned k = 0; k < 72; k++) bad_scratch += scratch[k] != 0x5000u * (blockIdx.x + 1) + k;
    unsigned *o = out + blockIdx.x * 8;
    o[0] = begin;
    o[1] = end;
    o[2] = cap;
    o[3] = one;
    o[4] = bad_own;
    o[5] = bad_scratch;
  }
}

int main() {
  unsigned *d_out, h_out[kBlocks * 8];
  CHECK(cudaMalloc(&d_out, sizeof(h_out)));
  CHECK(cudaMemset(d_out, 0xff, sizeof(h_out)));
  reserved_kernel<<<kBlocks, kThreads>>>(d_out);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
  for (int b = 0; b < kBlocks; b++) {
    const unsigned *o = h_out + b * 8;
    unsigned begin = o[0], end = o[1], cap = o[2], one = o[3];
    EXPECT(end > begin && end - begin == cap, "block %d: begin %u end %u cap %u", b, begin, end, cap);
    EXPECT(one >= begin && one + 288 <= end, "block %d: offset_1 %u outside [%u, %u - 288]", b, one, begin, end);
    EXPECT(o[4] == 0, "block %d: %u words of the kernel's own __shared__ array overwritten", b, o[4]);
    EXPECT(o[5] == 0, "block %d: %u words of the reserved scratch lost", b, o[5]);
  }
  CHECK(cudaFree(d_out));
  return ctest_finish();
}
