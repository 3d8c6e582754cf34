//! The PTX syntax tree.
//!
//! This is the contract between the parser (`ptx::parser`) and everything after it.
//! It is deliberately close to the text: instructions keep their opcode and dotted
//! modifiers as written (`ld` + `[".global", ".nc", ".v4", ".f32"]`), and the lowering
//! decodes them. That keeps the parser small and total (it accepts every instruction
//! shape the PTX ISA grammar allows, PTX ISA 9.x section 4 "Syntax") and puts the
//! knowledge of each instruction in one place, next to its semantics.

/// A position in the PTX source: 1-based line and column (in bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

/// A whole PTX module (one `.version` ... end of text).
#[derive(Clone, Debug)]
pub struct Module {
    /// `.version major.minor`.
    pub version: (u32, u32),
    /// `.target` entries, e.g. `["sm_80"]` or `["sm_80", "texmode_independent"]`.
    pub targets: Vec<String>,
    /// `.address_size` (64 if absent).
    pub address_size: u32,
    /// Lanes per warp: 32, or 64 when the module declares `.warp_size 64` (our extension
    /// for wave64 code, see ARCHITECTURE.md "Warp size"). `WARP_SZ` equals it, and every
    /// lane-mask operand has this many bits.
    pub warp_size: u32,
    /// Module-scope variables and functions in source order.
    pub directives: Vec<Directive>,
}

impl Module {
    /// The functions (kernels and `.func`s), in source order.
    pub fn functions(&self) -> impl Iterator<Item = &Function> {
        self.directives.iter().filter_map(|d| match d {
            Directive::Function(f) => Some(f),
            _ => None,
        })
    }
}

impl Default for Module {
    fn default() -> Self {
        Module { version: (0, 0), targets: Vec::new(), address_size: 64, warp_size: 32, directives: Vec::new() }
    }
}

/// A module-scope directive.
#[derive(Clone, Debug)]
pub enum Directive {
    Variable(VarDecl),
    Function(Function),
}

/// Linkage and visibility of a module-scope symbol (PTX ISA 5.4 "Linking directives").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Linkage {
    #[default]
    Internal,
    Visible,
    Extern,
    Weak,
    Common,
}

/// PTX state spaces (PTX ISA 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateSpace {
    Reg,
    Sreg,
    Const,
    Global,
    Local,
    Param,
    Shared,
    /// `.shared::cluster` / `.shared::cta` are reported as `Shared`; generic addressing has
    /// no space modifier at all.
    Generic,
    Tex,
}

/// PTX fundamental types (PTX ISA 5.2). Integer widths are kept as written so that
/// the non-standard widths SCALE's dialect allows (`.s17`) survive parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// `.b8` .. `.b128`
    B(u32),
    /// `.u8` .. `.u64`
    U(u32),
    /// `.s8` .. `.s64`
    S(u32),
    F16,
    F16x2,
    BF16,
    BF16x2,
    F32,
    F64,
    Pred,
    /// `.texref`, `.samplerref`, `.surfref`: opaque handles (PTX ISA 5.3). Module-scope
    /// `.global` texture and surface references are lowered as 64-bit variables holding
    /// the object the driver binds to them (`lower::module`); samplers are not lowered.
    Opaque(OpaqueKind),
}

/// Which opaque type a `.texref`/`.samplerref`/`.surfref` declaration names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpaqueKind {
    Texture,
    Sampler,
    Surface,
}

/// A variable or parameter declaration (PTX ISA 5.4 "Variables").
#[derive(Clone, Debug)]
pub struct VarDecl {
    pub span: Span,
    pub space: StateSpace,
    pub linkage: Linkage,
    /// `.align N` in bytes.
    pub align: Option<u32>,
    /// `.v2` / `.v4` / `.v8`.
    pub vector: Option<u32>,
    pub ty: ScalarType,
    /// `.ptr` attributes on kernel parameters (`.ptr.global.align 8`) are accepted; the
    /// state space part is kept here.
    pub ptr_space: Option<StateSpace>,
    pub name: String,
    /// Array dimensions; `None` for `[]` (size from the initializer, or extern/unsized).
    pub array: Vec<Option<u64>>,
    /// Parameterized register declarations `%r<100>` declare `%r0` .. `%r99`.
    pub count: Option<u32>,
    pub init: Option<Initializer>,
}

/// A variable initializer.
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    /// One value.
    Value(InitValue),
    /// `{ a, b, c }`, possibly nested for multi-dimensional arrays.
    List(Vec<Initializer>),
}

/// One scalar in an initializer.
#[derive(Clone, Debug, PartialEq)]
pub enum InitValue {
    Imm(Immediate),
    /// `sym`, `sym+off`, `generic(sym)+off` (the address of another variable or function).
    Address {
        symbol: String,
        generic: bool,
        offset: i64,
    },
}

/// `.entry` (kernel) or `.func` (device function).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    Entry,
    Func,
}

/// Performance-tuning directives on a function (PTX ISA 11.4).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tuning {
    pub maxntid: Option<[u32; 3]>,
    pub reqntid: Option<[u32; 3]>,
    pub minnctapersm: Option<u32>,
    pub maxnreg: Option<u32>,
    pub maxnctapersm: Option<u32>,
    /// `.noreturn` on a `.func`.
    pub noreturn: bool,
}

/// A kernel or device function; `body` is `None` for a prototype/declaration.
#[derive(Clone, Debug)]
pub struct Function {
    pub span: Span,
    pub kind: FunctionKind,
    pub linkage: Linkage,
    pub name: String,
    /// Return parameters of a `.func` (`.func (.param .b32 r) f(...)`).
    pub returns: Vec<VarDecl>,
    pub params: Vec<VarDecl>,
    pub tuning: Tuning,
    pub body: Option<Vec<Statement>>,
}

/// A statement in a function body.
#[derive(Clone, Debug)]
pub enum Statement {
    Label {
        name: String,
        span: Span,
    },
    Var(VarDecl),
    Instr(Instruction),
    /// A `{ ... }` scope; declarations inside are local to it.
    Block(Vec<Statement>),
    /// `.pragma "nounroll";` and other in-body directives kept for later passes.
    Pragma {
        text: String,
        span: Span,
    },
    /// `.callprototype` labels: `proto: .callprototype (.param .b32 _) _ (.param .b64 _);`
    CallPrototype {
        name: String,
        returns: Vec<VarDecl>,
        params: Vec<VarDecl>,
        span: Span,
    },
}

/// An instruction as written: `@!%p1 ld.global.nc.v2.f32 {%f1, %f2}, [%rd4+8];`.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub span: Span,
    /// The guard predicate `@%p` / `@!%p`.
    pub guard: Option<Guard>,
    /// The opcode without modifiers: `ld`, `mad`, `setp`, `bar`, `call`...
    pub opcode: String,
    /// Dotted modifiers in order, each with its leading dot and `::` parts intact:
    /// `[".global", ".nc", ".v2", ".f32"]`, `[".shared::cta"]`, `[".sync", ".aligned"]`.
    pub modifiers: Vec<String>,
    pub operands: Vec<Operand>,
}

/// `@p` or `@!p`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub negated: bool,
    pub predicate: String,
}

/// An instruction operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register or other identifier (variable, label, function name): `%r1`, `%tid`,
    /// `__cudart_table`, `$L__BB0_2`. `component` holds a vector/special-register suffix
    /// (`%tid.x` -> name `%tid`, component `Some('x')`).
    Ident { name: String, component: Option<char> },
    /// `!%p` (negated predicate source, e.g. in `vote`/`and.pred`).
    Not(Box<Operand>),
    /// `-%r1` is not valid PTX; immediates carry their own sign.
    Imm(Immediate),
    /// `[base]`, `[base+off]`, `[base+-off]`, `[imm]`.
    Address { base: AddressBase, offset: i64 },
    /// `{%r1, %r2, _}` vector operand (also used for `mov.b64 %rd, {%r1,%r2}` packing).
    Vector(Vec<Operand>),
    /// `(a, b, c)` lists in `call` and `.callprototype` uses.
    List(Vec<Operand>),
    /// `_` sink.
    Sink,
    /// `sym+off` outside brackets (e.g. `mov.u64 %rd1, arr+8;`).
    SymbolOffset { symbol: String, offset: i64 },
    /// A register with a video-instruction selector (PTX ISA 9.7.17): byte/half-word
    /// selects `%r.b0` `%r.h1`, SIMD selects `%r.h10` `%r.b7654`, masks `%r.b310`. `sel`
    /// is the selector without its dot (`b7654`).
    Select { name: String, sel: String },
    /// `-%r`: a negated source, which only `vmad` allows (PTX ISA 9.7.17.1 "vmad").
    Neg(Box<Operand>),
    /// `[handle, {c0, c1, ...}]` of texture and surface instructions (PTX ISA 9.7.10), with
    /// the sampler of the independent mode (`[tex, sampler, {...}]`) when there is one.
    Texture { handle: String, sampler: Option<Box<Operand>>, coords: Vec<Operand> },
}

/// Base of an address expression.
#[derive(Clone, Debug, PartialEq)]
pub enum AddressBase {
    /// A register or a named variable.
    Ident(String),
    /// An absolute address `[0x100]`.
    Imm(u64),
}

/// A literal (PTX ISA 4.5 "Constants").
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Immediate {
    /// Integer literal (decimal, hex `0x`, octal `0`, binary `0b`; optional `U` suffix),
    /// already negated if written with a leading `-`. Stored as i128 so that both
    /// `0xFFFFFFFFFFFFFFFF` and `-1` are representable.
    Int(i128),
    /// `0fXXXXXXXX` hex-float: the exact f32 bits.
    F32Bits(u32),
    /// `0dXXXXXXXXXXXXXXXX` hex-double: the exact f64 bits.
    F64Bits(u64),
    /// A decimal floating literal such as `1.5` or `1e-3` (PTX treats these as f64).
    Float(f64),
}
