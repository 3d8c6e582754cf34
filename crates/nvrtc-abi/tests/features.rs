//! The language features of the source documents (shared/seeds 001-003), compiled through
//! the NVRTC C API and, where the CPU device can run them (warp size 32), executed.

mod common;
use common::*;

fn run_i32(ptx: &str, kernel: &str, input: &[i32], out_len: usize, threads: u32) -> Vec<i32> {
    let gpu = Gpu::new();
    let m = gpu.load(ptx.as_bytes());
    let (bi, bo) = (gpu.alloc(input), gpu.alloc(&vec![0i32; out_len]));
    let (mut pi, mut po) = (bi.ptr, bo.ptr);
    gpu.launch(m.func(kernel), (1, 1, 1), (threads, 1, 1), 0, &mut [arg(&mut pi), arg(&mut po)]);
    gpu.read(&bo)
}

fn run_f32(ptx: &str, kernel: &str, out_len: usize, threads: u32) -> Vec<f32> {
    let gpu = Gpu::new();
    let m = gpu.load(ptx.as_bytes());
    let bo = gpu.alloc(&vec![0f32; out_len]);
    let mut po = bo.ptr;
    gpu.launch(m.func(kernel), (1, 1, 1), (threads, 1, 1), 0, &mut [arg(&mut po)]);
    gpu.read(&bo)
}

// ---- 001: [[clang::loop_unroll N]], __builtin_provable, cudaLaneMask_t, __REDSCALE__ ----

#[test]
fn loop_unroll_attribute_with_template_dependent_count() {
    let src = |n: u32| {
        format!(
            r#"template<int UnrollAmount>
            __device__ void example(int* p, int n) {{
                [[clang::loop_unroll UnrollAmount]]
                for (int i = 0; i < n; i++) {{
                    p[i] = p[i] * 2 + i;
                }}
            }}
            extern "C" __global__ void k(const int* in, int* out) {{
                for (int i = 0; i < 37; ++i) out[i] = in[i];
                example<{n}>(out, 37);
            }}"#
        )
    };
    let input: Vec<i32> = (0..37).collect();
    let expect: Vec<i32> = (0..37).map(|i| i * 2 + i).collect();
    let mut ptxs = Vec::new();
    for n in [1, 4, 8] {
        let c = compile_ok(&src(n), &[]);
        assert!(!c.log.contains("warning"), "{}", c.log);
        assert_eq!(run_i32(&c.ptx, "k", &input, 37, 1), expect);
        ptxs.push(c.ptx);
    }
    // The unroll count reaches the optimizer: the loop bodies differ.
    let stores = |p: &str| p.matches("st.global").count();
    assert!(stores(&ptxs[2]) > stores(&ptxs[1]) && stores(&ptxs[1]) > stores(&ptxs[0]), "unrolling not applied");
}

#[test]
fn pragma_unroll_with_constant_expressions() {
    // The CUDA 8 post's example, with the constexpr bound.
    let src = r#"
        constexpr __host__ __device__ int mymin(int x, int y) { return x <= y ? x : y; }
        template <int unrollFactor, typename T, typename Function>
        __device__ void apply_function(T *in, T *out, Function f1, size_t length) {
        #pragma unroll mymin(unrollFactor, 32)
          for (auto i = 0; i < length; ++i) { out[i] += f1(in[i]); }
        }
        template <int unrollFactor, typename T, typename Function>
        __device__ void apply_function2(T *in, T *out, Function f1, size_t length) {
        #pragma unroll (unrollFactor)
          for (auto i = 0; i < length; ++i) { out[i] += f1(in[i]); }
        }
        extern "C" __global__ void dowork(int *in, int *out) {
          auto light_lambda = [] (int in) { return in + 1; };
          auto heavy_lambda = [] (int in) { return in * in; };
          apply_function<64>(in, out, light_lambda, 40);
          apply_function2<4>(in, out, heavy_lambda, 40);
        }"#;
    let c = compile_ok(src, &[]);
    assert!(!c.log.contains("warning"), "{}", c.log);
    let input: Vec<i32> = (0..40).collect();
    let out = run_i32(&c.ptx, "dowork", &input, 40, 1);
    let expect: Vec<i32> = (0..40).map(|i| (i + 1) + i * i).collect();
    assert_eq!(out, expect);
}

#[test]
fn builtin_provable_is_never_a_runtime_branch() {
    let src = r#"
        __device__ int myCleverFunction(int input) {
            if (__builtin_provable(input % 2 == 0)) return 1000 + input;  // fast path
            else return 2000 + input;                                      // general path
        }
        extern "C" __global__ void k(const int* in, int* out) {
            out[0] = myCleverFunction(4);          // provable after inlining
            out[1] = myCleverFunction(in[0]);      // not provable: general path, even though in[0] is even
            out[2] = myCleverFunction(in[0] * 2);  // provable: x*2 is even
            out[3] = myCleverFunction(3);          // provably false: general path
            out[4] = __builtin_provable(in[0] > 100);
        }"#;
    let c = compile_ok(src, &[]);
    let out = run_i32(&c.ptx, "k", &[4], 5, 1);
    assert_eq!(out, vec![1004, 2004, 1008, 2003, 0]);
    // Without optimization nothing is proven.
    let c = compile_ok(src, &["-G"]);
    let out = run_i32(&c.ptx, "k", &[4], 5, 1);
    assert_eq!(out, vec![2004, 2004, 2008, 2003, 0]);
}

const LANEMASK_SRC: &str = r#"
__device__ void take_uint(unsigned int m) { (void)m; }
extern "C" __global__ void k(int* out) {
    int p = threadIdx.x & 1;
    unsigned int narrowed = __ballot_sync(__activemask(), p);        // line 5: narrows
    auto kept = __ballot_sync(__activemask(), p);                      // fine
    cudaLaneMask_t typed = __ballot_sync(__activemask(), p);          // fine
    unsigned int explicit_cast = (unsigned int)__ballot_sync(~0u, p); // fine: explicit
    take_uint(__ballot_sync(~0u, p));                                  // line 9: narrows
    int bits = __popc(__ballot_sync(~0u, p));                          // fine: lane-mask overload
    unsigned int lo = kept & 0xffff;                                   // line 11: narrows (a mask expression)
    out[threadIdx.x] = narrowed + (int)kept + (int)typed + explicit_cast + bits + lo;
}
"#;

#[test]
fn lanemask_narrowing_is_diagnosed_on_wave32_and_wave64() {
    for opts in [&["-arch=sm_80"][..], &["-arch=gfx90a"][..], &["--warp-size=64"][..]] {
        let c = nvrtc(LANEMASK_SRC, "lanes.cu", &[], opts, &[]);
        assert_eq!(c.result, nvrtc::NVRTC_SUCCESS, "{opts:?}: {}", c.log);
        let lines: Vec<&str> = c.log.lines().filter(|l| l.contains("warning #20200-D")).collect();
        assert_eq!(lines.len(), 3, "{opts:?}: {}", c.log);
        assert!(lines[0].starts_with("lanes.cu(5): warning #20200-D:"), "{}", lines[0]);
        assert!(lines[1].starts_with("lanes.cu(9): warning #20200-D:"), "{}", lines[1]);
        assert!(lines[2].starts_with("lanes.cu(11): warning #20200-D:"), "{}", lines[2]);
    }
    // The diagnostic obeys NVRTC's diagnostic options.
    let c = nvrtc(LANEMASK_SRC, "lanes.cu", &[], &["--diag-error=20200"], &[]);
    assert_eq!(c.result, nvrtc::NVRTC_ERROR_COMPILATION);
    assert!(c.log.contains("lanes.cu(5): error #20200-D"), "{}", c.log);
    assert!(c.log.contains("3 errors detected in the compilation of \"lanes.cu\"."), "{}", c.log);
    for quiet in ["--diag-suppress=20200", "-w"] {
        let c = nvrtc(LANEMASK_SRC, "lanes.cu", &[], &[quiet], &[]);
        assert_eq!(c.result, nvrtc::NVRTC_SUCCESS);
        assert!(!c.log.contains("20200"), "{quiet}: {}", c.log);
    }
}

#[test]
fn lanemask_width_and_scale_macros_follow_the_target() {
    let src = r#"
        static_assert(sizeof(cudaLaneMask_t) * 8 == __SCALE_WARP_SIZE__, "mask width");
        static_assert(warpSize == __SCALE_WARP_SIZE__, "warpSize");
        #ifndef __REDSCALE__
        #error "__REDSCALE__ must be defined"
        #endif
        extern "C" __global__ void k(int* out) { out[0] = __SCALE_WARP_SIZE__ * 10 + __REDSCALE__; }"#;
    for (opts, warp) in
        [(&["-arch=sm_90"][..], 32), (&["-arch=gfx942"][..], 64), (&["-arch=gfx1100"][..], 32), (&["-arch=sm_80", "--warp-size=64"][..], 64)]
    {
        let c = nvrtc(src, "m.cu", &[], opts, &[]);
        assert_eq!(c.result, nvrtc::NVRTC_SUCCESS, "{opts:?}: {}", c.log);
        assert!(c.ptx.contains(&format!("{}", warp * 10 + 1)), "{opts:?}");
    }
}

// ---- 002: inline PTX -------------------------------------------------------------------------------

const REV_CUMSUM: &str = r#"
__global__ void shuffleRevCumsumKernel(float *dst)
{
float out;
const int C = warpSize - 1;
asm(
".reg .f32 Rx;"
".reg .f32 Ry;"
".reg .pred p;"
"mov.b32 Rx, %1;"
"shfl.sync.down.b32 Ry|p, Rx, 0x1, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
"shfl.sync.down.b32 Ry|p, Rx, 0x2, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
"shfl.sync.down.b32 Ry|p, Rx, 0x4, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
"shfl.sync.down.b32 Ry|p, Rx, 0x8, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
"shfl.sync.down.b32 Ry|p, Rx, 0x10, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
// One extra shuffle is needed for the larger warp size.
#if __SCALE_WARP_SIZE__ > 32
"shfl.sync.down.b32 Ry|p, Rx, 0x20, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
#endif // __SCALE_WARP_SIZE__
"mov.b32 %0, Rx;"
: "=f"(out) : "f"(1.0f), "n"(C)
);
dst[threadIdx.x] = out;
}
"#;

const BUTTERFLY: &str = r#"
__global__ void shuffleBflyKernel(float *dst)
{
const int C = warpSize - 1;
float out;
asm(
".reg .f32 Rx;"
".reg .f32 Ry;"
".reg .pred p;"
"mov.b32 Rx, %1;"
#if __SCALE_WARP_SIZE__ > 32
"shfl.sync.bfly.b32 Ry, Rx, 0x20, %2, -1;"
"add.f32 Rx, Ry, Rx;"
#endif // __SCALE_WARP_SIZE__
"shfl.sync.bfly.b32 Ry, Rx, 0x10, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"shfl.sync.bfly.b32 Ry, Rx, 0x8, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"shfl.sync.bfly.b32 Ry, Rx, 0x4, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"shfl.sync.bfly.b32 Ry, Rx, 0x2, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"shfl.sync.bfly.b32 Ry, Rx, 0x1, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"mov.b32 %0, Rx;"
: "=f"(out) : "f"((float) threadIdx.x), "n"(C)
);
dst[threadIdx.x] = out;
}
"#;

/// Options giving each warp size: the default (the CPU device, sm_XX), a wave64 AMD
/// target, the override on an NVIDIA architecture, and a wave32 AMD target.
const WARP_TARGETS: [(&[&str], u32); 4] = [(&[], 32), (&["-arch=gfx90a"], 64), (&["-arch=sm_80", "--warp-size=64"], 64), (&["-arch=gfx1100"], 32)];

/// Compiles `src` for `opts`, checks the PTX declares the warp size (`.warp_size 64` right
/// after `.address_size`, nothing at 32) and returns it with the kernel's lowered name.
fn compile_for_warp(src: &str, kernel: &str, opts: &[&str], warp: u32) -> (String, String) {
    let c = nvrtc(src, "warp.cu", &[], opts, &[kernel]);
    assert_eq!(c.result, nvrtc::NVRTC_SUCCESS, "{opts:?}: {}", c.log);
    assert!(!c.log.contains("warning"), "{opts:?}: {}", c.log);
    let declared = c.ptx.contains(".address_size 64\n.warp_size 64\n");
    assert_eq!(declared, warp == 64, "{opts:?}:\n{}", c.ptx);
    assert!(!c.ptx.contains(".warp_size 32"), "{opts:?}");
    let name = c.lowered[0].1.clone().unwrap();
    (c.ptx, name)
}

#[test]
fn seed_inline_ptx_examples_run_at_warp_32_and_64() {
    for (opts, warp) in WARP_TARGETS {
        // Two warps per block: each warp computes on its own lanes.
        let n = 2 * warp as usize;
        let (ptx, name) = compile_for_warp(REV_CUMSUM, "shuffleRevCumsumKernel", opts, warp);
        // A suffix sum of ones over the warp: lane l gets warp - l.
        let expect: Vec<f32> = (0..n).map(|t| (warp as usize - t % warp as usize) as f32).collect();
        assert_eq!(run_f32(&ptx, &name, n, n as u32), expect, "reverse cumsum, {opts:?}");
        let (ptx, name) = compile_for_warp(BUTTERFLY, "shuffleBflyKernel", opts, warp);
        // Every lane gets the sum of its warp's thread indices.
        let expect: Vec<f32> = (0..n)
            .map(|t| {
                let base = t / warp as usize * warp as usize;
                (base..base + warp as usize).sum::<usize>() as f32
            })
            .collect();
        assert_eq!(run_f32(&ptx, &name, n, n as u32), expect, "butterfly, {opts:?}");
    }
}

#[test]
fn warp_intrinsics_run_at_warp_32_and_64() {
    // Per thread: ballot popcount, the sum over the warp by shuffles, lane-mask and
    // active-mask facts, match; all through cudaLaneMask_t.
    let src = r#"
        extern "C" __global__ void k(const int* in, long long* out) {
            int t = threadIdx.x;
            cudaLaneMask_t all = __activemask();
            cudaLaneMask_t b = __ballot_sync(all, t % 3 == 0);
            int v = in[t];
            for (int d = warpSize / 2; d > 0; d /= 2) v += __shfl_xor_sync(all, v, d);
            int up = __shfl_up_sync(all, in[t], 1);
            cudaLaneMask_t same = __match_any_sync(all, t % 5);
            long long* o = out + 6 * t;
            o[0] = __popcll(b);
            o[1] = v;
            o[2] = up;
            o[3] = (long long)__popcll(same);
            o[4] = (long long)__popcll(all);
            o[5] = __popcll(__nv_lanemask_lt()) + 100 * warpSize;
        }"#;
    for (opts, warp) in WARP_TARGETS {
        let w = warp as usize;
        let n = 2 * w + w / 2; // two whole warps and a half one
        let (ptx, name) = compile_for_warp(src, "k", opts, warp);
        let gpu = Gpu::new();
        let m = gpu.load(ptx.as_bytes());
        let input: Vec<i32> = (0..n as i32).map(|t| t * 7 % 11).collect();
        let (bi, bo) = (gpu.alloc(&input), gpu.alloc(&vec![0i64; 6 * n]));
        let (mut pi, mut po) = (bi.ptr, bo.ptr);
        gpu.launch(m.func(&name), (1, 1, 1), (n as u32, 1, 1), 0, &mut [arg(&mut pi), arg(&mut po)]);
        let got: Vec<i64> = gpu.read(&bo);
        for t in 0..n {
            let (base, lane) = (t / w * w, t % w);
            let lanes = (n - base).min(w);
            let warp_threads = base..base + lanes;
            let mut want = [
                warp_threads.clone().filter(|u| u % 3 == 0).count() as i64,
                warp_threads.clone().map(|u| input[u] as i64).sum(),
                if lane > 0 { input[t - 1] as i64 } else { input[t] as i64 },
                warp_threads.clone().filter(|u| u % 5 == t % 5).count() as i64,
                lanes as i64,
                lane as i64 + 100 * warp as i64,
            ];
            // The xor butterfly reads lanes a partial warp does not have: undefined.
            if lanes < w {
                want[1] = got[6 * t + 1];
            }
            assert_eq!(&got[6 * t..6 * t + 6], &want, "{opts:?}, thread {t}");
        }
    }
}

#[test]
fn inline_ptx_binding_rules() {
    let src = r#"
        extern "C" __global__ void k(const int* in, int* out) {
            int a = in[0];
            int acc = 5;
            // An input written by the asm: the write stays inside it.
            int r;
            asm("add.s32 %1, %1, 100; mov.b32 %0, %1;" : "=r"(r) : "r"(a));
            out[0] = r;
            out[1] = a;
            // A write-only output read first: it reads the variable's value.
            asm("add.s32 %0, %0, 1;" : "=r"(acc));
            out[2] = acc;
            // The register class follows the expression: a 64-bit value under "r".
            long long wide = 0x100000002LL;
            long long twice;
            asm("add.s64 %0, %1, %1;" : "=r"(twice) : "r"(wide));
            out[3] = (int)(twice >> 32);
            out[4] = (int)twice;
            // WARP_SZ is a constant in PTX.
            int w;
            asm("mov.u32 %0, WARP_SZ;" : "=r"(w));
            out[5] = w;
            // An empty volatile asm is an optimization barrier, nothing else.
            asm volatile("" ::: "memory");
            // Constraint letters h r l f d n.
            short h = 7; float f = 1.5f; double d = 2.25;
            short h2; float f2; double d2; long long l2;
            asm("add.s16 %0, %1, %2;" : "=h"(h2) : "h"(h), "n"(3));
            asm("add.f32 %0, %1, %1;" : "=f"(f2) : "f"(f));
            asm("add.f64 %0, %1, %1;" : "=d"(d2) : "d"(d));
            asm("add.s64 %0, %1, 1;" : "=l"(l2) : "l"(wide));
            out[6] = h2;
            out[7] = (int)(f2 * 10);
            out[8] = (int)(d2 * 100);
            out[9] = (int)l2;
        }"#;
    let c = compile_ok(src, &[]);
    let out = run_i32(&c.ptx, "k", &[11], 10, 1);
    assert_eq!(out, vec![111, 11, 6, 2, 4, 32, 10, 30, 450, 3]);
}

#[test]
fn inline_ptx_line_comments() {
    // A PTX `//` comment runs to the end of the line: at the end of an asm string it
    // comments out nothing after the asm, inside one it comments out the rest of the line.
    let src = r#"
        extern "C" __global__ void k(const int* in, int* out) {
            int a = in[0];
            int r, s;
            asm("add.s32 %0, %1, 1; // one more" : "=r"(r) : "r"(a));
            asm("mov.b32 %0, %1; // copy\n\tadd.s32 %0, %0, 2;" : "=r"(s) : "r"(a));
            out[0] = r;
            out[1] = s;
        }"#;
    let c = compile_ok(src, &[]);
    assert_eq!(run_i32(&c.ptx, "k", &[40], 2, 1), vec![41, 42]);
}

// ---- 003: CUDA 8 features ----------------------------------------------------------------------------------

#[test]
fn extended_lambdas_star_this_capture_static_variables_nvstd_function() {
    let src = r#"
        #include <nvfunctional>
        template <typename Function> __device__ int call(Function f) { return f(); }
        struct Wrapper {
            int x;
            __device__ Wrapper() : x(10) {}
            __device__ int doWork() {
                auto lam1 = [=, *this] __device__ { return x + 1; };
                auto lam2 = [=, *this] __host__ __device__ { return x + 2; };
                return call(lam1) * 100 + call(lam2);
            }
        };
        class MyAlgorithm {
            __device__ int *getSingleton(void) {
                static int arr[1024] = {1, 2, 3};
                return arr;
            }
        public:
            __device__ void doWork(int i, int val) { int *p1 = getSingleton(); p1[i] = val; }
            __device__ int read(int i) { return getSingleton()[i]; }
        };
        __host__ __device__ int invoker(const nvstd::function<int(int)> &in, int v) { return in(v); }
        __device__ int device_twice(int v) { return 2 * v; }
        extern "C" __global__ void k(const int* in, int* out) {
            Wrapper w;
            out[0] = w.doWork();
            MyAlgorithm alg;
            out[1] = alg.read(2);
            alg.doWork(5, in[0]);
            out[2] = alg.read(5);
            int base = in[0];
            out[3] = invoker([=](int v) { return v + base; }, 1);
            out[4] = invoker(device_twice, 21);
            nvstd::function<int(int)> empty;
            out[5] = empty ? 1 : 0;
            auto d_lambda = [] __device__ { };
            auto hd_lambda = [] __host__ __device__ { };
            // Defined in a kernel, not in host or host-device code: no extended lambdas
            // (nvcc; tests/lambda_traits.rs has the cases where they are).
            static_assert(!__nv_is_extended_device_lambda_closure_type(decltype(d_lambda)), "");
            static_assert(!__nv_is_extended_host_device_lambda_closure_type(decltype(hd_lambda)), "");
            static_assert(!__nv_is_extended_device_lambda_closure_type(int), "");
        }
        extern "C" __global__ void k2(const int* in, int* out) {
            MyAlgorithm alg;
            out[0] = alg.read(5);  // the static persists across launches
        }"#;
    let c = compile_ok(src, &["--expt-extended-lambda"]);
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let (bi, bo) = (gpu.alloc(&[77i32]), gpu.alloc(&[0i32; 6]));
    let (mut pi, mut po) = (bi.ptr, bo.ptr);
    gpu.launch(m.func("k"), (1, 1, 1), (1, 1, 1), 0, &mut [arg(&mut pi), arg(&mut po)]);
    assert_eq!(gpu.read::<i32>(&bo), vec![1112, 3, 77, 78, 42, 0]);
    let bo2 = gpu.alloc(&[0i32]);
    let mut po2 = bo2.ptr;
    gpu.launch(m.func("k2"), (1, 1, 1), (1, 1, 1), 0, &mut [arg(&mut pi), arg(&mut po2)]);
    assert_eq!(gpu.read::<i32>(&bo2), vec![77]);
}

#[test]
fn name_expressions_for_templates_and_overloads_are_deterministic() {
    let src = r#"
        template <typename T> __global__ void kernel(T* p) { p[0] = (T)1; }
        __global__ void f(int* p) { p[0] = 1; }
        __global__ void f(float* p) { p[0] = 2; }
        namespace N { template <int A, class B> __global__ void g(B* b) { b[0] = (B)A; } }
        __device__ int v;
        __constant__ float c[4];
    "#;
    let names = ["kernel<int>", "&kernel<float>", "(void(*)(float*))f", "N::g<3, double>", "&v", "c"];
    let a = nvrtc(src, "names.cu", &[], &[], &names);
    let b = nvrtc(src, "names.cu", &[], &[], &names);
    assert_eq!(a.result, nvrtc::NVRTC_SUCCESS, "{}", a.log);
    let lowered: Vec<Option<String>> = a.lowered.iter().map(|(_, l)| l.clone()).collect();
    assert_eq!(
        lowered,
        vec![
            Some("_Z6kernelIiEvPT_".to_string()),
            Some("_Z6kernelIfEvPT_".to_string()),
            Some("_Z1fPf".to_string()),
            Some("_ZN1N1gILi3EdEEvPT0_".to_string()),
            Some("v".to_string()),
            Some("c".to_string()),
        ]
    );
    assert_eq!(a.lowered, b.lowered);
    assert_eq!(a.ptx, b.ptx, "compiles are deterministic");
}

#[test]
fn inline_ptx_lane_mask_operands_on_wave64() {
    let src = r#"
        extern "C" __global__ void k(float* out, unsigned narrow, cudaLaneMask_t wide) {
            float v = out[threadIdx.x], r;
            asm("shfl.sync.idx.b32 %0, %1, 0, 0x3f, %2;" : "=f"(r) : "f"(v), "r"(narrow));   // line 4: error
            asm("shfl.sync.idx.b32 %0, %1, 0, 0x3f, %2;" : "=f"(r) : "f"(v), "l"(wide));     // fine
            asm("shfl.sync.idx.b32 %0, %1, 0, 0x3f, 0xffffffff;" : "=f"(r) : "f"(v));        // line 6: warning
            asm("shfl.sync.idx.b32 %0, %1, 0, 0x3f, -1;" : "=f"(r) : "f"(v));                // fine
            out[threadIdx.x] = r;
        }"#;
    let c = nvrtc(src, "mask.cu", &[], &["-arch=gfx90a"], &[]);
    assert_eq!(c.result, nvrtc::NVRTC_ERROR_COMPILATION, "{}", c.log);
    assert!(c.log.contains("mask.cu(4): error: the lane-mask operand of 'shfl.sync.idx.b32' is a 32-bit value"), "{}", c.log);
    assert!(c.log.contains("mask.cu(6): warning #20201-D: constant lane mask 0xffffffff"), "{}", c.log);
    assert!(!c.log.contains("mask.cu(5)") && !c.log.contains("mask.cu(7)"), "{}", c.log);
    // On a 32-wide warp the same program is fine.
    let c = nvrtc(src, "mask.cu", &[], &["-arch=sm_80"], &[]);
    assert_eq!(c.result, nvrtc::NVRTC_SUCCESS, "{}", c.log);
    assert!(!c.log.contains("lane"), "{}", c.log);
}

#[test]
fn wave64_lane_mask_results_in_inline_ptx_are_errors_in_the_program_log() {
    // Lane masks written to 32-bit variables: the PTX check of 64-lane modules (the one
    // the driver's JIT makes) reports them at compile time, with the PTX position.
    for (asm, what) in [
        ("activemask.b32 %0;", "the lane-mask result of 'activemask.b32' goes to the 32-bit register"),
        ("mov.u32 %0, %%lanemask_lt;", "%lanemask_lt is a 64-bit lane mask in a 64-lane module, read here as a 32-bit value"),
    ] {
        let src =
            format!("extern \"C\" __global__ void k(unsigned* out) {{ unsigned m; asm volatile(\"{asm}\" : \"=r\"(m)); out[threadIdx.x] = m; }}");
        let c = nvrtc(&src, "mask.cu", &[], &["-arch=gfx90a"], &[]);
        assert_eq!(c.result, nvrtc::NVRTC_ERROR_COMPILATION, "{asm}: {}", c.log);
        let line = c.log.lines().find(|l| l.contains(what)).unwrap_or_else(|| panic!("{asm}: {}", c.log));
        assert!(line.starts_with("error: in the generated PTX, line ") && line.contains(", column "), "{line}");
        assert!(c.log.contains("1 error detected in the compilation of \"mask.cu\"."), "{}", c.log);
        // A 32-lane target takes the same program.
        let c = nvrtc(&src, "mask.cu", &[], &["-arch=sm_80"], &[]);
        assert_eq!(c.result, nvrtc::NVRTC_SUCCESS, "{asm}: {}", c.log);
    }
}

#[test]
fn relocatable_device_code_compiles_and_self_contained_programs_load() {
    let src = r#"
        extern __device__ int helper_elsewhere(int);
        __device__ int twice(int x) { return 2 * x; }
        extern "C" __global__ void k(int* p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
        extern "C" __global__ void k2(int* p) { p[0] = helper_elsewhere(p[0]); }
    "#;
    let c = compile_ok(src, &["-rdc=true"]);
    // Device functions stay visible for the linker; the missing one is an extern.
    assert!(c.ptx.contains(".visible .func") && c.ptx.contains(".extern .func"), "{}", c.ptx);
    let c = compile_ok(&src.replace("extern __device__ int helper_elsewhere(int);", "").replace("helper_elsewhere", "twice"), &["-rdc=true"]);
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let b = gpu.alloc(&[1i32, 2, 3, 4]);
    let mut p = b.ptr;
    gpu.launch(m.func("k"), (1, 1, 1), (4, 1, 1), 0, &mut [arg(&mut p)]);
    assert_eq!(gpu.read::<i32>(&b), vec![2, 4, 6, 8]);
}

// ---- the types NVRTC declares without any #include ----

#[test]
fn clock_t_is_declared_and_clock_runs() {
    // cuda-samples' clock_nvrtc: `clock_t *timer` in a kernel signature, no <time.h>
    // (NVRTC's crt/common_functions.h declares `clock_t clock(void)` without it).
    let src = r#"extern "C" __global__ void k(const int *in, long long *out) {
        clock_t start = clock();
        clock_t *slot = (clock_t *)out;
        slot[0] = start;
        slot[1] = sizeof(clock_t) + in[0];
    }"#;
    let c = compile_ok(src, &[]);
    let out = {
        let gpu = Gpu::new();
        let m = gpu.load(c.ptx.as_bytes());
        let (bi, bo) = (gpu.alloc(&[0i32]), gpu.alloc(&[0i64; 2]));
        let (mut pi, mut po) = (bi.ptr, bo.ptr);
        gpu.launch(m.func("k"), (1, 1, 1), (1, 1, 1), 0, &mut [arg(&mut pi), arg(&mut po)]);
        gpu.read::<i64>(&bo)
    };
    // clock_t is the host's: 8 bytes on LP64 Linux.
    assert_eq!(out[1], 8);
}
