//! The contract of `__ptx_warp_matrix` between lowered code and a runtime: the warp-wide
//! matrix instructions `wmma.mma`, `mma` (PTX ISA 9.7.14 "Warp Level Matrix Multiply-
//! Accumulate Instructions"), `ldmatrix`, `stmatrix` and `movmatrix`.
//!
//! `void __ptx_warp_matrix(ctx, i32 site, ptr frag, i64 desc)` is a warp collective: every
//! lane of the warp calls it at the same site with its own *fragment buffer* `frag`, slots
//! of 8 bytes (a 32-bit register in the low half of its slot, a 64-bit one whole):
//! - `wmma.mma`/`mma`: the A registers, then B, then C, then D (the results), as many as
//!   [`Desc::regs`] says;
//! - `ldmatrix`/`stmatrix`: slot 0 the generic address of the row this lane names, then
//!   one slot per 8x8 matrix (the registers loaded or stored);
//! - `movmatrix`: slot 0 the source register, slot 1 the result.
//!
//! The runtime performs the warp's operation once every lane has deposited its buffer and
//! writes each lane's results into that lane's buffer before any lane returns.
//!
//! Fragments of `mma` have the layouts PTX ISA 9.7.14.5 gives ([`mma_element`]). `wmma`
//! fragments' layout is unspecified by PTX ("the mapping of matrix elements into fragment
//! elements is unspecified"); ours is [`wmma_element`], which `wmma.load`/`wmma.store`
//! follow in the lowering: element `e` of lane `l` is element `(l * E + e) mod (rows *
//! cols)` of the matrix in the fragment's order, which is the memory layout of the load for
//! A and B (so a lane's elements are contiguous in memory) and row-major for C and D
//! (`wmma.mma` does not name their layout).

/// The most slots a fragment buffer has: `wmma` fragments of up to 16 registers each.
pub const MAX_SLOTS: usize = 64;

/// Element types of matrix operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Elem {
    F16 = 0,
    Bf16,
    Tf32,
    F32,
    F64,
    S8,
    U8,
    S4,
    U4,
    B1,
    S32,
    E4m3,
    E5m2,
    B16,
}

const ELEMS: [Elem; 14] = [
    Elem::F16,
    Elem::Bf16,
    Elem::Tf32,
    Elem::F32,
    Elem::F64,
    Elem::S8,
    Elem::U8,
    Elem::S4,
    Elem::U4,
    Elem::B1,
    Elem::S32,
    Elem::E4m3,
    Elem::E5m2,
    Elem::B16,
];

impl Elem {
    /// The element type a PTX type modifier names (`.f16`, `.tf32`, ...).
    pub fn parse(m: &str) -> Option<Elem> {
        Some(match m {
            ".f16" => Elem::F16,
            ".bf16" => Elem::Bf16,
            ".tf32" => Elem::Tf32,
            ".f32" => Elem::F32,
            ".f64" => Elem::F64,
            ".s8" => Elem::S8,
            ".u8" => Elem::U8,
            ".s4" => Elem::S4,
            ".u4" => Elem::U4,
            ".b1" => Elem::B1,
            ".s32" => Elem::S32,
            ".e4m3" => Elem::E4m3,
            ".e5m2" => Elem::E5m2,
            ".b16" => Elem::B16,
            _ => return None,
        })
    }

    /// Bits of one element in memory and in registers.
    pub fn bits(self) -> u32 {
        match self {
            Elem::F16 | Elem::Bf16 | Elem::B16 => 16,
            Elem::Tf32 | Elem::F32 | Elem::S32 => 32,
            Elem::F64 => 64,
            Elem::S8 | Elem::U8 | Elem::E4m3 | Elem::E5m2 => 8,
            Elem::S4 | Elem::U4 => 4,
            Elem::B1 => 1,
        }
    }

    /// Bits of the registers holding elements of this type (64 for `.f64`, else 32).
    pub fn reg_bits(self) -> u32 {
        if self == Elem::F64 {
            64
        } else {
            32
        }
    }

    /// Elements packed in one register.
    pub fn per_reg(self) -> u32 {
        self.reg_bits() / self.bits()
    }

    pub fn is_int(self) -> bool {
        matches!(self, Elem::S8 | Elem::U8 | Elem::S4 | Elem::U4 | Elem::B1 | Elem::S32)
    }
}

/// Which instruction a call performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Operation {
    Wmma = 0,
    Mma,
    Ldmatrix,
    Stmatrix,
    Movmatrix,
}

const OPERATIONS: [Operation; 5] = [Operation::Wmma, Operation::Mma, Operation::Ldmatrix, Operation::Stmatrix, Operation::Movmatrix];

/// The matrix shapes (m, n, k) in `desc` order.
pub const SHAPES: [(u32, u32, u32); 16] = [
    (16, 16, 16),
    (8, 32, 16),
    (32, 8, 16),
    (16, 16, 8),
    (8, 8, 4),
    (8, 8, 32),
    (8, 8, 128),
    (16, 8, 16),
    (16, 8, 8),
    (16, 8, 4),
    (16, 8, 32),
    (16, 8, 64),
    (16, 8, 128),
    (16, 8, 256),
    (8, 8, 16),
    (8, 8, 8),
];

/// The shape index of a `.mMnNkK` modifier.
pub fn parse_shape(m: &str) -> Option<u8> {
    let rest = m.strip_prefix(".m")?;
    let (mm, rest) = rest.split_once('n')?;
    let (nn, kk) = rest.split_once('k')?;
    let s = (mm.parse().ok()?, nn.parse().ok()?, kk.parse().ok()?);
    SHAPES.iter().position(|x| *x == s).map(|p| p as u8)
}

/// The operands of a matrix multiply-accumulate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    A,
    B,
    C,
    D,
}

/// Everything a call's `desc` word says.
///
/// | bits | field |
/// |---|---|
/// | 0..3 | [`Operation`] |
/// | 3..8 | shape, [`SHAPES`] index |
/// | 8..24 | element types of A, B, C, D (4 bits each, [`Elem`]) |
/// | 24 | A column-major (`wmma`); `ldmatrix`/`stmatrix`: `.trans` |
/// | 25 | B column-major (`wmma`) |
/// | 26 | `.satfinite` |
/// | 27 | `.b1` products are `.and` (else `.xor`) |
/// | 28..48 | registers of A, B, C, D (5 bits each); `ldmatrix`/`stmatrix`: D is the matrix count |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desc {
    pub op: Operation,
    pub shape: u8,
    pub types: [Elem; 4],
    pub a_col: bool,
    pub b_col: bool,
    pub satfinite: bool,
    pub b1_and: bool,
    pub regs: [u8; 4],
}

impl Desc {
    pub fn encode(&self) -> u64 {
        let mut w = self.op as u64 | (self.shape as u64) << 3;
        for (k, t) in self.types.iter().enumerate() {
            w |= (*t as u64) << (8 + 4 * k);
        }
        w |= (self.a_col as u64) << 24 | (self.b_col as u64) << 25 | (self.satfinite as u64) << 26 | (self.b1_and as u64) << 27;
        for (k, r) in self.regs.iter().enumerate() {
            w |= ((*r as u64) & 31) << (28 + 5 * k);
        }
        w
    }

    pub fn decode(w: u64) -> Option<Desc> {
        let op = *OPERATIONS.get((w & 7) as usize)?;
        let shape = ((w >> 3) & 31) as u8;
        if shape as usize >= SHAPES.len() {
            return None;
        }
        let mut types = [Elem::F16; 4];
        for (k, t) in types.iter_mut().enumerate() {
            *t = *ELEMS.get(((w >> (8 + 4 * k)) & 15) as usize)?;
        }
        let bit = |b: u32| (w >> b) & 1 == 1;
        let mut regs = [0u8; 4];
        for (k, r) in regs.iter_mut().enumerate() {
            *r = ((w >> (28 + 5 * k)) & 31) as u8;
        }
        Some(Desc { op, shape, types, a_col: bit(24), b_col: bit(25), satfinite: bit(26), b1_and: bit(27), regs })
    }

    /// (m, n, k).
    pub fn mnk(&self) -> (u32, u32, u32) {
        SHAPES[self.shape as usize]
    }

    /// Rows and columns of operand `o`: A is m x k, B is k x n, C and D are m x n.
    pub fn dims(&self, o: Operand) -> (u32, u32) {
        let (m, n, k) = self.mnk();
        match o {
            Operand::A => (m, k),
            Operand::B => (k, n),
            Operand::C | Operand::D => (m, n),
        }
    }

    pub fn elem(&self, o: Operand) -> Elem {
        self.types[o as usize]
    }

    /// The first slot of operand `o` in the fragment buffer.
    pub fn slot(&self, o: Operand) -> usize {
        self.regs[..o as usize].iter().map(|r| *r as usize).sum()
    }

    /// Elements of operand `o` each lane holds.
    pub fn elements(&self, o: Operand) -> u32 {
        self.regs[o as usize] as u32 * self.elem(o).per_reg()
    }

    /// Whether operand `o`'s fragment is in column order (`wmma` A and B: their load's layout).
    pub fn column_order(&self, o: Operand) -> bool {
        match o {
            Operand::A => self.a_col,
            Operand::B => self.b_col,
            _ => false,
        }
    }

    /// (row, column) of element `e` of lane `lane`'s fragment of operand `o`, or `None`
    /// where this instruction form has no layout.
    pub fn element(&self, o: Operand, lane: u32, e: u32) -> Option<(u32, u32)> {
        match self.op {
            Operation::Wmma => Some(wmma_element(self.dims(o), self.elements(o), self.column_order(o), lane, e)),
            Operation::Mma => mma_element(self.mnk(), self.elem(Operand::A), o, lane, e),
            _ => None,
        }
    }
}

/// Our `wmma` fragment layout: element `e` of lane `lane` of a matrix of `dims` (rows,
/// columns) of which each lane holds `per_lane` elements, in column order or row order.
pub fn wmma_element(dims: (u32, u32), per_lane: u32, column_order: bool, lane: u32, e: u32) -> (u32, u32) {
    let (rows, cols) = dims;
    let idx = (lane * per_lane + e) % (rows * cols);
    if column_order {
        (idx % rows, idx / rows)
    } else {
        (idx / cols, idx % cols)
    }
}

/// The `mma` fragment layouts of PTX ISA 9.7.14.5.x ("Matrix Fragments for mma.m16n8k*" and
/// "mma.m8n8k4 with .f64"): `groupID = lane >> 2`, `threadID_in_group = lane % 4`.
/// `a_type` (the A and B element type) picks among the layouts of one shape.
pub fn mma_element(mnk: (u32, u32, u32), a_type: Elem, o: Operand, lane: u32, i: u32) -> Option<(u32, u32)> {
    let (g, t) = (lane >> 2, lane % 4);
    // The accumulators of every m16n8 shape: c0,c1 in row groupID, c2,c3 in groupID + 8.
    let acc16 = |i: u32| (g + 8 * (i / 2 % 2), t * 2 + (i & 1));
    let bits = a_type.bits();
    Some(match (mnk, o) {
        ((8, 8, 4), Operand::A) if a_type == Elem::F64 => (g, t),
        ((8, 8, 4), Operand::B) if a_type == Elem::F64 => (t, g),
        ((8, 8, 4), Operand::C | Operand::D) if a_type == Elem::F64 => (g, t * 2 + i),
        ((16, 8, _), Operand::C | Operand::D) => acc16(i),
        // m8n8k16 .s8, m8n8k32 .s4, m8n8k128 .b1: one register of A and B, two of C.
        ((8, 8, _), Operand::A) if bits < 32 => (g, t * (32 / bits) + i),
        ((8, 8, _), Operand::B) if bits < 32 => (t * (32 / bits) + i, g),
        ((8, 8, _), Operand::C | Operand::D) if bits < 32 => (g, t * 2 + i),
        // tf32: one element per register.
        ((16, 8, 4), Operand::A) if a_type == Elem::Tf32 => (g + 8 * i, t),
        ((16, 8, 4), Operand::B) if a_type == Elem::Tf32 => (t, g),
        ((16, 8, 8), Operand::A) if a_type == Elem::Tf32 => (g + 8 * (i % 2), t + 4 * (i / 2)),
        ((16, 8, 8), Operand::B) if a_type == Elem::Tf32 => (t + 4 * i, g),
        // Packed types: a register holds `p = 32 / bits` consecutive elements of a row of
        // A (a column of B); A's registers alternate rows groupID and groupID + 8, then
        // move on k by 4p; B's registers move on k by 4p.
        ((16, 8, k), Operand::A) if bits < 32 => {
            let p = 32 / bits;
            let reg = i / p;
            // k = 4p (m16n8k8 f16, m16n8k16 s8, m16n8k32 s4): registers a0 (row g) and a1 (row g + 8).
            let row = g + 8 * (reg % 2);
            let col = t * p + i % p + 4 * p * (reg / 2);
            if col >= k {
                return None;
            }
            (row, col)
        }
        ((16, 8, k), Operand::B) if bits < 32 => {
            let p = 32 / bits;
            let row = t * p + i % p + 4 * p * (i / p);
            if row >= k {
                return None;
            }
            (row, g)
        }
        _ => return None,
    })
}

/// Registers per lane of `mma` operand `o` for shape `mnk` with A/B elements `a_type` and
/// accumulator elements `c_type`, as PTX ISA 9.7.14.5 gives them.
pub fn mma_regs(mnk: (u32, u32, u32), a_type: Elem, c_type: Elem, o: Operand) -> u32 {
    let (m, n, k) = mnk;
    let (rows, cols) = match o {
        Operand::A => (m, k),
        Operand::B => (k, n),
        _ => (m, n),
    };
    let elem = if matches!(o, Operand::A | Operand::B) { a_type } else { c_type };
    // The elements of a fragment cover the matrix once over the 32 lanes.
    (rows * cols / 32).div_ceil(elem.per_reg())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn desc_round_trips() {
        let d = Desc {
            op: Operation::Mma,
            shape: parse_shape(".m16n8k16").unwrap(),
            types: [Elem::F16, Elem::Bf16, Elem::F32, Elem::E5m2],
            a_col: true,
            b_col: false,
            satfinite: true,
            b1_and: false,
            regs: [4, 2, 4, 16],
        };
        assert_eq!(Desc::decode(d.encode()), Some(d));
        assert_eq!(d.slot(Operand::C), 6);
        assert_eq!(d.mnk(), (16, 8, 16));
    }

    /// Every element of each operand is held by some lane, and (for `mma`) by exactly one.
    #[test]
    fn layouts_cover_their_matrices() {
        let cases: &[(&str, Elem, Elem)] = &[
            (".m16n8k16", Elem::F16, Elem::F32),
            (".m16n8k8", Elem::F16, Elem::F16),
            (".m16n8k8", Elem::Tf32, Elem::F32),
            (".m16n8k4", Elem::Tf32, Elem::F32),
            (".m16n8k32", Elem::S8, Elem::S32),
            (".m16n8k16", Elem::S8, Elem::S32),
            (".m16n8k64", Elem::S4, Elem::S32),
            (".m16n8k32", Elem::S4, Elem::S32),
            (".m16n8k32", Elem::E4m3, Elem::F32),
            (".m8n8k4", Elem::F64, Elem::F64),
            (".m8n8k16", Elem::S8, Elem::S32),
            (".m8n8k32", Elem::U4, Elem::S32),
            (".m8n8k128", Elem::B1, Elem::S32),
            (".m16n8k256", Elem::B1, Elem::S32),
        ];
        for (shape, a, c) in cases {
            let mnk = SHAPES[parse_shape(shape).unwrap() as usize];
            for o in [Operand::A, Operand::B, Operand::C] {
                let elem = if o == Operand::C { *c } else { *a };
                let regs = mma_regs(mnk, *a, *c, o);
                let (rows, cols) = match o {
                    Operand::A => (mnk.0, mnk.2),
                    Operand::B => (mnk.2, mnk.1),
                    _ => (mnk.0, mnk.1),
                };
                let mut seen = vec![0u32; (rows * cols) as usize];
                for lane in 0..32 {
                    for e in 0..regs * elem.per_reg() {
                        let (r, col) = mma_element(mnk, *a, o, lane, e).unwrap_or_else(|| panic!("{shape} {a:?} {o:?} {lane} {e}"));
                        assert!(r < rows && col < cols, "{shape} {a:?} {o:?} lane {lane} e {e}: ({r}, {col})");
                        seen[(r * cols + col) as usize] += 1;
                    }
                }
                assert!(seen.iter().all(|s| *s == 1), "{shape} {a:?} {o:?}: {seen:?}");
            }
        }
    }

    /// PTX ISA 9.7.14.5.8 (m16n8k16 `.f16`): a2 of lane 5 is row groupID + 8 = 9, column
    /// threadID_in_group * 2 = 2; a5 of lane 5 is row 1, column 2 + 1 + 8 = 11.
    #[test]
    fn m16n8k16_f16_matches_the_isa() {
        let mnk = (16, 8, 16);
        assert_eq!(mma_element(mnk, Elem::F16, Operand::A, 5, 2), Some((9, 2)));
        assert_eq!(mma_element(mnk, Elem::F16, Operand::A, 5, 5), Some((1, 11)));
        assert_eq!(mma_element(mnk, Elem::F16, Operand::B, 5, 3), Some((11, 1)));
        assert_eq!(mma_element(mnk, Elem::F16, Operand::C, 5, 3), Some((9, 3)));
    }

    #[test]
    fn wmma_layout_covers_with_duplicates() {
        // m16n16k16 .f16 A: 8 registers of 2 elements per lane, each element twice.
        let mut seen = [0u32; 256];
        for lane in 0..32 {
            for e in 0..16 {
                let (r, c) = wmma_element((16, 16), 16, false, lane, e);
                seen[(r * 16 + c) as usize] += 1;
            }
        }
        assert!(seen.iter().all(|s| *s == 2));
    }
}
