//! Warp-level matrix instructions (PTX ISA 9.7.14): `wmma.load` and `wmma.store` become
//! per-lane loads and stores in our `wmma` fragment layout; `wmma.mma`, `mma`, `ldmatrix`,
//! `stmatrix` and `movmatrix` become one call of the collective `__ptx_warp_matrix` over a
//! fragment buffer. Layouts and the buffer are described in [`crate::matrix_abi`].

use super::func::{FnLowerer, R};
use crate::matrix_abi::{self as abi, Desc, Elem, Operation};
use crate::ptx::ast::*;

/// Whether `i` is a matrix instruction the lanes of a warp perform together.
pub(crate) fn is_collective(i: &Instruction) -> bool {
    match i.opcode.as_str() {
        "wmma" => i.modifiers.first().is_some_and(|m| m == ".mma"),
        "mma" | "ldmatrix" | "stmatrix" | "movmatrix" => true,
        _ => false,
    }
}

/// `wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32`: as written, for diagnostics.
fn spelled(i: &Instruction) -> String {
    format!("{}{}", i.opcode, i.modifiers.concat())
}

/// The registers of a `{r0, r1, ...}` operand (a single register counts as a vector of one).
fn regs(op: &Operand) -> Vec<&Operand> {
    match op {
        Operand::Vector(v) => v.iter().collect(),
        o => vec![o],
    }
}

fn has(i: &Instruction, m: &str) -> bool {
    i.modifiers.iter().any(|x| x == m)
}

impl FnLowerer<'_> {
    /// `wmma.load` and `wmma.store`.
    pub(crate) fn wmma_memory(&mut self, i: &Instruction) -> R<()> {
        let what = spelled(i);
        let store = has(i, ".store");
        let operand = if store {
            abi::Operand::D
        } else if has(i, ".a") {
            abi::Operand::A
        } else if has(i, ".b") {
            abi::Operand::B
        } else if has(i, ".c") {
            abi::Operand::C
        } else {
            return Err(self.err(format!("{what}: expected .a, .b or .c")));
        };
        let shape = i.modifiers.iter().find_map(|m| abi::parse_shape(m)).ok_or_else(|| self.err(format!("{what}: unknown shape")))?;
        let elem = i.modifiers.iter().rev().find_map(|m| Elem::parse(m)).ok_or_else(|| self.err(format!("{what}: missing element type")))?;
        let mem_col = has(i, ".col");
        let space = i.modifiers.iter().find_map(|m| super::types::space_of(m));
        let (frag_op, addr_op) = if store { (&i.operands.get(1), &i.operands.first()) } else { (&i.operands.first(), &i.operands.get(1)) };
        let (Some(frag), Some(addr)) = (frag_op, addr_op) else {
            return Err(self.err(format!("{what}: expected a fragment and an address")));
        };
        let frag = regs(frag);
        let mut desc =
            Desc { op: Operation::Wmma, shape, types: [elem; 4], a_col: mem_col, b_col: mem_col, satfinite: false, b1_and: false, regs: [0; 4] };
        desc.regs[operand as usize] = frag.len() as u8;
        let (rows, cols) = desc.dims(operand);
        let per_lane = desc.elements(operand);
        if per_lane == 0 || per_lane * 32 < rows * cols || !(per_lane * 32).is_multiple_of(rows * cols) || frag.len() > 16 {
            return Err(self.err(format!("{what}: a fragment of {} registers does not fit the shape", frag.len())));
        }
        let frag_col = desc.column_order(operand);
        if frag_col != mem_col && elem.bits() < 8 {
            return Err(self.err(format!("{what}: sub-byte elements must be loaded in the fragment's layout")));
        }
        let base = self.addr(addr, space)?;
        let stride = match i.operands.get(2) {
            Some(s) => {
                let v = self.src(s, ScalarType::U(32))?;
                self.value(format!("zext i32 {v} to i64"))
            }
            None => (if mem_col { rows } else { cols }).to_string(),
        };
        let lane = self.src(&Operand::Ident { name: "%laneid".into(), component: None }, ScalarType::U(32))?;
        let lane = self.value(format!("zext i32 {lane} to i64"));
        let first = self.value(format!("mul i64 {lane}, {per_lane}"));
        let (per, reg_bits, bits) = (elem.per_reg(), elem.reg_bits(), elem.bits());
        for (j, reg) in frag.iter().enumerate() {
            if frag_col == mem_col {
                // The register's elements are consecutive in memory.
                let p = self.matrix_element_ptr(&base, &first, j as u32 * per, (rows, cols), frag_col, mem_col, &stride, bits);
                if store {
                    let v = self.src(reg, ScalarType::B(reg_bits))?;
                    self.emit(format!("store i{reg_bits} {v}, ptr {p}, align 1"));
                } else {
                    let v = self.value(format!("load i{reg_bits}, ptr {p}, align 1"));
                    self.dst(reg, ScalarType::B(reg_bits), &v)?;
                }
                continue;
            }
            // An accumulator in column-major memory: element by element.
            let v = if store { Some(self.src(reg, ScalarType::B(reg_bits))?) } else { None };
            let mut acc = "0".to_string();
            for q in 0..per {
                let p = self.matrix_element_ptr(&base, &first, j as u32 * per + q, (rows, cols), frag_col, mem_col, &stride, bits);
                match &v {
                    Some(v) => {
                        let s = self.value(format!("lshr i{reg_bits} {v}, {}", q * bits));
                        let s = if bits < reg_bits { self.value(format!("trunc i{reg_bits} {s} to i{bits}")) } else { s };
                        self.emit(format!("store i{bits} {s}, ptr {p}, align 1"));
                    }
                    None => {
                        let x = self.value(format!("load i{bits}, ptr {p}, align 1"));
                        let x = if bits < reg_bits { self.value(format!("zext i{bits} {x} to i{reg_bits}")) } else { x };
                        let x = self.value(format!("shl i{reg_bits} {x}, {}", q * bits));
                        acc = self.value(format!("or i{reg_bits} {acc}, {x}"));
                    }
                }
            }
            if v.is_none() {
                self.dst(reg, ScalarType::B(reg_bits), &acc)?;
            }
        }
        Ok(())
    }

    /// The address of element `first + e` (modulo the matrix) of a fragment in column or
    /// row order, in memory of layout `mem_col` with `stride` elements between its rows
    /// (columns when column-major).
    #[allow(clippy::too_many_arguments)]
    fn matrix_element_ptr(
        &mut self,
        base: &str,
        first: &str,
        e: u32,
        dims: (u32, u32),
        frag_col: bool,
        mem_col: bool,
        stride: &str,
        bits: u32,
    ) -> String {
        let (rows, cols) = dims;
        let idx = self.value(format!("add i64 {first}, {e}"));
        let idx = self.value(format!("urem i64 {idx}, {}", rows * cols));
        let ld = if frag_col { rows } else { cols };
        let major = self.value(format!("udiv i64 {idx}, {ld}"));
        let minor = self.value(format!("urem i64 {idx}, {ld}"));
        // (row, col) in the fragment's order; the memory's order may be the other one.
        let (r, c) = if frag_col { (minor, major) } else { (major, minor) };
        let (outer, inner) = if mem_col { (c, r) } else { (r, c) };
        let off = self.value(format!("mul i64 {outer}, {stride}"));
        let off = self.value(format!("add i64 {off}, {inner}"));
        let off = if bits >= 8 { self.value(format!("mul i64 {off}, {}", bits / 8)) } else { self.value(format!("udiv i64 {off}, {}", 8 / bits)) };
        self.value(format!("getelementptr i8, ptr {base}, i64 {off}"))
    }

    /// `cvt.{rna,rn,rz}{.satfinite}.tf32.f32` (PTX ISA 9.7.9.21): the `.f32` rounded to the
    /// 10 fraction bits of `.tf32`, in a 32-bit register with the low 13 bits zero. NaN
    /// stays NaN.
    pub(crate) fn cvt_tf32(&mut self, m: &super::types::Mods, ops: &[Operand]) -> R<()> {
        let (Some(d), Some(a)) = (ops.first(), ops.get(1)) else {
            return Err(self.err("cvt.tf32.f32 needs a destination and a source"));
        };
        let x = self.src(a, ScalarType::B(32))?;
        // Round half away from zero (`.rna`), half to even (`.rn`) or toward zero (`.rz`) on
        // the magnitude bits: a carry out of the fraction moves the exponent up.
        let add = if m.has(".rna") {
            "4096".to_string()
        } else if m.has(".rn") {
            let odd = self.value(format!("lshr i32 {x}, 13"));
            let odd = self.value(format!("and i32 {odd}, 1"));
            self.value(format!("add i32 {odd}, 4095"))
        } else if m.has(".rz") {
            "0".to_string()
        } else {
            return Err(self.err("cvt.tf32.f32 needs .rna, .rn or .rz"));
        };
        let sum = self.value(format!("add i32 {x}, {add}"));
        let rounded = self.value(format!("and i32 {sum}, -8192"));
        let abs = self.value(format!("and i32 {x}, 2147483647"));
        let nan = self.value(format!("icmp ugt i32 {abs}, 2139095040"));
        let r = self.value(format!("select i1 {nan}, i32 {x}, i32 {rounded}"));
        self.dst(d, ScalarType::B(32), &r)
    }

    /// `wmma.mma`, `mma`, `ldmatrix`, `stmatrix`, `movmatrix`: fill the fragment buffer,
    /// meet the warp, read the results.
    pub(crate) fn warp_matrix(&mut self, i: &Instruction) -> R<()> {
        let what = spelled(i);
        let (desc, inputs, outputs, address) = match i.opcode.as_str() {
            "wmma" | "mma" => self.mma_desc(i, &what)?,
            _ => self.matrix_move_desc(i, &what)?,
        };
        let slots = inputs.len() + outputs.len() + address.is_some() as usize;
        if slots > abi::MAX_SLOTS {
            return Err(self.err(format!("{what}: {slots} fragment registers are more than {}", abi::MAX_SLOTS)));
        }
        let frag = match &self.matrix_buffer {
            Some(b) => b.clone(),
            None => {
                let b = self.alloca(&format!("[{} x i64]", abi::MAX_SLOTS), 8);
                self.matrix_buffer = Some(b.clone());
                b
            }
        };
        let mut slot = 0usize;
        if let Some(a) = address {
            let space = i.modifiers.iter().find_map(|m| super::types::space_of(m));
            let p = self.addr(a, space)?;
            let v = self.value(format!("ptrtoint ptr {p} to i64"));
            self.emit(format!("store i64 {v}, ptr {frag}, align 8"));
            slot = 1;
        }
        for (reg, bits) in &inputs {
            let v = self.src(reg, ScalarType::B(*bits))?;
            let v = if *bits == 64 { v } else { self.value(format!("zext i{bits} {v} to i64")) };
            let p = self.value(format!("getelementptr i64, ptr {frag}, i64 {slot}"));
            self.emit(format!("store i64 {v}, ptr {p}, align 8"));
            slot += 1;
        }
        let site = self.site();
        self.intrinsic("__ptx_warp_matrix", &format!("i32 {site}, ptr {frag}, i64 {}", desc.encode()));
        for (reg, bits) in &outputs {
            let p = self.value(format!("getelementptr i64, ptr {frag}, i64 {slot}"));
            let v = self.value(format!("load i64, ptr {p}, align 8"));
            let v = if *bits == 64 { v } else { self.value(format!("trunc i64 {v} to i{bits}")) };
            self.dst(reg, ScalarType::B(*bits), &v)?;
            slot += 1;
        }
        Ok(())
    }

    /// The description and the register operands (inputs A, B, C; outputs D) of `wmma.mma`
    /// or `mma`.
    #[allow(clippy::type_complexity)]
    fn mma_desc<'i>(&self, i: &'i Instruction, what: &str) -> R<(Desc, Vec<(&'i Operand, u32)>, Vec<(&'i Operand, u32)>, Option<&'i Operand>)> {
        let wmma = i.opcode == "wmma";
        if has(i, ".sp") || has(i, ".sp::ordered_metadata") || i.modifiers.iter().any(|m| m.starts_with(".kind") || m.starts_with(".block_scale")) {
            return Err(self.err(format!("{what}: sparse, block-scaled and .kind forms of mma are not supported")));
        }
        let shape = i.modifiers.iter().find_map(|m| abi::parse_shape(m)).ok_or_else(|| self.err(format!("{what}: unsupported shape")))?;
        let types: Vec<Elem> = i.modifiers.iter().filter_map(|m| Elem::parse(m)).collect();
        let [d, a, b, c] = match types[..] {
            [d, c] => [d, Elem::F16, Elem::F16, c],
            [d, a, b, c] => [d, a, b, c],
            _ => return Err(self.err(format!("{what}: expected the d, a, b and c types"))),
        };
        let layouts: Vec<bool> = i.modifiers.iter().filter(|m| *m == ".row" || *m == ".col").map(|m| m == ".col").collect();
        let (a_col, b_col) = match layouts[..] {
            [x, y] => (x, y),
            _ => return Err(self.err(format!("{what}: expected the a and b layouts"))),
        };
        let ops = &i.operands;
        if ops.len() != 4 {
            return Err(self.err(format!("{what}: expected d, a, b, c")));
        }
        let (rd, ra, rb, rc) = (regs(&ops[0]), regs(&ops[1]), regs(&ops[2]), regs(&ops[3]));
        let mut desc = Desc {
            op: if wmma { Operation::Wmma } else { Operation::Mma },
            shape,
            types: [a, b, c, d],
            a_col,
            b_col,
            satfinite: has(i, ".satfinite"),
            b1_and: has(i, ".and"),
            regs: [ra.len() as u8, rb.len() as u8, rc.len() as u8, rd.len() as u8],
        };
        if a != b && !(a.is_int() && b.is_int() || matches!((a, b), (Elem::E4m3 | Elem::E5m2, Elem::E4m3 | Elem::E5m2))) {
            return Err(self.err(format!("{what}: a and b types differ")));
        }
        let mnk = desc.mnk();
        for o in [abi::Operand::A, abi::Operand::B, abi::Operand::C, abi::Operand::D] {
            let n = desc.regs[o as usize] as u32;
            let (rows, cols) = desc.dims(o);
            let ok = if wmma {
                let e = desc.elements(o);
                e > 0 && e * 32 >= rows * cols && n <= 16
            } else {
                (0..32).all(|lane| (0..desc.elements(o)).all(|e| abi::mma_element(mnk, a, o, lane, e).is_some()))
                    && n == abi::mma_regs(mnk, a, desc.elem(o), o)
            };
            if !ok {
                return Err(self.err(format!("{what}: this shape and type combination is not supported ({o:?} has {n} registers)")));
            }
        }
        if !wmma {
            // `mma` is always `.row.col`; `a_col`/`b_col` mean nothing to its layouts.
            desc.a_col = false;
            desc.b_col = false;
        }
        let with = |v: Vec<&'i Operand>, e: Elem| v.into_iter().map(move |r| (r, e.reg_bits()));
        let inputs = with(ra, a).chain(with(rb, b)).chain(with(rc, c)).collect();
        let outputs = with(rd, d).collect();
        Ok((desc, inputs, outputs, None))
    }

    /// The description and operands of `ldmatrix`, `stmatrix` (PTX ISA 9.7.14.5.15-16) and
    /// `movmatrix` (9.7.14.5.17): only the `.m8n8` `.b16` forms.
    #[allow(clippy::type_complexity)]
    fn matrix_move_desc<'i>(
        &self,
        i: &'i Instruction,
        what: &str,
    ) -> R<(Desc, Vec<(&'i Operand, u32)>, Vec<(&'i Operand, u32)>, Option<&'i Operand>)> {
        if !has(i, ".m8n8") || !has(i, ".b16") {
            return Err(self.err(format!("{what}: only the .m8n8 .b16 forms are supported")));
        }
        let count = if has(i, ".x4") {
            4
        } else if has(i, ".x2") {
            2
        } else {
            1
        };
        let op = match i.opcode.as_str() {
            "ldmatrix" => Operation::Ldmatrix,
            "stmatrix" => Operation::Stmatrix,
            _ => Operation::Movmatrix,
        };
        let desc = Desc {
            op,
            shape: 0,
            types: [Elem::B16; 4],
            a_col: has(i, ".trans"),
            b_col: false,
            satfinite: false,
            b1_and: false,
            regs: [0, 0, 0, count],
        };
        let ops = &i.operands;
        let bad = || self.err(format!("{what}: expected {count} registers and an address"));
        Ok(match op {
            Operation::Ldmatrix => {
                let (Some(d), Some(a)) = (ops.first(), ops.get(1)) else { return Err(bad()) };
                let d = regs(d);
                if d.len() != count as usize {
                    return Err(bad());
                }
                (desc, vec![], d.into_iter().map(|r| (r, 32)).collect(), Some(a))
            }
            Operation::Stmatrix => {
                let (Some(a), Some(s)) = (ops.first(), ops.get(1)) else { return Err(bad()) };
                let s = regs(s);
                if s.len() != count as usize {
                    return Err(bad());
                }
                // The registers go where `ldmatrix` would put its results (slots 1..).
                (desc, s.into_iter().map(|r| (r, 32)).collect(), vec![], Some(a))
            }
            _ => {
                if !desc.a_col || ops.len() != 2 {
                    return Err(self.err(format!("{what}: expected movmatrix.sync.aligned.m8n8.trans.b16 d, a")));
                }
                let desc = Desc { regs: [0, 0, 0, 1], ..desc };
                (desc, vec![(&ops[1], 32)], vec![(&ops[0], 32)], None)
            }
        })
    }
}
