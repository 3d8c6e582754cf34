/*
 * mma.h (ours): the warp matrix API, nvcuda::wmma (CUDA C++ Programming Guide, "Warp
 * Matrix Functions"), for the element types and shapes of compute capability 8.0:
 *
 *   __half               m16n16k16, m32n8k16, m8n32k16   __half or float accumulators
 *   __nv_bfloat16        m16n16k16, m32n8k16, m8n32k16   float accumulators
 *   precision::tf32      m16n16k8                        float accumulators
 *   double               m8n8k4                          double accumulators
 *   signed/unsigned char m16n16k16, m32n8k16, m8n32k16   int accumulators
 *   experimental::precision::s4, u4   m8n8k32            int accumulators
 *   experimental::precision::b1       m8n8k128           int accumulators (bmma_sync)
 *
 * Every operation is one PTX instruction on the fragment's registers (PTX ISA 9.7.14
 * "Warp Level Matrix Multiply-Accumulate Instructions": wmma.load, wmma.store, wmma.mma),
 * with generic addresses, so fragments load from and store to global and shared memory
 * alike. How many registers a fragment has, and so its x[] and num_elements, is PTX ISA
 * 9.7.14, "Matrix Fragments for WMMA"; which element of the matrix each x[i] holds is
 * unspecified there and in the Programming Guide, so only element-wise work on x[] is
 * portable. A shape and type combination outside this list is a compile error.
 *
 * Device code, C++ only. The host pass of a CUDA compilation sees the same declarations
 * (kernels that use fragments must parse there), but the instructions only in device
 * passes (__CUDA_ARCH__).
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __CUDA_MMA_H__
#define __CUDA_MMA_H__

#if defined(__cplusplus) && (defined(__CUDA__) || defined(__CUDACC_RTC__))

#include "cuda_fp16.h"
#include "cuda_bf16.h"

#define __NV_WMMA_FN __device__ __forceinline__

/* The instructions exist in device passes only; the host pass keeps the bodies (which
 * it parses but never emits) free of NVPTX register constraints. */
#if defined(__CUDA_ARCH__)
#define __NV_WMMA_ASM(...) asm volatile(__VA_ARGS__)
#else
#define __NV_WMMA_ASM(...) ((void)0)
#endif

/* Register operand lists: 32-bit registers ("r") and 64-bit floating-point ones ("d"). */
#define __NV_WMMA_OUT1(r) "=r"(r[0])
#define __NV_WMMA_OUT2(r) "=r"(r[0]), "=r"(r[1])
#define __NV_WMMA_OUT4(r) "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
#define __NV_WMMA_OUT8(r) "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
#define __NV_WMMA_IN1(r) "r"(r[0])
#define __NV_WMMA_IN2(r) "r"(r[0]), "r"(r[1])
#define __NV_WMMA_IN4(r) "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
#define __NV_WMMA_IN8(r) "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(r[6]), "r"(r[7])
#define __NV_WMMA_OUTD1(r) "=d"(r[0])
#define __NV_WMMA_OUTD2(r) "=d"(r[0]), "=d"(r[1])
#define __NV_WMMA_IND1(r) "d"(r[0])
#define __NV_WMMA_IND2(r) "d"(r[0]), "d"(r[1])

namespace nvcuda {
namespace wmma {

/* Fragment uses and A/B layouts (Programming Guide, "Warp Matrix Functions",
 * "Description"). */
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};

/* The memory layout of an accumulator tile, given when it is loaded or stored. */
enum layout_t { mem_row_major, mem_col_major };

/* tf32 (Programming Guide, "Alternate Floating Point"): fragments hold floats, which
 * programs round to tf32 with __float_to_tf32 after loading, as the guide asks. */
namespace precision {
struct tf32 {};
}

/* Sub-byte operations (Programming Guide, "Sub-byte Operations"). */
namespace experimental {
namespace precision {
struct u4 {};
struct s4 {};
struct b1 {};
}  // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}  // namespace experimental

/* element_type<T>::storage_element_type: what x[] holds for element type T. Sub-byte
 * elements are packed, 8 (s4, u4) or 32 (b1) to a 32-bit storage element, the first in
 * the lowest bits. */
template <class T> struct element_type { typedef T storage_element_type; };
template <> struct element_type<precision::tf32> { typedef float storage_element_type; };
template <> struct element_type<experimental::precision::u4> { typedef unsigned storage_element_type; };
template <> struct element_type<experimental::precision::s4> { typedef int storage_element_type; };
template <> struct element_type<experimental::precision::b1> { typedef unsigned storage_element_type; };

/* x[] and num_elements of one lane's part of a fragment: Elements elements of the
 * matrix in Storage storage elements (the same count except for sub-byte types). */
template <class T, int Elements, int Storage = Elements>
struct __nv_wmma_frag_base {
  typedef typename ::nvcuda::wmma::element_type<T>::storage_element_type storage_element_type;
  typedef storage_element_type element_type;
  enum { num_elements = Elements, num_storage_elements = Storage };
  storage_element_type x[Storage];
};

template <class T> struct __nv_wmma_unsupported { enum { value = 0 }; };

/* The fragment of each supported use, shape and element type: the elements per lane
 * follow from the register counts of PTX ISA 9.7.14, "Matrix Fragments for WMMA" (__half
 * and __nv_bfloat16: two per 32-bit register, signed/unsigned char: four, s4/u4: eight,
 * b1: 32; float, tf32, int, double: one). The f16 A and B fragments are 8 registers for
 * every shape. */
template <class Use, int m, int n, int k, class T> struct __nv_wmma_frag {
  static_assert(__nv_wmma_unsupported<T>::value,
                "nvcuda::wmma: no fragment of this use, shape and element type (Programming Guide, "
                "\"Warp Matrix Functions\", \"Element Types and Matrix Sizes\"; supported here: f16 and bf16 "
                "m16n16k16/m32n8k16/m8n32k16, tf32 m16n16k8, double m8n8k4, s8/u8 m16n16k16/m32n8k16/m8n32k16, "
                "s4/u4 m8n8k32, b1 m8n8k128)");
};
#define __NV_WMMA_FRAG(USE, M, N, K, T, ELEMENTS, STORAGE) \
  template <> struct __nv_wmma_frag<USE, M, N, K, T> { typedef __nv_wmma_frag_base<T, ELEMENTS, STORAGE> type; };
#define __NV_WMMA_FRAG_16(M, N, K, BF16_A, BF16_B, I8_A, I8_B) \
  __NV_WMMA_FRAG(matrix_a, M, N, K, __half, 16, 16)            \
  __NV_WMMA_FRAG(matrix_b, M, N, K, __half, 16, 16)            \
  __NV_WMMA_FRAG(accumulator, M, N, K, __half, 8, 8)           \
  __NV_WMMA_FRAG(accumulator, M, N, K, float, 8, 8)            \
  __NV_WMMA_FRAG(matrix_a, M, N, K, __nv_bfloat16, BF16_A, BF16_A) \
  __NV_WMMA_FRAG(matrix_b, M, N, K, __nv_bfloat16, BF16_B, BF16_B) \
  __NV_WMMA_FRAG(matrix_a, M, N, K, signed char, I8_A, I8_A)   \
  __NV_WMMA_FRAG(matrix_b, M, N, K, signed char, I8_B, I8_B)   \
  __NV_WMMA_FRAG(matrix_a, M, N, K, unsigned char, I8_A, I8_A) \
  __NV_WMMA_FRAG(matrix_b, M, N, K, unsigned char, I8_B, I8_B) \
  __NV_WMMA_FRAG(accumulator, M, N, K, int, 8, 8)
__NV_WMMA_FRAG_16(16, 16, 16, 8, 8, 8, 8)
__NV_WMMA_FRAG_16(32, 8, 16, 16, 4, 16, 4)
__NV_WMMA_FRAG_16(8, 32, 16, 4, 16, 4, 16)
__NV_WMMA_FRAG(matrix_a, 16, 16, 8, precision::tf32, 4, 4)
__NV_WMMA_FRAG(matrix_b, 16, 16, 8, precision::tf32, 4, 4)
__NV_WMMA_FRAG(accumulator, 16, 16, 8, float, 8, 8)
__NV_WMMA_FRAG(matrix_a, 8, 8, 4, double, 1, 1)
__NV_WMMA_FRAG(matrix_b, 8, 8, 4, double, 1, 1)
__NV_WMMA_FRAG(accumulator, 8, 8, 4, double, 2, 2)
__NV_WMMA_FRAG(matrix_a, 8, 8, 32, experimental::precision::s4, 8, 1)
__NV_WMMA_FRAG(matrix_b, 8, 8, 32, experimental::precision::s4, 8, 1)
__NV_WMMA_FRAG(matrix_a, 8, 8, 32, experimental::precision::u4, 8, 1)
__NV_WMMA_FRAG(matrix_b, 8, 8, 32, experimental::precision::u4, 8, 1)
__NV_WMMA_FRAG(accumulator, 8, 8, 32, int, 2, 2)
__NV_WMMA_FRAG(matrix_a, 8, 8, 128, experimental::precision::b1, 32, 1)
__NV_WMMA_FRAG(matrix_b, 8, 8, 128, experimental::precision::b1, 32, 1)
__NV_WMMA_FRAG(accumulator, 8, 8, 128, int, 2, 2)
#undef __NV_WMMA_FRAG_16
#undef __NV_WMMA_FRAG

/* fragment<Use, m, n, k, T, Layout>: Layout is row_major or col_major for matrix_a and
 * matrix_b (it picks the load instruction), and left out (void) for accumulators, whose
 * layout is given when they are loaded and stored. */
template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment : public __nv_wmma_frag<Use, m, n, k, T>::type {};

/* Between x[] and the registers an instruction takes: the same bytes. */
template <class F, class R, int N>
__NV_WMMA_FN void __nv_wmma_pack(R (&__r)[N], const F &__f) {
  static_assert(sizeof(__r) == sizeof(__f.x), "nvcuda::wmma: fragment and registers differ in size");
  __builtin_memcpy(__r, __f.x, sizeof(__r));
}
template <class F, class R, int N>
__NV_WMMA_FN void __nv_wmma_unpack(F &__f, const R (&__r)[N]) {
  static_assert(sizeof(__r) == sizeof(__f.x), "nvcuda::wmma: fragment and registers differ in size");
  __builtin_memcpy(__f.x, __r, sizeof(__r));
}

/* The storage element fill_fragment writes: the value itself, or for sub-byte types the
 * value's low bits repeated over the storage element. */
template <class T> struct __nv_wmma_fill {
  template <class S> static __NV_WMMA_FN S get(const S &__v) { return __v; }
};
template <> struct __nv_wmma_fill<experimental::precision::s4> {
  static __NV_WMMA_FN int get(int __v) { return (int)(((unsigned)__v & 15u) * 0x11111111u); }
};
template <> struct __nv_wmma_fill<experimental::precision::u4> {
  static __NV_WMMA_FN unsigned get(unsigned __v) { return (__v & 15u) * 0x11111111u; }
};
template <> struct __nv_wmma_fill<experimental::precision::b1> {
  static __NV_WMMA_FN unsigned get(unsigned __v) { return (__v & 1u) ? 0xffffffffu : 0u; }
};

/* fill_fragment: every element of the fragment set to v. */
template <class Use, int m, int n, int k, class T, class Layout>
__NV_WMMA_FN void fill_fragment(fragment<Use, m, n, k, T, Layout> &__f,
                                const typename fragment<Use, m, n, k, T, Layout>::storage_element_type &__v) {
  typename fragment<Use, m, n, k, T, Layout>::storage_element_type __s = __nv_wmma_fill<T>::get(__v);
  for (int __i = 0; __i < fragment<Use, m, n, k, T, Layout>::num_storage_elements; __i++) __f.x[__i] = __s;
}

/* __float_to_tf32 (Programming Guide, "Alternate Floating Point"): x rounded to tf32's 10
 * fraction bits, to nearest with ties away from zero (cvt.rna.tf32.f32, PTX ISA "cvt"),
 * as a float whose low 13 bits are zero. */
__NV_WMMA_FN float __float_to_tf32(float __x) {
  unsigned __r = 0;
  __NV_WMMA_ASM("cvt.rna.tf32.f32 %0, %1;" : "=r"(__r) : "f"(__x));
  return __builtin_bit_cast(float, __r);
}

/* load_matrix_sync(a, mptr, ldm[, layout]) (Programming Guide, "Warp Matrix Functions"):
 * every lane of the warp loads its part of the tile at mptr, whose rows (row-major) or
 * columns (column-major) are ldm elements apart; mptr must be 256-bit aligned and ldm a
 * multiple of 16 bytes' worth of elements (8 for __half, 4 for float, 128 for b1, ...).
 * matrix_a and matrix_b fragments take the layout of their type; accumulators take it
 * as an argument. Sub-byte tiles are addressed as void * with ldm in elements.
 *
 * store_matrix_sync(mptr, d, ldm, layout) stores an accumulator the same way.
 *
 * mma_sync(d, a, b, c[, satf]) computes D = A * B + C for the whole warp; d may be c.
 * satf (integer types only) clamps the results to the int range (PTX .satfinite). */
/* ---- loads of matrix_a and matrix_b (PTX ISA 9.7.14, "wmma.load") ---- */
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 16, __half, row_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 16, __half, col_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m16n16k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 16, __nv_bfloat16, row_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m16n16k16.bf16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 16, __nv_bfloat16, col_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m16n16k16.bf16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 16, signed char, row_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m16n16k16.s8 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 16, signed char, col_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m16n16k16.s8 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 16, unsigned char, row_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m16n16k16.u8 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 16, unsigned char, col_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m16n16k16.u8 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 16, __half, row_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m16n16k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 16, __half, col_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m16n16k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 16, __nv_bfloat16, row_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m16n16k16.bf16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 16, __nv_bfloat16, col_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m16n16k16.bf16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 16, signed char, row_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m16n16k16.s8 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 16, signed char, col_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m16n16k16.s8 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 16, unsigned char, row_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m16n16k16.u8 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 16, unsigned char, col_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m16n16k16.u8 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 32, 8, 16, __half, row_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m32n8k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 32, 8, 16, __half, col_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m32n8k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 32, 8, 16, __nv_bfloat16, row_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m32n8k16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 32, 8, 16, __nv_bfloat16, col_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m32n8k16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 32, 8, 16, signed char, row_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m32n8k16.s8 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 32, 8, 16, signed char, col_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m32n8k16.s8 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 32, 8, 16, unsigned char, row_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m32n8k16.u8 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 32, 8, 16, unsigned char, col_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m32n8k16.u8 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 32, 8, 16, __half, row_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m32n8k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 32, 8, 16, __half, col_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m32n8k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 32, 8, 16, __nv_bfloat16, row_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m32n8k16.bf16 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 32, 8, 16, __nv_bfloat16, col_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m32n8k16.bf16 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 32, 8, 16, signed char, row_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m32n8k16.s8 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 32, 8, 16, signed char, col_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m32n8k16.s8 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 32, 8, 16, unsigned char, row_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m32n8k16.u8 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 32, 8, 16, unsigned char, col_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m32n8k16.u8 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 32, 16, __half, row_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m8n32k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 32, 16, __half, col_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m8n32k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 32, 16, __nv_bfloat16, row_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m8n32k16.bf16 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 32, 16, __nv_bfloat16, col_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[2];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m8n32k16.bf16 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 32, 16, signed char, row_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m8n32k16.s8 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 32, 16, signed char, col_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m8n32k16.s8 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 32, 16, unsigned char, row_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m8n32k16.u8 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 32, 16, unsigned char, col_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m8n32k16.u8 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 32, 16, __half, row_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m8n32k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 32, 16, __half, col_major> &__f, const __half *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m8n32k16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 32, 16, __nv_bfloat16, row_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m8n32k16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 32, 16, __nv_bfloat16, col_major> &__f, const __nv_bfloat16 *__p, unsigned __ldm) {
  unsigned __r[8];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m8n32k16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 32, 16, signed char, row_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m8n32k16.s8 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 32, 16, signed char, col_major> &__f, const signed char *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m8n32k16.s8 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 32, 16, unsigned char, row_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m8n32k16.u8 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 32, 16, unsigned char, col_major> &__f, const unsigned char *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m8n32k16.u8 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 8, precision::tf32, row_major> &__f, const float *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m16n16k8.tf32 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 16, 16, 8, precision::tf32, col_major> &__f, const float *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m16n16k8.tf32 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 8, 4, double, row_major> &__f, const double *__p, unsigned __ldm) {
  double __r[1];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m8n8k4.f64 {%0}, [%1], %2;" : __NV_WMMA_OUTD1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 8, 4, double, col_major> &__f, const double *__p, unsigned __ldm) {
  double __r[1];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.col.m8n8k4.f64 {%0}, [%1], %2;" : __NV_WMMA_OUTD1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 8, precision::tf32, row_major> &__f, const float *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m16n16k8.tf32 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 16, 16, 8, precision::tf32, col_major> &__f, const float *__p, unsigned __ldm) {
  unsigned __r[4];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m16n16k8.tf32 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 8, 4, double, row_major> &__f, const double *__p, unsigned __ldm) {
  double __r[1];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.row.m8n8k4.f64 {%0}, [%1], %2;" : __NV_WMMA_OUTD1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 8, 4, double, col_major> &__f, const double *__p, unsigned __ldm) {
  double __r[1];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m8n8k4.f64 {%0}, [%1], %2;" : __NV_WMMA_OUTD1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 8, 32, experimental::precision::s4, row_major> &__f, const void *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m8n8k32.s4 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 8, 32, experimental::precision::s4, col_major> &__f, const void *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m8n8k32.s4 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 8, 32, experimental::precision::u4, row_major> &__f, const void *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m8n8k32.u4 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 8, 32, experimental::precision::u4, col_major> &__f, const void *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m8n8k32.u4 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_a, 8, 8, 128, experimental::precision::b1, row_major> &__f, const void *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.a.sync.aligned.row.m8n8k128.b1 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void load_matrix_sync(fragment<matrix_b, 8, 8, 128, experimental::precision::b1, col_major> &__f, const void *__p, unsigned __ldm) {
  unsigned __r[1];
  __NV_WMMA_ASM("wmma.load.b.sync.aligned.col.m8n8k128.b1 {%0}, [%1], %2;" : __NV_WMMA_OUT1(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}

/* ---- loads of accumulators and stores (wmma.load.c, wmma.store.d); the layout is a
 * run-time argument, so both instructions are there ---- */
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 16, 16, 16, __half> &__f, const __half *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[4];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m16n16k16.f16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m16n16k16.f16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(__half *__p, const fragment<accumulator, 16, 16, 16, __half> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[4];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m16n16k16.f16 [%0], {%1, %2, %3, %4}, %5;" : : "l"(__p), __NV_WMMA_IN4(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m16n16k16.f16 [%0], {%1, %2, %3, %4}, %5;" : : "l"(__p), __NV_WMMA_IN4(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 16, 16, 16, float> &__f, const float *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m16n16k16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m16n16k16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(float *__p, const fragment<accumulator, 16, 16, 16, float> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m16n16k16.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m16n16k16.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 16, 16, 16, int> &__f, const int *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m16n16k16.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m16n16k16.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(int *__p, const fragment<accumulator, 16, 16, 16, int> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m16n16k16.s32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m16n16k16.s32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 32, 8, 16, __half> &__f, const __half *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[4];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m32n8k16.f16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m32n8k16.f16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(__half *__p, const fragment<accumulator, 32, 8, 16, __half> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[4];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m32n8k16.f16 [%0], {%1, %2, %3, %4}, %5;" : : "l"(__p), __NV_WMMA_IN4(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m32n8k16.f16 [%0], {%1, %2, %3, %4}, %5;" : : "l"(__p), __NV_WMMA_IN4(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 32, 8, 16, float> &__f, const float *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m32n8k16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m32n8k16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(float *__p, const fragment<accumulator, 32, 8, 16, float> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m32n8k16.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m32n8k16.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 32, 8, 16, int> &__f, const int *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m32n8k16.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m32n8k16.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(int *__p, const fragment<accumulator, 32, 8, 16, int> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m32n8k16.s32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m32n8k16.s32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 8, 32, 16, __half> &__f, const __half *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[4];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m8n32k16.f16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m8n32k16.f16 {%0, %1, %2, %3}, [%4], %5;" : __NV_WMMA_OUT4(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(__half *__p, const fragment<accumulator, 8, 32, 16, __half> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[4];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m8n32k16.f16 [%0], {%1, %2, %3, %4}, %5;" : : "l"(__p), __NV_WMMA_IN4(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m8n32k16.f16 [%0], {%1, %2, %3, %4}, %5;" : : "l"(__p), __NV_WMMA_IN4(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 8, 32, 16, float> &__f, const float *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m8n32k16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m8n32k16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(float *__p, const fragment<accumulator, 8, 32, 16, float> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m8n32k16.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m8n32k16.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 8, 32, 16, int> &__f, const int *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m8n32k16.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m8n32k16.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(int *__p, const fragment<accumulator, 8, 32, 16, int> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m8n32k16.s32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m8n32k16.s32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 16, 16, 8, float> &__f, const float *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m16n16k8.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m16n16k8.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;" : __NV_WMMA_OUT8(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(float *__p, const fragment<accumulator, 16, 16, 8, float> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[8];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m16n16k8.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m16n16k8.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;" : : "l"(__p), __NV_WMMA_IN8(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 8, 8, 4, double> &__f, const double *__p, unsigned __ldm, layout_t __l) {
  double __r[2];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m8n8k4.f64 {%0, %1}, [%2], %3;" : __NV_WMMA_OUTD2(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m8n8k4.f64 {%0, %1}, [%2], %3;" : __NV_WMMA_OUTD2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(double *__p, const fragment<accumulator, 8, 8, 4, double> &__f, unsigned __ldm, layout_t __l) {
  double __r[2];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m8n8k4.f64 [%0], {%1, %2}, %3;" : : "l"(__p), __NV_WMMA_IND2(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m8n8k4.f64 [%0], {%1, %2}, %3;" : : "l"(__p), __NV_WMMA_IND2(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 8, 8, 32, int> &__f, const int *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[2];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m8n8k32.s32 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m8n8k32.s32 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(int *__p, const fragment<accumulator, 8, 8, 32, int> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[2];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m8n8k32.s32 [%0], {%1, %2}, %3;" : : "l"(__p), __NV_WMMA_IN2(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m8n8k32.s32 [%0], {%1, %2}, %3;" : : "l"(__p), __NV_WMMA_IN2(__r), "r"(__ldm) : "memory");
}
__NV_WMMA_FN void load_matrix_sync(fragment<accumulator, 8, 8, 128, int> &__f, const int *__p, unsigned __ldm, layout_t __l) {
  unsigned __r[2];
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.row.m8n8k128.s32 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.load.c.sync.aligned.col.m8n8k128.s32 {%0, %1}, [%2], %3;" : __NV_WMMA_OUT2(__r) : "l"(__p), "r"(__ldm) : "memory");
  __nv_wmma_unpack(__f, __r);
}
__NV_WMMA_FN void store_matrix_sync(int *__p, const fragment<accumulator, 8, 8, 128, int> &__f, unsigned __ldm, layout_t __l) {
  unsigned __r[2];
  __nv_wmma_pack(__r, __f);
  if (__l == mem_row_major)
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.row.m8n8k128.s32 [%0], {%1, %2}, %3;" : : "l"(__p), __NV_WMMA_IN2(__r), "r"(__ldm) : "memory");
  else
    __NV_WMMA_ASM("wmma.store.d.sync.aligned.col.m8n8k128.s32 [%0], {%1, %2}, %3;" : : "l"(__p), __NV_WMMA_IN2(__r), "r"(__ldm) : "memory");
}

/* ---- mma_sync (PTX ISA 9.7.14, "wmma.mma"): D = A * B + C ---- */
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, __half> &__d, const fragment<matrix_a, 16, 16, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, row_major> &__b, const fragment<accumulator, 16, 16, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, __half> &__d, const fragment<matrix_a, 16, 16, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, col_major> &__b, const fragment<accumulator, 16, 16, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, __half> &__d, const fragment<matrix_a, 16, 16, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, row_major> &__b, const fragment<accumulator, 16, 16, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, __half> &__d, const fragment<matrix_a, 16, 16, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, col_major> &__b, const fragment<accumulator, 16, 16, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, __half> &__d, const fragment<matrix_a, 16, 16, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, row_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, __half> &__d, const fragment<matrix_a, 16, 16, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, col_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, __half> &__d, const fragment<matrix_a, 16, 16, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, row_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, __half> &__d, const fragment<matrix_a, 16, 16, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, col_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, row_major> &__b, const fragment<accumulator, 16, 16, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, col_major> &__b, const fragment<accumulator, 16, 16, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, row_major> &__b, const fragment<accumulator, 16, 16, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, col_major> &__b, const fragment<accumulator, 16, 16, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, row_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, col_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, row_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __half, col_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __nv_bfloat16, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __nv_bfloat16, row_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[4], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __nv_bfloat16, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __nv_bfloat16, col_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[4], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __nv_bfloat16, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __nv_bfloat16, row_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[4], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, float> &__d, const fragment<matrix_a, 16, 16, 16, __nv_bfloat16, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, __nv_bfloat16, col_major> &__b, const fragment<accumulator, 16, 16, 16, float> &__c) {
  unsigned __ra[4], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, int> &__d, const fragment<matrix_a, 16, 16, 16, signed char, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, signed char, row_major> &__b, const fragment<accumulator, 16, 16, 16, int> &__c, bool __satf = false) {
  unsigned __ra[2], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, int> &__d, const fragment<matrix_a, 16, 16, 16, signed char, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, signed char, col_major> &__b, const fragment<accumulator, 16, 16, 16, int> &__c, bool __satf = false) {
  unsigned __ra[2], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, int> &__d, const fragment<matrix_a, 16, 16, 16, signed char, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, signed char, row_major> &__b, const fragment<accumulator, 16, 16, 16, int> &__c, bool __satf = false) {
  unsigned __ra[2], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, int> &__d, const fragment<matrix_a, 16, 16, 16, signed char, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, signed char, col_major> &__b, const fragment<accumulator, 16, 16, 16, int> &__c, bool __satf = false) {
  unsigned __ra[2], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, int> &__d, const fragment<matrix_a, 16, 16, 16, unsigned char, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, unsigned char, row_major> &__b, const fragment<accumulator, 16, 16, 16, int> &__c, bool __satf = false) {
  unsigned __ra[2], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, int> &__d, const fragment<matrix_a, 16, 16, 16, unsigned char, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, unsigned char, col_major> &__b, const fragment<accumulator, 16, 16, 16, int> &__c, bool __satf = false) {
  unsigned __ra[2], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, int> &__d, const fragment<matrix_a, 16, 16, 16, unsigned char, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, unsigned char, row_major> &__b, const fragment<accumulator, 16, 16, 16, int> &__c, bool __satf = false) {
  unsigned __ra[2], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 16, int> &__d, const fragment<matrix_a, 16, 16, 16, unsigned char, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 16, unsigned char, col_major> &__b, const fragment<accumulator, 16, 16, 16, int> &__c, bool __satf = false) {
  unsigned __ra[2], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, __half> &__d, const fragment<matrix_a, 32, 8, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, row_major> &__b, const fragment<accumulator, 32, 8, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m32n8k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, __half> &__d, const fragment<matrix_a, 32, 8, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, col_major> &__b, const fragment<accumulator, 32, 8, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m32n8k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, __half> &__d, const fragment<matrix_a, 32, 8, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, row_major> &__b, const fragment<accumulator, 32, 8, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m32n8k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, __half> &__d, const fragment<matrix_a, 32, 8, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, col_major> &__b, const fragment<accumulator, 32, 8, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m32n8k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, __half> &__d, const fragment<matrix_a, 32, 8, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, row_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m32n8k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, __half> &__d, const fragment<matrix_a, 32, 8, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, col_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m32n8k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, __half> &__d, const fragment<matrix_a, 32, 8, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, row_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m32n8k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, __half> &__d, const fragment<matrix_a, 32, 8, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, col_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m32n8k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, row_major> &__b, const fragment<accumulator, 32, 8, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m32n8k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, col_major> &__b, const fragment<accumulator, 32, 8, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m32n8k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, row_major> &__b, const fragment<accumulator, 32, 8, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m32n8k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, col_major> &__b, const fragment<accumulator, 32, 8, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m32n8k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, row_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m32n8k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, col_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m32n8k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, row_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m32n8k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __half, col_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m32n8k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __nv_bfloat16, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __nv_bfloat16, row_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m32n8k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17}, {%18, %19, %20, %21, %22, %23, %24, %25};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __nv_bfloat16, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __nv_bfloat16, col_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m32n8k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17}, {%18, %19, %20, %21, %22, %23, %24, %25};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __nv_bfloat16, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __nv_bfloat16, row_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m32n8k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17}, {%18, %19, %20, %21, %22, %23, %24, %25};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, float> &__d, const fragment<matrix_a, 32, 8, 16, __nv_bfloat16, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, __nv_bfloat16, col_major> &__b, const fragment<accumulator, 32, 8, 16, float> &__c) {
  unsigned __ra[8], __rb[2], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m32n8k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17}, {%18, %19, %20, %21, %22, %23, %24, %25};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN2(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, int> &__d, const fragment<matrix_a, 32, 8, 16, signed char, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, signed char, row_major> &__b, const fragment<accumulator, 32, 8, 16, int> &__c, bool __satf = false) {
  unsigned __ra[4], __rb[1], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m32n8k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m32n8k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, int> &__d, const fragment<matrix_a, 32, 8, 16, signed char, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, signed char, col_major> &__b, const fragment<accumulator, 32, 8, 16, int> &__c, bool __satf = false) {
  unsigned __ra[4], __rb[1], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m32n8k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m32n8k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, int> &__d, const fragment<matrix_a, 32, 8, 16, signed char, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, signed char, row_major> &__b, const fragment<accumulator, 32, 8, 16, int> &__c, bool __satf = false) {
  unsigned __ra[4], __rb[1], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m32n8k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m32n8k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, int> &__d, const fragment<matrix_a, 32, 8, 16, signed char, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, signed char, col_major> &__b, const fragment<accumulator, 32, 8, 16, int> &__c, bool __satf = false) {
  unsigned __ra[4], __rb[1], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m32n8k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m32n8k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, int> &__d, const fragment<matrix_a, 32, 8, 16, unsigned char, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, unsigned char, row_major> &__b, const fragment<accumulator, 32, 8, 16, int> &__c, bool __satf = false) {
  unsigned __ra[4], __rb[1], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m32n8k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m32n8k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, int> &__d, const fragment<matrix_a, 32, 8, 16, unsigned char, row_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, unsigned char, col_major> &__b, const fragment<accumulator, 32, 8, 16, int> &__c, bool __satf = false) {
  unsigned __ra[4], __rb[1], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m32n8k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m32n8k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, int> &__d, const fragment<matrix_a, 32, 8, 16, unsigned char, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, unsigned char, row_major> &__b, const fragment<accumulator, 32, 8, 16, int> &__c, bool __satf = false) {
  unsigned __ra[4], __rb[1], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m32n8k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m32n8k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 32, 8, 16, int> &__d, const fragment<matrix_a, 32, 8, 16, unsigned char, col_major> &__a,
                          const fragment<matrix_b, 32, 8, 16, unsigned char, col_major> &__b, const fragment<accumulator, 32, 8, 16, int> &__c, bool __satf = false) {
  unsigned __ra[4], __rb[1], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m32n8k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m32n8k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, __half> &__d, const fragment<matrix_a, 8, 32, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, row_major> &__b, const fragment<accumulator, 8, 32, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n32k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, __half> &__d, const fragment<matrix_a, 8, 32, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, col_major> &__b, const fragment<accumulator, 8, 32, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n32k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, __half> &__d, const fragment<matrix_a, 8, 32, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, row_major> &__b, const fragment<accumulator, 8, 32, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n32k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, __half> &__d, const fragment<matrix_a, 8, 32, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, col_major> &__b, const fragment<accumulator, 8, 32, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n32k16.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, __half> &__d, const fragment<matrix_a, 8, 32, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, row_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n32k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, __half> &__d, const fragment<matrix_a, 8, 32, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, col_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n32k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, __half> &__d, const fragment<matrix_a, 8, 32, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, row_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n32k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, __half> &__d, const fragment<matrix_a, 8, 32, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, col_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[4];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n32k16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19}, {%20, %21, %22, %23, %24, %25, %26, %27};" : __NV_WMMA_OUT4(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, row_major> &__b, const fragment<accumulator, 8, 32, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n32k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, col_major> &__b, const fragment<accumulator, 8, 32, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n32k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, row_major> &__b, const fragment<accumulator, 8, 32, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n32k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, col_major> &__b, const fragment<accumulator, 8, 32, 16, __half> &__c) {
  unsigned __ra[8], __rb[8], __rc[4], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n32k16.f32.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN4(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, row_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n32k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __half, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, col_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n32k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, row_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n32k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __half, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __half, col_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[8], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n32k16.f32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23}, {%24, %25, %26, %27, %28, %29, %30, %31};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN8(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __nv_bfloat16, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __nv_bfloat16, row_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[2], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n32k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13, %14, %15, %16, %17}, {%18, %19, %20, %21, %22, %23, %24, %25};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __nv_bfloat16, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __nv_bfloat16, col_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[2], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n32k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13, %14, %15, %16, %17}, {%18, %19, %20, %21, %22, %23, %24, %25};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __nv_bfloat16, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __nv_bfloat16, row_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[2], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n32k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13, %14, %15, %16, %17}, {%18, %19, %20, %21, %22, %23, %24, %25};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, float> &__d, const fragment<matrix_a, 8, 32, 16, __nv_bfloat16, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, __nv_bfloat16, col_major> &__b, const fragment<accumulator, 8, 32, 16, float> &__c) {
  unsigned __ra[2], __rb[8], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n32k16.f32.bf16.bf16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13, %14, %15, %16, %17}, {%18, %19, %20, %21, %22, %23, %24, %25};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN2(__ra), __NV_WMMA_IN8(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, int> &__d, const fragment<matrix_a, 8, 32, 16, signed char, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, signed char, row_major> &__b, const fragment<accumulator, 8, 32, 16, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n32k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n32k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, int> &__d, const fragment<matrix_a, 8, 32, 16, signed char, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, signed char, col_major> &__b, const fragment<accumulator, 8, 32, 16, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n32k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n32k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, int> &__d, const fragment<matrix_a, 8, 32, 16, signed char, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, signed char, row_major> &__b, const fragment<accumulator, 8, 32, 16, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n32k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n32k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, int> &__d, const fragment<matrix_a, 8, 32, 16, signed char, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, signed char, col_major> &__b, const fragment<accumulator, 8, 32, 16, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n32k16.s32.s8.s8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n32k16.s32.s8.s8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, int> &__d, const fragment<matrix_a, 8, 32, 16, unsigned char, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, unsigned char, row_major> &__b, const fragment<accumulator, 8, 32, 16, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n32k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n32k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, int> &__d, const fragment<matrix_a, 8, 32, 16, unsigned char, row_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, unsigned char, col_major> &__b, const fragment<accumulator, 8, 32, 16, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n32k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n32k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, int> &__d, const fragment<matrix_a, 8, 32, 16, unsigned char, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, unsigned char, row_major> &__b, const fragment<accumulator, 8, 32, 16, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n32k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n32k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 32, 16, int> &__d, const fragment<matrix_a, 8, 32, 16, unsigned char, col_major> &__a,
                          const fragment<matrix_b, 8, 32, 16, unsigned char, col_major> &__b, const fragment<accumulator, 8, 32, 16, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n32k16.s32.u8.u8.s32.satfinite {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n32k16.s32.u8.u8.s32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8}, {%9, %10, %11, %12}, {%13, %14, %15, %16, %17, %18, %19, %20};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 8, float> &__d, const fragment<matrix_a, 16, 16, 8, precision::tf32, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 8, precision::tf32, row_major> &__b, const fragment<accumulator, 16, 16, 8, float> &__c) {
  unsigned __ra[4], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32.tf32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 8, float> &__d, const fragment<matrix_a, 16, 16, 8, precision::tf32, row_major> &__a,
                          const fragment<matrix_b, 16, 16, 8, precision::tf32, col_major> &__b, const fragment<accumulator, 16, 16, 8, float> &__c) {
  unsigned __ra[4], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 8, float> &__d, const fragment<matrix_a, 16, 16, 8, precision::tf32, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 8, precision::tf32, row_major> &__b, const fragment<accumulator, 16, 16, 8, float> &__c) {
  unsigned __ra[4], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m16n16k8.f32.tf32.tf32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 16, 16, 8, float> &__d, const fragment<matrix_a, 16, 16, 8, precision::tf32, col_major> &__a,
                          const fragment<matrix_b, 16, 16, 8, precision::tf32, col_major> &__b, const fragment<accumulator, 16, 16, 8, float> &__c) {
  unsigned __ra[4], __rb[4], __rc[8], __rd[8];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m16n16k8.f32.tf32.tf32.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19, %20, %21, %22, %23};" : __NV_WMMA_OUT8(__rd) : __NV_WMMA_IN4(__ra), __NV_WMMA_IN4(__rb), __NV_WMMA_IN8(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 8, 4, double> &__d, const fragment<matrix_a, 8, 8, 4, double, row_major> &__a,
                          const fragment<matrix_b, 8, 8, 4, double, row_major> &__b, const fragment<accumulator, 8, 8, 4, double> &__c) {
  double __ra[1], __rb[1], __rc[2], __rd[2];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.row.m8n8k4.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" : __NV_WMMA_OUTD2(__rd) : __NV_WMMA_IND1(__ra), __NV_WMMA_IND1(__rb), __NV_WMMA_IND2(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 8, 4, double> &__d, const fragment<matrix_a, 8, 8, 4, double, row_major> &__a,
                          const fragment<matrix_b, 8, 8, 4, double, col_major> &__b, const fragment<accumulator, 8, 8, 4, double> &__c) {
  double __ra[1], __rb[1], __rc[2], __rd[2];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" : __NV_WMMA_OUTD2(__rd) : __NV_WMMA_IND1(__ra), __NV_WMMA_IND1(__rb), __NV_WMMA_IND2(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 8, 4, double> &__d, const fragment<matrix_a, 8, 8, 4, double, col_major> &__a,
                          const fragment<matrix_b, 8, 8, 4, double, row_major> &__b, const fragment<accumulator, 8, 8, 4, double> &__c) {
  double __ra[1], __rb[1], __rc[2], __rd[2];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.row.m8n8k4.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" : __NV_WMMA_OUTD2(__rd) : __NV_WMMA_IND1(__ra), __NV_WMMA_IND1(__rb), __NV_WMMA_IND2(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 8, 4, double> &__d, const fragment<matrix_a, 8, 8, 4, double, col_major> &__a,
                          const fragment<matrix_b, 8, 8, 4, double, col_major> &__b, const fragment<accumulator, 8, 8, 4, double> &__c) {
  double __ra[1], __rb[1], __rc[2], __rd[2];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  __NV_WMMA_ASM("wmma.mma.sync.aligned.col.col.m8n8k4.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" : __NV_WMMA_OUTD2(__rd) : __NV_WMMA_IND1(__ra), __NV_WMMA_IND1(__rb), __NV_WMMA_IND2(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 8, 32, int> &__d, const fragment<matrix_a, 8, 8, 32, experimental::precision::s4, row_major> &__a,
                          const fragment<matrix_b, 8, 8, 32, experimental::precision::s4, col_major> &__b, const fragment<accumulator, 8, 8, 32, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[1], __rc[2], __rd[2];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32.satfinite {%0, %1}, {%2}, {%3}, {%4, %5};" : __NV_WMMA_OUT2(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN2(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : __NV_WMMA_OUT2(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN2(__rc));
  __nv_wmma_unpack(__d, __rd);
}
__NV_WMMA_FN void mma_sync(fragment<accumulator, 8, 8, 32, int> &__d, const fragment<matrix_a, 8, 8, 32, experimental::precision::u4, row_major> &__a,
                          const fragment<matrix_b, 8, 8, 32, experimental::precision::u4, col_major> &__b, const fragment<accumulator, 8, 8, 32, int> &__c, bool __satf = false) {
  unsigned __ra[1], __rb[1], __rc[2], __rd[2];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__satf)
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n8k32.s32.u4.u4.s32.satfinite {%0, %1}, {%2}, {%3}, {%4, %5};" : __NV_WMMA_OUT2(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN2(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.sync.aligned.row.col.m8n8k32.s32.u4.u4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : __NV_WMMA_OUT2(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN2(__rc));
  __nv_wmma_unpack(__d, __rd);
}

/* bmma_sync (Programming Guide, "Sub-byte Operations"): D(i, j) = C(i, j) + popc(A row i
 * op B column j) for op XOR or AND (wmma.mma.xor.popc / .and.popc, PTX ISA 9.7.14,
 * "wmma.mma"). */
__NV_WMMA_FN void bmma_sync(fragment<accumulator, 8, 8, 128, int> &__d,
                            const fragment<matrix_a, 8, 8, 128, experimental::precision::b1, row_major> &__a,
                            const fragment<matrix_b, 8, 8, 128, experimental::precision::b1, col_major> &__b,
                            const fragment<accumulator, 8, 8, 128, int> &__c,
                            experimental::bmmaBitOp __op = experimental::bmmaBitOpXOR,
                            experimental::bmmaAccumulateOp __acc = experimental::bmmaAccumulateOpPOPC) {
  (void)__acc; /* population count is the only accumulation there is */
  unsigned __ra[1], __rb[1], __rc[2], __rd[2];
  __nv_wmma_pack(__ra, __a);
  __nv_wmma_pack(__rb, __b);
  __nv_wmma_pack(__rc, __c);
  if (__op == experimental::bmmaBitOpAND)
    __NV_WMMA_ASM("wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%0, %1}, {%2}, {%3}, {%4, %5};"
                  : __NV_WMMA_OUT2(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN2(__rc));
  else
    __NV_WMMA_ASM("wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%0, %1}, {%2}, {%3}, {%4, %5};"
                  : __NV_WMMA_OUT2(__rd) : __NV_WMMA_IN1(__ra), __NV_WMMA_IN1(__rb), __NV_WMMA_IN2(__rc));
  __nv_wmma_unpack(__d, __rd);
}

}  // namespace wmma
}  // namespace nvcuda

#undef __NV_WMMA_OUT1
#undef __NV_WMMA_OUT2
#undef __NV_WMMA_OUT4
#undef __NV_WMMA_OUT8
#undef __NV_WMMA_IN1
#undef __NV_WMMA_IN2
#undef __NV_WMMA_IN4
#undef __NV_WMMA_IN8
#undef __NV_WMMA_OUTD1
#undef __NV_WMMA_OUTD2
#undef __NV_WMMA_IND1
#undef __NV_WMMA_IND2
#undef __NV_WMMA_ASM
#undef __NV_WMMA_FN

#endif /* __cplusplus && (__CUDA__ || __CUDACC_RTC__) */
#endif /* __CUDA_MMA_H__ */
