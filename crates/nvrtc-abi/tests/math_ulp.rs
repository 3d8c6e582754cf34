//! The CUDA math functions of our device headers against an arbitrary-precision reference
//! (mpmath, through tests/data/ulp_ref.py): each function is evaluated on the CPU device on
//! a few thousand inputs (uniform, log-uniform over the whole range, and special values),
//! and its largest error in ulp must stay within the bound NVIDIA documents for it.
//!
//! Skipped (with a message) when python3 with mpmath is not installed; scripts/bootstrap.sh
//! installs it.

mod common;
use common::*;
use std::io::Write;
use std::process::{Command, Stdio};

/// (name, arity, float bound, double bound, domain)
#[derive(Clone, Copy)]
enum Dom {
    /// uniform in [a, b], plus log-uniform over the magnitudes in between
    Range(f64, f64),
    /// any finite value (log-uniform magnitudes, both signs)
    All,
    /// positive values, log-uniform
    Pos,
}

struct Case {
    name: &'static str,
    arity: usize,
    ulp_f: f64,
    ulp_d: f64,
    dom: Dom,
    dom2: Dom,
}

const fn c1(name: &'static str, ulp_f: f64, ulp_d: f64, dom: Dom) -> Case {
    Case { name, arity: 1, ulp_f, ulp_d, dom, dom2: Dom::All }
}
const fn c2(name: &'static str, ulp_f: f64, ulp_d: f64, dom: Dom, dom2: Dom) -> Case {
    Case { name, arity: 2, ulp_f, ulp_d, dom, dom2 }
}

/// NVIDIA's bounds (CUDA C++ Programming Guide, "Mathematical Functions").
const CASES: &[Case] = &[
    c1("exp", 2.0, 1.0, Dom::Range(-750.0, 712.0)),
    c1("exp2", 2.0, 1.0, Dom::Range(-1080.0, 1025.0)),
    c1("exp10", 2.0, 1.0, Dom::Range(-330.0, 310.0)),
    c1("expm1", 1.0, 1.0, Dom::Range(-40.0, 710.0)),
    c1("log", 1.0, 1.0, Dom::Pos),
    c1("log2", 1.0, 1.0, Dom::Pos),
    c1("log10", 2.0, 1.0, Dom::Pos),
    c1("log1p", 1.0, 1.0, Dom::Range(-0.9999, 1e300)),
    c1("sin", 2.0, 2.0, Dom::All),
    c1("cos", 2.0, 2.0, Dom::All),
    c1("tan", 4.0, 2.0, Dom::All),
    c1("sinpi", 1.0, 2.0, Dom::Range(-100.0, 100.0)),
    c1("cospi", 1.0, 2.0, Dom::Range(-100.0, 100.0)),
    c1("asin", 2.0, 2.0, Dom::Range(-1.0, 1.0)),
    c1("acos", 2.0, 2.0, Dom::Range(-1.0, 1.0)),
    c1("atan", 2.0, 2.0, Dom::All),
    c2("atan2", 3.0, 2.0, Dom::All, Dom::All),
    c1("sinh", 3.0, 2.0, Dom::Range(-712.0, 712.0)),
    c1("cosh", 2.0, 1.0, Dom::Range(-712.0, 712.0)),
    c1("tanh", 2.0, 1.0, Dom::Range(-30.0, 30.0)),
    c1("asinh", 3.0, 3.0, Dom::All),
    c1("acosh", 4.0, 3.0, Dom::Range(1.0, 1e300)),
    c1("atanh", 3.0, 2.0, Dom::Range(-1.0, 1.0)),
    c2("pow", 4.0, 2.0, Dom::Pos, Dom::Range(-50.0, 50.0)),
    c1("sqrt", 0.0, 0.0, Dom::Pos),
    c1("rsqrt", 2.0, 1.0, Dom::Pos),
    c1("cbrt", 1.0, 1.0, Dom::All),
    c1("rcbrt", 1.0, 1.0, Dom::All),
    c2("hypot", 3.0, 2.0, Dom::All, Dom::All),
    c1("erf", 2.0, 2.0, Dom::Range(-7.0, 7.0)),
    c1("erfc", 4.0, 5.0, Dom::Range(-7.0, 27.0)),
    c1("erfinv", 2.0, 5.0, Dom::Range(-1.0, 1.0)),
    c1("erfcinv", 4.0, 6.0, Dom::Range(0.0, 2.0)),
    c1("erfcx", 4.0, 4.0, Dom::Range(-10.0, 1e6)),
    c1("normcdf", 5.0, 5.0, Dom::Range(-38.0, 9.0)),
    c1("normcdfinv", 5.0, 8.0, Dom::Range(0.0, 1.0)),
    c1("lgamma", 6.0, 4.0, Dom::Range(-2.2, 1e6)),
    c1("tgamma", 5.0, 10.0, Dom::Range(-170.0, 171.0)),
    c2("fmod", 0.0, 0.0, Dom::All, Dom::All),
    c2("remainder", 0.0, 0.0, Dom::All, Dom::All),
];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn sample(rng: &mut Rng, dom: Dom, single: bool, n: usize) -> Vec<f64> {
    let max_exp = if single { 127.0 } else { 1023.0 };
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        let x = match dom {
            Dom::All => {
                let e = (rng.unit() * 2.0 - 1.0) * max_exp;
                let m = 1.0 + rng.unit();
                let s = if rng.next() & 1 == 0 { 1.0 } else { -1.0 };
                if i % 3 == 0 {
                    s * rng.unit() * 10.0
                } else {
                    s * m * 2f64.powf(e)
                }
            }
            Dom::Pos => {
                let e = (rng.unit() * 2.0 - 1.0) * max_exp;
                if i % 3 == 0 {
                    rng.unit() * 10.0
                } else {
                    (1.0 + rng.unit()) * 2f64.powf(e)
                }
            }
            Dom::Range(a, b) => {
                if i % 4 == 3 && a < 0.0 && b > 0.0 {
                    // log-uniform magnitudes near zero
                    let e = -(rng.unit() * 60.0);
                    let s = if rng.next() & 1 == 0 { 1.0 } else { -1.0 };
                    s * 2f64.powf(e) * b.min(-a).min(1.0)
                } else if i % 4 == 2 && b > 1e3 {
                    a.max(0.0) + 2f64.powf(rng.unit() * b.log2())
                } else {
                    a + (b - a) * rng.unit()
                }
            }
        };
        let x = if single { x as f32 as f64 } else { x };
        if x.is_finite() {
            v.push(x);
        } else {
            v.push(0.5);
        }
    }
    v
}

fn mpmath_available() -> bool {
    Command::new("python3").args(["-c", "import mpmath"]).status().map(|s| s.success()).unwrap_or(false)
}

#[test]
fn math_functions_meet_nvidia_error_bounds() {
    if !mpmath_available() {
        eprintln!("SKIPPED: python3 with mpmath is needed for the reference (scripts/bootstrap.sh installs it)");
        return;
    }
    let n = 1500usize;
    let mut src = String::new();
    for c in CASES {
        for (single, t, suffix) in [(true, "float", "f"), (false, "double", "")] {
            let call = if c.arity == 1 { format!("{}{suffix}(a[i])", c.name) } else { format!("{}{suffix}(a[i], b[i])", c.name) };
            // sqrt/rsqrt etc. have no -f names for some functions in the C API: all do.
            src.push_str(&format!(
                "extern \"C\" __global__ void k_{name}_{t}(const {t}* a, const {t}* b, {t}* out, int n) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = {call};\n}}\n",
                name = c.name
            ));
            let _ = single;
        }
    }
    let compiled = compile_ok(&src, &["-arch=compute_80"]);
    let gpu = Gpu::new();
    let module = gpu.load(compiled.ptx.as_bytes());
    let mut lines = String::new();
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for c in CASES {
        for single in [true, false] {
            let a = sample(&mut rng, c.dom, single, n);
            let b = sample(&mut rng, c.dom2, single, n);
            let t = if single { "float" } else { "double" };
            let f = module.func(&format!("k_{}_{t}", c.name));
            let mut nn = n as i32;
            if single {
                let af: Vec<f32> = a.iter().map(|&x| x as f32).collect();
                let bf: Vec<f32> = b.iter().map(|&x| x as f32).collect();
                let (ba, bb, bo) = (gpu.alloc(&af), gpu.alloc(&bf), gpu.alloc(&vec![0f32; n]));
                let (mut pa, mut pb, mut po) = (ba.ptr, bb.ptr, bo.ptr);
                gpu.launch(f, (n.div_ceil(128) as u32, 1, 1), (128, 1, 1), 0, &mut [arg(&mut pa), arg(&mut pb), arg(&mut po), arg(&mut nn)]);
                let out: Vec<f32> = gpu.read(&bo);
                for i in 0..n {
                    let args = if c.arity == 1 { format!("{:x}", af[i].to_bits()) } else { format!("{:x} {:x}", af[i].to_bits(), bf[i].to_bits()) };
                    lines.push_str(&format!("{} f {} {:x}\n", c.name, args, out[i].to_bits()));
                }
            } else {
                let (ba, bb, bo) = (gpu.alloc(&a), gpu.alloc(&b), gpu.alloc(&vec![0f64; n]));
                let (mut pa, mut pb, mut po) = (ba.ptr, bb.ptr, bo.ptr);
                gpu.launch(f, (n.div_ceil(128) as u32, 1, 1), (128, 1, 1), 0, &mut [arg(&mut pa), arg(&mut pb), arg(&mut po), arg(&mut nn)]);
                let out: Vec<f64> = gpu.read(&bo);
                for i in 0..n {
                    let args = if c.arity == 1 { format!("{:x}", a[i].to_bits()) } else { format!("{:x} {:x}", a[i].to_bits(), b[i].to_bits()) };
                    lines.push_str(&format!("{} d {} {:x}\n", c.name, args, out[i].to_bits()));
                }
            }
        }
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ulp_ref.py");
    let mut child = Command::new("python3").arg(script).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("python3");
    child.stdin.take().unwrap().write_all(lines.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "reference script failed");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut failures = Vec::new();
    for line in report.lines() {
        let mut parts = line.split_whitespace();
        let key = parts.next().unwrap();
        let err: f64 = parts.next().unwrap().parse().unwrap();
        let (name, prec) = key.split_once('/').unwrap();
        let case = CASES.iter().find(|c| c.name == name).unwrap();
        let bound = if prec == "f" { case.ulp_f } else { case.ulp_d };
        // Half an ulp of slack for the exactly-rounded ones: "0 ulp" means correctly rounded.
        let allowed = if bound == 0.0 { 0.5 } else { bound };
        let status = if err <= allowed { "ok" } else { "FAIL" };
        eprintln!("{status:4} {line}   (bound {bound})");
        if err > allowed {
            failures.push(line.to_string());
        }
    }
    assert!(failures.is_empty(), "functions beyond NVIDIA's bounds:\n{}", failures.join("\n"));
}

#[test]
fn special_values_of_float_functions() {
    // inf, -inf, NaN, +-0 and the overflow/underflow edges, against Rust's f32 functions.
    let src = r#"extern "C" __global__ void k(const float* x, float* y) {
        int i = threadIdx.x; float v = x[i];
        y[i * 8 + 0] = expf(v); y[i * 8 + 1] = exp2f(v); y[i * 8 + 2] = sinf(v); y[i * 8 + 3] = cosf(v);
        y[i * 8 + 4] = tanf(v); y[i * 8 + 5] = logf(v); y[i * 8 + 6] = powf(v, 2.0f); y[i * 8 + 7] = tanhf(v);
    }"#;
    let c = compile_ok(src, &[]);
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let xs = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 0.0, -0.0, 89.0, -104.0, 200.0, -200.0, 1e30, -1e-30];
    let (bx, by) = (gpu.alloc(&xs), gpu.alloc(&vec![0f32; xs.len() * 8]));
    let (mut px, mut py) = (bx.ptr, by.ptr);
    gpu.launch(m.func("k"), (1, 1, 1), (xs.len() as u32, 1, 1), 0, &mut [arg(&mut px), arg(&mut py)]);
    let y: Vec<f32> = gpu.read(&by);
    let same = |a: f32, b: f32| (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 4.0 * f32::EPSILON * b.abs().max(1e-37);
    for (i, &x) in xs.iter().enumerate() {
        let want = [x.exp(), x.exp2(), x.sin(), x.cos(), x.tan(), x.ln(), x.powf(2.0), x.tanh()];
        for (j, w) in want.iter().enumerate() {
            let got = y[i * 8 + j];
            // tan/sin/cos of huge arguments: only finiteness is compared (reductions differ
            // in how they treat 1e30, both are valid values in [-1, 1]).
            if x.is_finite() && x.abs() >= 1e30 && (2..5).contains(&j) {
                assert!(got.is_finite(), "fn {j} of {x}: {got}");
                continue;
            }
            assert!(same(got, *w), "fn {j} of {x}: got {got}, want {w}");
        }
    }
}
