//! Bit-field and byte-permute instructions (PTX ISA 9.7.1.17-20, 9.7.8.6-9): `bfe`,
//! `bfind`, `bfi`, `prmt`, `shf`, `lop3`.

use super::func::{FnLowerer, R};
use super::types::{bits, is_signed, Mods};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    /// `bfe` (PTX ISA 9.7.1.19): extract `len` bits at `pos`, sign-extending for .s types.
    pub(crate) fn bfe(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 4)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let a = self.src(&ops[1], ty)?;
        let pos = self.src(&ops[2], ScalarType::U(32))?;
        let len = self.src(&ops[3], ScalarType::U(32))?;
        // pos and len are taken modulo 256 and clamped to the width.
        let (p8, l8) = (self.t(), self.t());
        self.emit(format!("{p8} = and i32 {pos}, 255"));
        self.emit(format!("{l8} = and i32 {len}, 255"));
        let (pc, lc) = (self.t(), self.t());
        self.emit(format!("{pc} = call i32 @llvm.umin.i32(i32 {p8}, i32 {w})"));
        self.emit(format!("{lc} = call i32 @llvm.umin.i32(i32 {l8}, i32 {w})"));
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
        let (p8, l8) = (self.t(), self.t());
        self.emit(format!("{p8} = and i32 {pos}, 255"));
        self.emit(format!("{l8} = and i32 {len}, 255"));
        let (pc, lc) = (self.t(), self.t());
        self.emit(format!("{pc} = call i32 @llvm.umin.i32(i32 {p8}, i32 {w})"));
        self.emit(format!("{lc} = call i32 @llvm.umin.i32(i32 {l8}, i32 {w})"));
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
        if m.flags.iter().any(|f| matches!(*f, ".f4e" | ".b4e" | ".rc8" | ".ecl" | ".ecr" | ".rc16")) {
            return Err(self.err("prmt with a mode modifier is not supported yet"));
        }
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::B(32))?;
        let c = self.src(&ops[3], ScalarType::B(32))?;
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
}
