//! nvcc's extended-lambda closure-type traits (`__nv_is_extended_device_lambda_closure_type`,
//! `..._host_device_...`, `..._with_preserved_return_type`), case by case.
//!
//! The expected values are NVIDIA's: NVIDIA's NVRTC 13 refuses every annotated lambda
//! ("requires --extended-lambda", an option it does not have) and answers false for all
//! three traits on what it compiles (int, named function objects, plain lambdas); the
//! annotated cases were compiled with nvcc 13.0 from `.venv` (`nvcc -arch=sm_80
//! --extended-lambda -std=c++17 -c`), each case instantiating an incomplete
//! `Show<kind, case>` so the error printed the value (kind = 1 device + 2 host-device + 4
//! preserved return type).

mod common;
use common::*;

/// (case, code: a declaration that uses `CHECK(type, expected kind)`).
const CASES: &[(&str, &str)] = &[
    ("int", "CHECK(int, 0);"),
    ("named functor", "CHECK(Functor, 0);"),
    ("named host-device functor", "CHECK(HDFunctor, 0);"),
    ("pointer to functor", "CHECK(Functor *, 0);"),
    ("plain lambda in a host-device function", "__host__ __device__ void f1() { auto l = [] (int x) { return x; }; CHECK(decltype(l), 0); }"),
    ("plain lambda in a device function", "__device__ void f2() { auto l = [] (int x) { return x; }; CHECK(decltype(l), 0); }"),
    ("device lambda", "__host__ __device__ void f3() { auto l = [] __device__ (int x) { return x; }; CHECK(decltype(l), 1); }"),
    ("host device lambda", "__host__ __device__ void f4() { auto l = [] __host__ __device__ (int x) { return x; }; CHECK(decltype(l), 2); }"),
    ("device host lambda (other order)", "__host__ __device__ void f5() { auto l = [] __device__ __host__ (int x) { return x; }; CHECK(decltype(l), 2); }"),
    ("device lambda, trailing return type", "__host__ __device__ void f6() { auto l = [] __device__ (int x) -> int { return x; }; CHECK(decltype(l), 5); }"),
    ("host device lambda, trailing return type", "__host__ __device__ void f7() { auto l = [] __host__ __device__ (int x) -> int { return x; }; CHECK(decltype(l), 2); }"),
    ("device lambda without parameter list", "__host__ __device__ void f8() { auto l = [] __device__ { }; CHECK(decltype(l), 1); }"),
    ("device lambda without parameter list, trailing", "__host__ __device__ void f9() { auto l = [] __device__ -> int { return 1; }; CHECK(decltype(l), 5); }"),
    ("device lambda, -> auto", "__host__ __device__ void f10() { auto l = [] __device__ () -> auto { return 1; }; CHECK(decltype(l), 5); }"),
    ("mutable device lambda, trailing", "__host__ __device__ void f11() { auto l = [] __device__ () mutable -> int { return 1; }; CHECK(decltype(l), 5); }"),
    ("generic device lambda", "__host__ __device__ void f12() { auto l = [=] __device__ (auto x) { return x; }; CHECK(decltype(l), 1); }"),
    ("generic device lambda, trailing", "__host__ __device__ void f13() { auto l = [] __device__ (auto x) -> int { return x; }; CHECK(decltype(l), 5); }"),
    ("const closure type", "__host__ __device__ void f14() { auto l = [] __device__ (int x) { return x; }; CHECK(const decltype(l), 1); }"),
    ("reference to closure type", "__host__ __device__ void f15() { auto l = [] __device__ (int x) { return x; }; CHECK(decltype(l) &, 0); }"),
    ("host lambda", "__host__ __device__ void f16() { auto l = [] __host__ (int x) { return x; }; CHECK(decltype(l), 0); }"),
    ("device lambda in a device function", "__device__ void f17() { auto l = [] __device__ (int x) { return x; }; CHECK(decltype(l), 0); }"),
    ("host device lambda in a device function", "__device__ void f18() { auto l = [] __host__ __device__ (int x) { return x; }; CHECK(decltype(l), 0); }"),
    ("device lambda in a kernel", "__global__ void f19() { auto l = [] __device__ (int x) -> int { return x; }; CHECK(decltype(l), 0); }"),
    ("device lambda inside a plain lambda", "__host__ __device__ void f20() { auto o = [] (int x) { auto l = [] __device__ (int y) { return y; }; CHECK(decltype(l), 1); return x; }; (void)o; }"),
    (
        "capturing *this",
        "struct S { int x; __host__ __device__ void m() { auto l = [=, *this] __device__ (int y) { return x + y; }; CHECK(decltype(l), 1); \
         auto h = [=, *this] __host__ __device__ (int y) -> int { return x + y; }; CHECK(decltype(h), 2); } };",
    ),
    (
        "in a function template",
        "template <class T> __host__ __device__ void t1() { auto l = [] __device__ (T x) { return x; }; CHECK(decltype(l), 1); \
         auto m = [] __host__ __device__ (T x) -> T { return x; }; CHECK(decltype(m), 2); \
         auto n = [] __device__ (T x) -> T { return x; }; CHECK(decltype(n), 5); } __host__ __device__ void f22() { t1<int>(); }",
    ),
    (
        "through a template parameter",
        "template <class F> __host__ __device__ void pass(F) { CHECK(F, 5); } __host__ __device__ void f21() { pass([] __device__ (int x) -> int { return x; }); }",
    ),
    ("device lambda at namespace scope", "auto ns_lambda = [] __device__ (int x) { return x; }; void f23() { CHECK(decltype(ns_lambda), 0); }"),
    ("in a header", "#include \"lambdas.h\""),
];

const HEADER: &str = "__host__ __device__ inline void in_header() {\n  auto l = [] __device__ (int x) { return x; };\n  CHECK(decltype(l), 1);\n  \
                      auto m = [=] __host__ __device__ (int x) -> int { return x; };\n  CHECK(decltype(m), 2);\n}\n";

const PRELUDE: &str = r#"
struct Functor { __device__ int operator()(int x) const { return x; } };
struct HDFunctor { __host__ __device__ int operator()(int x) const { return x; } };
template <class F> struct Kind {
  static constexpr int value = (__nv_is_extended_device_lambda_closure_type(F) ? 1 : 0) +
                               (__nv_is_extended_host_device_lambda_closure_type(F) ? 2 : 0) +
                               (__nv_is_extended_device_lambda_with_preserved_return_type(F) ? 4 : 0);
};
template <int Got, int Expected> struct Check { static_assert(Got == Expected, "trait mismatch"); static constexpr bool ok = true; };
#define CHECK(T, E) static_assert(Check<Kind<T>::value, E>::ok, "")
"#;

#[test]
fn closure_type_traits_match_nvcc_case_by_case() {
    // One program per case: a failure names its case, and the log shows got/expected.
    for std in ["-std=c++14", "-std=c++17"] {
        for (name, code) in CASES {
            let src = format!("{PRELUDE}\n{code}\n");
            let c = nvrtc(&src, "lambda_traits.cu", &[("lambdas.h", HEADER)], &[std, "--expt-extended-lambda"], &[]);
            assert_eq!(c.result, nvrtc::NVRTC_SUCCESS, "{std}: case '{name}':\n{}", c.log);
        }
    }
}

#[test]
fn an_extended_lambda_still_compiles_and_runs() {
    // The marker the front-end adds to the closure type changes nothing at run time.
    let src = r#"
        template <class F> __device__ int twice(F f, int v) { return f(f(v)); }
        __host__ __device__ int apply(int v) {
            int base = v;
            auto f = [=] __device__ (int x) -> int { return x * 3 + base; };
            auto g = [base] __host__ __device__ (int x) { return x - base; };
            static_assert(__nv_is_extended_device_lambda_with_preserved_return_type(decltype(f)), "");
            static_assert(__nv_is_extended_host_device_lambda_closure_type(decltype(g)), "");
            return twice(f, 2) * 1000 + g(50) + (int)sizeof(f) * 0;
        }
        extern "C" __global__ void k(const int* in, int* out) { out[0] = apply(in[0]); }"#;
    let c = compile_ok(src, &["-std=c++17", "--expt-extended-lambda"]);
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let (bi, bo) = (gpu.alloc(&[4i32]), gpu.alloc(&[0i32]));
    let (mut pi, mut po) = (bi.ptr, bo.ptr);
    gpu.launch(m.func("k"), (1, 1, 1), (1, 1, 1), 0, &mut [arg(&mut pi), arg(&mut po)]);
    // f(2) = 10, f(10) = 34; g(50) = 46
    assert_eq!(gpu.read::<i32>(&bo), vec![34 * 1000 + 46]);
}
