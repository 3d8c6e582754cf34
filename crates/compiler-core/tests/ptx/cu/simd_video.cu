// Source of ../simd_video.ptx (nvcc -ptx -arch=sm_80): CUDA's SIMD intrinsics (nvcc
// emits vabsdiff4 and vabsdiff2.add for some) and the video instructions of
// PTX ISA 9.7.17 written as inline assembly, with selectors, masks and negation.
__global__ void simd_video(unsigned *o, const unsigned *a, const unsigned *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i], r;
  o[0] = __vadd2(x, y) ^ __vabsdiffu4(x, y) ^ __vsadu2(x, y) ^ __vsads4(x, y);
  asm("vadd2.s32.s32.u32.sat %0.h1, %1.h21, %2.h03, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(o[1]));
  o[1] = r;
  asm("vmin4.s32.u32.s32.add %0.b31, %1.b7150, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(o[2]));
  o[2] = r;
  asm("vset4.u32.s32.ge %0, %1, %2.b0123, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(o[3]));
  o[3] = r;
  asm("vabsdiff.s32.s32.u32.sat %0.h0, %1.b2, %2.h1, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(o[4]));
  o[4] = r;
  asm("vmax.u32.s32.s32.sat.min %0, %1.b1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(o[5]));
  o[5] = r;
  asm("vshr.s32.s32.u32.wrap.add %0, %1.h1, %2.b0, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(o[6]));
  o[6] = r;
  asm("vset.u32.s32.lt %0.b2, %1, %2.h0, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(o[7]));
  o[7] = r;
  asm("vmad.s32.s32.u32.sat.shr15 %0, -%1.h0, %2.h1, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(o[8]));
  o[8] = r;
  asm("vmad.u32.u32.u32.po %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(o[9]));
  o[9] = r;
}
