//! The data model: a [`Case`] is one PTX instruction form (a short body of PTX text) with
//! its input arrays and the expected output arrays, computed in Rust.
//!
//! Every kernel has the same shape (see [`crate::kernel`]): thread `i` loads element `i` of
//! each input array into registers `%a %b %c %d`, runs the body, and stores registers
//! `%x %y` into element `i` of the output arrays. An optional scratch buffer (register
//! `%s` holds its base, `%sa` the address of this thread's slot) serves atomics.

/// The PTX type of a kernel register that carries an input or an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// 8-bit integer types live in 16-bit registers (PTX has no 8-bit arithmetic
    /// registers); the input arrays hold the whole 16-bit register, so the high byte
    /// tests that instructions of an 8-bit type ignore it.
    U8,
    S8,
    B8,
    U16,
    S16,
    B16,
    U32,
    S32,
    B32,
    U64,
    S64,
    B64,
    /// Halves and bfloat16s live in `.b16` registers, pairs in `.b32`.
    F16,
    BF16,
    F16x2,
    BF16x2,
    F32,
    F64,
    /// A predicate: stored in memory as a byte (0 or 1; any non-zero input is true).
    Pred,
}

impl Ty {
    /// The PTX type suffix (`u32`, `f16x2`, ...).
    pub fn name(self) -> &'static str {
        use Ty::*;
        match self {
            U8 => "u8",
            S8 => "s8",
            B8 => "b8",
            U16 => "u16",
            S16 => "s16",
            B16 => "b16",
            U32 => "u32",
            S32 => "s32",
            B32 => "b32",
            U64 => "u64",
            S64 => "s64",
            B64 => "b64",
            F16 => "f16",
            BF16 => "bf16",
            F16x2 => "f16x2",
            BF16x2 => "bf16x2",
            F32 => "f32",
            F64 => "f64",
            Pred => "pred",
        }
    }

    /// The type a register holding this value is declared with.
    pub fn reg_decl(self) -> &'static str {
        use Ty::*;
        match self {
            U8 | S8 | B8 | F16 | BF16 => "b16",
            F16x2 | BF16x2 => "b32",
            U16 | S16 | B16 | U32 | S32 | B32 | U64 | S64 | B64 | F32 | F64 | Pred => self.name(),
        }
    }

    /// Bytes per element in the input/output arrays (the register's width).
    pub fn bytes(self) -> usize {
        use Ty::*;
        match self {
            Pred => 1,
            U8 | S8 | B8 | U16 | S16 | B16 | F16 | BF16 => 2,
            U32 | S32 | B32 | F16x2 | BF16x2 | F32 => 4,
            U64 | S64 | B64 | F64 => 8,
        }
    }

    /// Bits of the value proper (8 for `u8` though its register has 16).
    pub fn bits(self) -> u32 {
        use Ty::*;
        match self {
            U8 | S8 | B8 => 8,
            Pred => 1,
            _ => self.bytes() as u32 * 8,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }

    /// Mask of the register's bits.
    pub fn mask(self) -> u64 {
        let b = self.bytes() * 8;
        if b == 64 {
            u64::MAX
        } else {
            (1u64 << b) - 1
        }
    }
}

/// How an output element is compared with its expectation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Check {
    /// Bit-for-bit.
    Exact,
    /// Bit-for-bit, except that any NaN matches any NaN (PTX leaves most NaN payloads
    /// unspecified). The format is the output's type (`f16x2` compares both halves).
    Float,
    /// Floating point within `n` units in the last place of the expectation (counted as
    /// the distance between the two encodings on the ordered integer line); NaN matches
    /// NaN. For `.approx` instructions whose ISA bound is given in ULPs.
    Ulp(u32),
    /// Floating point within an absolute error (PTX's bound for `sin`/`cos`/`lg2`) or one
    /// ULP (the final rounding of a large result), NaN matching NaN, infinities exact.
    Abs(f64),
}

/// One input array: register `%a`, `%b`, `%c` or `%d` in that order.
#[derive(Clone, Debug)]
pub struct Input {
    pub ty: Ty,
    pub values: Vec<u64>,
}

/// One output array: register `%x` or `%y`.
#[derive(Clone, Debug)]
pub struct Output {
    pub ty: Ty,
    pub expected: Vec<u64>,
    pub check: Check,
}

/// A buffer shared by the threads (for atomics): initial and expected final contents.
#[derive(Clone, Debug)]
pub struct Scratch {
    /// Element type (`u32`/`u64`/`f32`/...); `%sa` = `%s` + i * bytes.
    pub ty: Ty,
    pub init: Vec<u64>,
    pub expected: Vec<u64>,
    pub check: Check,
}

/// One conformance case.
#[derive(Clone, Debug)]
pub struct Case {
    /// Unique id, usually the instruction text (`mul.hi.s16`), with a `#suffix` where one
    /// instruction has several cases.
    pub id: String,
    /// The family the report groups it under (`int-arith`, `cvt-float`, ...).
    pub family: &'static str,
    /// PTX statements between the loads and the stores.
    pub body: String,
    /// Extra register declarations the body needs.
    pub decls: String,
    pub inputs: Vec<Input>,
    pub outputs: Vec<Output>,
    pub scratch: Option<Scratch>,
    /// Threads per block (warp-level cases care; others use 256).
    pub block: u32,
    /// Threads (elements) in all.
    pub n: usize,
}

impl Case {
    /// A case over `inputs` (all of the same length) with outputs filled in by `f`, which
    /// maps the input values of element `i` to the output values.
    pub fn map(
        family: &'static str,
        id: impl Into<String>,
        body: impl Into<String>,
        ins: Vec<(Ty, Vec<u64>)>,
        outs: &[(Ty, Check)],
        f: impl Fn(&[u64]) -> Vec<u64>,
    ) -> Case {
        let n = ins.first().map_or(0, |i| i.1.len());
        let mut outputs: Vec<Output> = outs.iter().map(|&(ty, check)| Output { ty, expected: Vec::with_capacity(n), check }).collect();
        let mut row = vec![0u64; ins.len()];
        for i in 0..n {
            for (k, inp) in ins.iter().enumerate() {
                row[k] = inp.1[i] & inp.0.mask();
            }
            let r = f(&row);
            assert_eq!(r.len(), outputs.len(), "{}: wrong number of results", family);
            for (o, v) in outputs.iter_mut().zip(r) {
                o.expected.push(v & o.ty.mask());
            }
        }
        Case {
            id: id.into(),
            family,
            body: body.into(),
            decls: String::new(),
            inputs: ins.into_iter().map(|(ty, values)| Input { ty, values: values.iter().map(|v| v & ty.mask()).collect() }).collect(),
            outputs,
            scratch: None,
            block: 256,
            n,
        }
    }

    /// The same with one output checked exactly.
    pub fn simple(family: &'static str, body: impl Into<String>, ins: Vec<(Ty, Vec<u64>)>, out: Ty, f: impl Fn(&[u64]) -> u64) -> Case {
        let body = body.into();
        let id = body.split_whitespace().next().unwrap_or("").to_string();
        let check = if matches!(out, Ty::F16 | Ty::BF16 | Ty::F16x2 | Ty::BF16x2 | Ty::F32 | Ty::F64) { Check::Float } else { Check::Exact };
        Case::map(family, id, body, ins, &[(out, check)], |r| vec![f(r)])
    }

    pub fn with_id(mut self, id: impl Into<String>) -> Case {
        self.id = id.into();
        self
    }

    pub fn with_decls(mut self, d: impl Into<String>) -> Case {
        self.decls = d.into();
        self
    }

    /// The first statement of the body: what a report shows.
    pub fn instruction(&self) -> &str {
        self.body.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
    }
}

/// Whether `got` matches `want` under `check` for a value of type `ty`.
pub fn matches(check: Check, ty: Ty, want: u64, got: u64) -> bool {
    if want == got {
        return true;
    }
    let lanes: &[(u32, u32, u32)] = match ty {
        // (shift, width, exponent bits)
        Ty::F16 => &[(0, 16, 5)],
        Ty::BF16 => &[(0, 16, 8)],
        Ty::F16x2 => &[(0, 16, 5), (16, 16, 5)],
        Ty::BF16x2 => &[(0, 16, 8), (16, 16, 8)],
        Ty::F32 => &[(0, 32, 8)],
        Ty::F64 => &[(0, 64, 11)],
        _ => return false,
    };
    lanes.iter().all(|&(sh, w, e)| {
        let m = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let (a, b) = ((want >> sh) & m, (got >> sh) & m);
        if a == b {
            return true;
        }
        let nan = |v: u64| {
            let exp = (v >> (w - 1 - e)) & ((1 << e) - 1);
            exp == (1 << e) - 1 && v & ((1u64 << (w - 1 - e)) - 1) != 0
        };
        match check {
            Check::Exact => false,
            Check::Float => nan(a) && nan(b),
            Check::Ulp(n) => (nan(a) && nan(b)) || (!nan(a) && !nan(b) && ordinal_distance(a, b, w) <= n as u64),
            Check::Abs(eps) => {
                if nan(a) || nan(b) {
                    return nan(a) && nan(b);
                }
                let (x, y) = (crate::fp::to_f64(a, w, e), crate::fp::to_f64(b, w, e));
                if x.is_infinite() || y.is_infinite() {
                    return x == y;
                }
                (x - y).abs() <= eps || ordinal_distance(a, b, w) <= 1
            }
        }
    })
}

/// Distance between two float encodings of width `w` on the line that orders them.
fn ordinal_distance(a: u64, b: u64, w: u32) -> u64 {
    let sign = 1u64 << (w - 1);
    let ord = |v: u64| -> i128 {
        if v & sign != 0 {
            -((v & !sign) as i128)
        } else {
            v as i128
        }
    };
    (ord(a) - ord(b)).unsigned_abs() as u64
}
