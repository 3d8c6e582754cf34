//! Bit-field and byte-permute instructions (PTX ISA 9.7.1.17-20, 9.7.8.6-9): `bfe`,
//! `bfind`, `bfi`, `prmt`, `shf`, `lop3`, and the saturating packs `cvt.pack`.

use super::func::{FnLowerer, R};
use super::types::{bits, is_signed, Mods};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    /// `cvt.pack.sat.convertType.s32{.b32} d, a, b{, c}` (PTX ISA 9.7.9.22): `a` and `b`
    /// saturate to the `w`-bit convert type and pack as `(c << 2w) | (a << w) | b` (the
    /// upper bits of `d` are the low bits of `c`, or 0 without `c`).
    pub(crate) fn cvt_pack(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let (Some(&to), Some(&from)) = (m.types.first(), m.types.get(1)) else {
            return Err(self.err("cvt.pack needs a convert type and a source type"));
        };
        if !m.has(".sat") || bits(from) != 32 || !matches!(to, ScalarType::U(_) | ScalarType::S(_)) || bits(to) > 16 {
            return Err(self.err("cvt.pack takes .sat, an integer convert type of at most 16 bits and .s32 sources"));
        }
        let w = bits(to);
        let with_c = m.types.len() > 2;
        let ops = self.operands(ops, if with_c { 4 } else { 3 })?;
        let mask = (1u64 << w) - 1;
        let mut lanes = Vec::new();
        for op in &ops[1..3] {
            let v = self.src(op, from)?;
            let v = self.int_saturate(&v, from, to);
            let t = self.t();
            self.emit(format!("{t} = and i32 {v}, {mask}"));
            lanes.push(t);
        }
        let a = self.t();
        self.emit(format!("{a} = shl i32 {}, {w}", lanes[0]));
        let mut d = self.t();
        self.emit(format!("{d} = or i32 {a}, {}", lanes[1]));
        if with_c {
            let c = self.src(&ops[3], ScalarType::B(32))?;
            let cs = self.t();
            self.emit(format!("{cs} = shl i32 {c}, {}", 2 * w));
            let t = self.t();
            self.emit(format!("{t} = or i32 {d}, {cs}"));
            d = t;
        }
        self.dst(&ops[0], ScalarType::U(32), &d)
    }

    /// The position and length operands of `bfe`/`bfi` on a `w`-bit field, clamped to
    /// `w`. The 32-bit forms take pos and len modulo 256; the 64-bit forms use the whole
    /// 32-bit operands (as the H200 does, see ptx-conformance/hardware-check.md).
    fn bit_field(&mut self, pos: &str, len: &str, w: u32) -> (String, String) {
        let keep = if w == 64 { -1 } else { 255 };
        let (p8, l8) = (self.t(), self.t());
        self.emit(format!("{p8} = and i32 {pos}, {keep}"));
        self.emit(format!("{l8} = and i32 {len}, {keep}"));
        let (pc, lc) = (self.t(), self.t());
        self.emit(format!("{pc} = call i32 @llvm.umin.i32(i32 {p8}, i32 {w})"));
        self.emit(format!("{lc} = call i32 @llvm.umin.i32(i32 {l8}, i32 {w})"));
        (pc, lc)
    }

    /// `bfe` (PTX ISA 9.7.1.19): extract `len` bits at `pos`, sign-extending for .s types.
    pub(crate) fn bfe(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 4)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let a = self.src(&ops[1], ty)?;
        let pos = self.src(&ops[2], ScalarType::U(32))?;
        let len = self.src(&ops[3], ScalarType::U(32))?;
        let (pc, lc) = self.bit_field(&pos, &len, w);
        let pw = self.convert(&pc, ScalarType::U(32), ScalarType::U(w), false);
        let lw = self.convert(&lc, ScalarType::U(32), ScalarType::U(w), false);
        // Shift left so the field's top bit is the word's top bit, then shift right.
        let end = self.t();
        self.emit(format!("{end} = add {it} {pw}, {lw}"));
        let over = self.t();
        self.emit(format!("{over} = icmp ugt {it} {end}, {w}"));
        let endc = self.t();
        self.emit(format!("{endc} = select i1 {over}, {it} {w}, {it} {end}"));
        let lsh = self.t();
        self.emit(format!("{lsh} = sub {it} {w}, {endc}"));
        let x = self.t();
        // shl by w is poison: handle len == 0 / pos >= w separately below.
        self.emit(format!("{x} = shl {it} {a}, {lsh}"));
        // The field is [pos, end): shift its top bit back down to bit `end - pos - 1`.
        let rsh0 = self.t();
        self.emit(format!("{rsh0} = sub {it} {lsh}, 0"));
        let rsh = self.t();
        self.emit(format!("{rsh} = add {it} {rsh0}, {pw}"));
        let rshc = self.t();
        self.emit(format!("{rshc} = call {it} @llvm.umin.{it}({it} {rsh}, {it} {})", w - 1));
        let y = self.t();
        let shr = if is_signed(ty) { "ashr" } else { "lshr" };
        self.emit(format!("{y} = {shr} {it} {x}, {rshc}"));
        // Degenerate cases: len == 0 -> 0; pos >= width -> sign fill (signed) or 0.
        let lz = self.t();
        self.emit(format!("{lz} = icmp eq i32 {lc}, 0"));
        let pbig = self.t();
        self.emit(format!("{pbig} = icmp uge i32 {pc}, {w}"));
        let fill = if is_signed(ty) {
            let f = self.t();
            self.emit(format!("{f} = ashr {it} {a}, {}", w - 1));
            f
        } else {
            "0".to_string()
        };
        let r1 = self.t();
        self.emit(format!("{r1} = select i1 {pbig}, {it} {fill}, {it} {y}"));
        let r = self.t();
        self.emit(format!("{r} = select i1 {lz}, {it} 0, {it} {r1}"));
        self.dst(&ops[0], ty, &r)
    }

    /// `bfind` (PTX ISA 9.7.1.17): bit position of the most significant non-sign bit,
    /// 0xFFFFFFFF if none; `.shiftamt` returns the left shift that normalizes instead.
    pub(crate) fn bfind(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let a = self.src(&ops[1], ty)?;
        // For signed inputs, negative values search for the most significant 0 bit.
        let x = if is_signed(ty) {
            let s = self.t();
            self.emit(format!("{s} = ashr {it} {a}, {}", w - 1));
            let x = self.t();
            self.emit(format!("{x} = xor {it} {a}, {s}"));
            x
        } else {
            a
        };
        let lz = self.t();
        self.emit(format!("{lz} = call {it} @llvm.ctlz.{it}({it} {x}, i1 false)"));
        let lz32 = self.convert(&lz, ScalarType::U(w), ScalarType::U(32), false);
        let none = self.t();
        self.emit(format!("{none} = icmp eq {it} {x}, 0"));
        let pos = self.t();
        if m.has(".shiftamt") {
            self.emit(format!("{pos} = add i32 {lz32}, 0"));
        } else {
            self.emit(format!("{pos} = sub i32 {}, {lz32}", w - 1));
        }
        let r = self.t();
        self.emit(format!("{r} = select i1 {none}, i32 -1, i32 {pos}"));
        self.dst(&ops[0], ScalarType::U(32), &r)
    }

    /// `bfi` (PTX ISA 9.7.1.20): insert the low `len` bits of `a` into `b` at `pos`.
    pub(crate) fn bfi(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 5)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let pos = self.src(&ops[3], ScalarType::U(32))?;
        let len = self.src(&ops[4], ScalarType::U(32))?;
        let (pc, lc) = self.bit_field(&pos, &len, w);
        // mask = ((1 << len) - 1) << pos computed in double width to avoid poison.
        let w2 = 2 * w;
        let (p2, l2) = (self.t(), self.t());
        self.emit(format!("{p2} = zext i32 {pc} to i{w2}"));
        self.emit(format!("{l2} = zext i32 {lc} to i{w2}"));
        let one = self.t();
        self.emit(format!("{one} = shl i{w2} 1, {l2}"));
        let mk = self.t();
        self.emit(format!("{mk} = sub i{w2} {one}, 1"));
        let mks = self.t();
        self.emit(format!("{mks} = shl i{w2} {mk}, {p2}"));
        let mask = self.t();
        self.emit(format!("{mask} = trunc i{w2} {mks} to {it}"));
        let a2 = self.t();
        self.emit(format!("{a2} = zext {it} {a} to i{w2}"));
        let as_ = self.t();
        self.emit(format!("{as_} = shl i{w2} {a2}, {p2}"));
        let at = self.t();
        self.emit(format!("{at} = trunc i{w2} {as_} to {it}"));
        let ins = self.t();
        self.emit(format!("{ins} = and {it} {at}, {mask}"));
        let nm = self.t();
        self.emit(format!("{nm} = xor {it} {mask}, -1"));
        let keep = self.t();
        self.emit(format!("{keep} = and {it} {b}, {nm}"));
        let r = self.t();
        self.emit(format!("{r} = or {it} {keep}, {ins}"));
        self.dst(&ops[0], ty, &r)
    }

    /// `prmt.b32` default mode (PTX ISA 9.7.8.7): pick bytes of {b, a} by selector nibbles;
    /// bit 3 of a nibble replicates the picked byte's sign bit.
    pub(crate) fn prmt(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 4)?;
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::B(32))?;
        let c = self.src(&ops[3], ScalarType::B(32))?;
        // The modes pick a fixed byte selection by c[1:0]: turn that into the generic
        // selector (four nibbles, no sign replication) and share the generic path.
        // Each table row is d.b0..d.b3 for one value of c[1:0].
        let table: Option<[[u64; 4]; 4]> = m.flags.iter().find_map(|f| match *f {
            ".f4e" => Some([[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]]),
            ".b4e" => Some([[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]]),
            ".rc8" => Some([[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]),
            ".ecl" => Some([[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]]),
            ".ecr" => Some([[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]]),
            ".rc16" => Some([[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]]),
            _ => None,
        });
        let c = match table {
            None => c,
            Some(t) => {
                let mut packed = 0u64;
                for (s, row) in t.iter().enumerate() {
                    for (k, &x) in row.iter().enumerate() {
                        packed |= x << (16 * s + 4 * k);
                    }
                }
                let s = self.t();
                self.emit(format!("{s} = and i32 {c}, 3"));
                let s16 = self.t();
                self.emit(format!("{s16} = mul i32 {s}, 16"));
                let s64 = self.t();
                self.emit(format!("{s64} = zext i32 {s16} to i64"));
                let sh = self.t();
                self.emit(format!("{sh} = lshr i64 {packed}, {s64}"));
                let sel = self.t();
                self.emit(format!("{sel} = trunc i64 {sh} to i32"));
                let selm = self.t();
                self.emit(format!("{selm} = and i32 {sel}, 65535"));
                selm
            }
        };
        let (a64, b64) = (self.t(), self.t());
        self.emit(format!("{a64} = zext i32 {a} to i64"));
        self.emit(format!("{b64} = zext i32 {b} to i64"));
        let bh = self.t();
        self.emit(format!("{bh} = shl i64 {b64}, 32"));
        let src = self.t();
        self.emit(format!("{src} = or i64 {bh}, {a64}"));
        let mut acc = "0".to_string();
        for k in 0..4 {
            let sel = self.t();
            self.emit(format!("{sel} = lshr i32 {c}, {}", 4 * k));
            let idx = self.t();
            self.emit(format!("{idx} = and i32 {sel}, 7"));
            let sgn = self.t();
            self.emit(format!("{sgn} = and i32 {sel}, 8"));
            let sh = self.t();
            self.emit(format!("{sh} = mul i32 {idx}, 8"));
            let sh64 = self.t();
            self.emit(format!("{sh64} = zext i32 {sh} to i64"));
            let byte64 = self.t();
            self.emit(format!("{byte64} = lshr i64 {src}, {sh64}"));
            let byte = self.t();
            self.emit(format!("{byte} = trunc i64 {byte64} to i8"));
            let neg = self.t();
            self.emit(format!("{neg} = icmp slt i8 {byte}, 0"));
            let rep = self.t();
            self.emit(format!("{rep} = select i1 {neg}, i8 -1, i8 0"));
            let usesign = self.t();
            self.emit(format!("{usesign} = icmp ne i32 {sgn}, 0"));
            let pick = self.t();
            self.emit(format!("{pick} = select i1 {usesign}, i8 {rep}, i8 {byte}"));
            let pz = self.t();
            self.emit(format!("{pz} = zext i8 {pick} to i32"));
            let ps = self.t();
            self.emit(format!("{ps} = shl i32 {pz}, {}", 8 * k));
            let o = self.t();
            self.emit(format!("{o} = or i32 {acc}, {ps}"));
            acc = o;
        }
        self.dst(&ops[0], ScalarType::B(32), &acc)
    }

    /// `shf.{l,r}.{wrap,clamp}.b32` funnel shift (PTX ISA 9.7.8.9).
    pub(crate) fn shf(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 4)?;
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::B(32))?;
        let c = self.src(&ops[3], ScalarType::U(32))?;
        let n = if m.has(".clamp") {
            let t = self.t();
            self.emit(format!("{t} = call i32 @llvm.umin.i32(i32 {c}, i32 32)"));
            t
        } else {
            let t = self.t();
            self.emit(format!("{t} = and i32 {c}, 31"));
            t
        };
        // Concatenate {b:a} and shift in 64 bits so a shift by 32 is well defined.
        let (a64, b64) = (self.t(), self.t());
        self.emit(format!("{a64} = zext i32 {a} to i64"));
        self.emit(format!("{b64} = zext i32 {b} to i64"));
        let bh = self.t();
        self.emit(format!("{bh} = shl i64 {b64}, 32"));
        let cat = self.t();
        self.emit(format!("{cat} = or i64 {bh}, {a64}"));
        let n64 = self.t();
        self.emit(format!("{n64} = zext i32 {n} to i64"));
        let r = self.t();
        if m.has(".l") {
            let s = self.t();
            self.emit(format!("{s} = shl i64 {cat}, {n64}"));
            let h = self.t();
            self.emit(format!("{h} = lshr i64 {s}, 32"));
            self.emit(format!("{r} = trunc i64 {h} to i32"));
        } else {
            let s = self.t();
            self.emit(format!("{s} = lshr i64 {cat}, {n64}"));
            self.emit(format!("{r} = trunc i64 {s} to i32"));
        }
        self.dst(&ops[0], ScalarType::B(32), &r)
    }

    /// `lop3.b32 d, a, b, c, immLut` (PTX ISA 9.7.8.6): any 3-input boolean function.
    pub(crate) fn lop3(&mut self, _m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 5)?;
        let lut = match &ops[4] {
            Operand::Imm(Immediate::Int(v)) => (*v as u32) & 0xff,
            _ => return Err(self.err("lop3 needs an immediate lookup table")),
        };
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::B(32))?;
        let c = self.src(&ops[3], ScalarType::B(32))?;
        let (na, nb, nc) = (self.t(), self.t(), self.t());
        self.emit(format!("{na} = xor i32 {a}, -1"));
        self.emit(format!("{nb} = xor i32 {b}, -1"));
        self.emit(format!("{nc} = xor i32 {c}, -1"));
        let mut acc = "0".to_string();
        // Minterm k is set when bit k of the table is: a = 0xF0, b = 0xCC, c = 0xAA.
        for k in 0..8u32 {
            if lut & (1 << k) == 0 {
                continue;
            }
            let pa = if k & 4 != 0 { &a } else { &na };
            let pb = if k & 2 != 0 { &b } else { &nb };
            let pc = if k & 1 != 0 { &c } else { &nc };
            let (x, y, o) = (self.t(), self.t(), self.t());
            self.emit(format!("{x} = and i32 {pa}, {pb}"));
            self.emit(format!("{y} = and i32 {x}, {pc}"));
            self.emit(format!("{o} = or i32 {acc}, {y}"));
            acc = o;
        }
        self.dst(&ops[0], ScalarType::B(32), &acc)
    }

    /// `fns.b32 d, mask, base, offset` (PTX ISA 9.7.8.10): the bit position of the n-th
    /// set bit of `mask` counting from `base` upwards (offset > 0) or downwards (offset
    /// < 0); offset 0 asks whether bit `base` itself is set. 0xFFFFFFFF if none.
    pub(crate) fn fns(&mut self, _m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 4)?;
        let mk = self.src(&ops[1], ScalarType::B(32))?;
        let base0 = self.src(&ops[2], ScalarType::U(32))?;
        let off = self.src(&ops[3], ScalarType::S(32))?;
        let base = self.t();
        self.emit(format!("{base} = and i32 {base0}, 31"));
        let neg = self.t();
        self.emit(format!("{neg} = icmp slt i32 {off}, 0"));
        let noff = self.t();
        self.emit(format!("{noff} = sub i32 0, {off}"));
        let aoff = self.t();
        self.emit(format!("{aoff} = select i1 {neg}, i32 {noff}, i32 {off}"));
        // Upwards: the bits at and above base. Downwards: the bits at and below base,
        // reversed so that the search runs upwards too.
        let up = self.t();
        self.emit(format!("{up} = shl i32 -1, {base}"));
        let mup = self.t();
        self.emit(format!("{mup} = and i32 {mk}, {up}"));
        let rb = self.t();
        self.emit(format!("{rb} = sub i32 31, {base}"));
        let down = self.t();
        self.emit(format!("{down} = lshr i32 -1, {rb}"));
        let md = self.t();
        self.emit(format!("{md} = and i32 {mk}, {down}"));
        let mdr = self.t();
        self.emit(format!("{mdr} = call i32 @llvm.bitreverse.i32(i32 {md})"));
        let mut x = self.t();
        self.emit(format!("{x} = select i1 {neg}, i32 {mdr}, i32 {mup}"));
        let cnt = self.t();
        self.emit(format!("{cnt} = sub i32 {aoff}, 1"));
        // Clear the lowest set bit |offset| - 1 times, then the lowest left is the answer.
        for i in 0..32 {
            let c = self.t();
            self.emit(format!("{c} = icmp ult i32 {i}, {cnt}"));
            let dm = self.t();
            self.emit(format!("{dm} = sub i32 {x}, 1"));
            let y = self.t();
            self.emit(format!("{y} = and i32 {x}, {dm}"));
            let nx = self.t();
            self.emit(format!("{nx} = select i1 {c}, i32 {y}, i32 {x}"));
            x = nx;
        }
        let tz = self.t();
        self.emit(format!("{tz} = call i32 @llvm.cttz.i32(i32 {x}, i1 false)"));
        let rtz = self.t();
        self.emit(format!("{rtz} = sub i32 31, {tz}"));
        let pos = self.t();
        self.emit(format!("{pos} = select i1 {neg}, i32 {rtz}, i32 {tz}"));
        let none = self.t();
        self.emit(format!("{none} = icmp eq i32 {x}, 0"));
        let found = self.t();
        self.emit(format!("{found} = select i1 {none}, i32 -1, i32 {pos}"));
        // offset 0: base if bit base is set.
        let sh = self.t();
        self.emit(format!("{sh} = lshr i32 {mk}, {base}"));
        let bit = self.t();
        self.emit(format!("{bit} = trunc i32 {sh} to i1"));
        let z = self.t();
        self.emit(format!("{z} = select i1 {bit}, i32 {base}, i32 -1"));
        let zo = self.t();
        self.emit(format!("{zo} = icmp eq i32 {off}, 0"));
        let r = self.t();
        self.emit(format!("{r} = select i1 {zo}, i32 {z}, i32 {found}"));
        self.dst(&ops[0], ScalarType::B(32), &r)
    }

    /// The field width or position of `bmsk`/`szext`: `.clamp` limits it to 32, `.wrap`
    /// takes it modulo 32.
    fn width_mode(&mut self, m: &Mods, v: &str) -> String {
        let t = self.t();
        if m.has(".clamp") {
            self.emit(format!("{t} = call i32 @llvm.umin.i32(i32 {v}, i32 32)"));
        } else {
            self.emit(format!("{t} = and i32 {v}, 31"));
        }
        t
    }

    /// `bmsk.{clamp,wrap}.b32 d, a, b` (PTX ISA 9.7.8.11): `b` one-bits starting at bit `a`.
    pub(crate) fn bmsk(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ScalarType::U(32))?;
        let b = self.src(&ops[2], ScalarType::U(32))?;
        let (pos, w) = (self.width_mode(m, &a), self.width_mode(m, &b));
        // In 64 bits: 1 << 32 and a shift by 32 are defined there.
        let (p64, w64) = (self.t(), self.t());
        self.emit(format!("{p64} = zext i32 {pos} to i64"));
        self.emit(format!("{w64} = zext i32 {w} to i64"));
        let one = self.t();
        self.emit(format!("{one} = shl i64 1, {w64}"));
        let ones = self.t();
        self.emit(format!("{ones} = sub i64 {one}, 1"));
        let sh = self.t();
        self.emit(format!("{sh} = shl i64 {ones}, {p64}"));
        let r = self.t();
        self.emit(format!("{r} = trunc i64 {sh} to i32"));
        self.dst(&ops[0], ScalarType::B(32), &r)
    }

    /// `szext.{clamp,wrap}.{u32,s32} d, a, b` (PTX ISA 9.7.8.12): zero- or sign-extend
    /// the low `b` bits of `a`; 0 when `b` is 0.
    pub(crate) fn szext(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ScalarType::U(32))?;
        let w = self.width_mode(m, &b);
        let sh = self.t();
        self.emit(format!("{sh} = sub i32 32, {w}"));
        let shc = self.t();
        self.emit(format!("{shc} = call i32 @llvm.umin.i32(i32 {sh}, i32 31)"));
        let l = self.t();
        self.emit(format!("{l} = shl i32 {a}, {shc}"));
        let r = self.t();
        let op = if is_signed(ty) { "ashr" } else { "lshr" };
        self.emit(format!("{r} = {op} i32 {l}, {shc}"));
        let z = self.t();
        self.emit(format!("{z} = icmp eq i32 {w}, 0"));
        let d = self.t();
        self.emit(format!("{d} = select i1 {z}, i32 0, i32 {r}"));
        self.dst(&ops[0], ty, &d)
    }

    /// `dp4a.atype.btype d, a, b, c` and `dp2a.{lo,hi}.atype.btype` (PTX ISA 9.7.1.23/24):
    /// four byte products (dp4a) or two 16-bit x 8-bit products of `a`'s halves with the
    /// low (.lo) or high (.hi) bytes of `b`, summed with `c` modulo 2^32.
    pub(crate) fn dot(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        if m.types.len() < 2 {
            return Err(self.err(format!("{op} needs two types")));
        }
        let (at, bt) = (m.types[0], m.types[1]);
        let ct = if is_signed(at) || is_signed(bt) { ScalarType::S(32) } else { ScalarType::U(32) };
        let ops = self.operands(ops, 4)?;
        let a = self.src(&ops[1], at)?;
        let b = self.src(&ops[2], bt)?;
        let c = self.src(&ops[3], ct)?;
        // Field k of width w of x, extended to 32 bits by its type's signedness.
        let field = |l: &mut Self, x: &str, k: u32, w: u32, t: ScalarType| {
            let s = l.t();
            l.emit(format!("{s} = lshr i32 {x}, {}", k * w));
            let tr = l.t();
            l.emit(format!("{tr} = trunc i32 {s} to i{w}"));
            let e = l.t();
            let ext = if is_signed(t) { "sext" } else { "zext" };
            l.emit(format!("{e} = {ext} i{w} {tr} to i32"));
            e
        };
        let mut acc = c;
        let n = if op == "dp4a" { 4 } else { 2 };
        let boff = if m.has(".hi") { 2 } else { 0 };
        for k in 0..n {
            let (x, y) = if op == "dp4a" {
                (field(self, &a, k, 8, at), field(self, &b, k, 8, bt))
            } else {
                (field(self, &a, k, 16, at), field(self, &b, k + boff, 8, bt))
            };
            let p = self.t();
            self.emit(format!("{p} = mul i32 {x}, {y}"));
            let s = self.t();
            self.emit(format!("{s} = add i32 {acc}, {p}"));
            acc = s;
        }
        self.dst(&ops[0], ct, &acc)
    }
}
