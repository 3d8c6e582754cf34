//! The warp matrix instructions (`ThreadCtx::warp_matrix`): `wmma.mma`, `mma`, `ldmatrix`,
//! `stmatrix` and `movmatrix` over the lanes' fragment buffers, as
//! `compiler_core::matrix_abi` lays them out.
//!
//! Every lane deposits its buffer's address through the warp exchange; the lowest lane that
//! arrived then performs the whole warp's operation, writing each lane's results into that
//! lane's buffer, and a second exchange keeps every lane (and its buffer) waiting until it
//! has. Lanes that did not arrive (a divergent `.aligned` instruction, undefined in PTX)
//! contribute zeros and receive nothing.
//!
//! Products of `.f16`, `.bf16`, `.tf32` and 8-bit float elements are exact in `f64`; they are
//! summed in `f64` and rounded once to the accumulator type, so results can differ from a
//! tensor core's in the last bits (PTX ISA 9.7.14.5.14 leaves the order and precision of
//! the accumulation unspecified). `.f64` accumulates with fused multiply-adds in `k` order;
//! integer products are exact, with `.satfinite` clamping to the `s32` range.

use compiler_core::host_abi::ThreadCtx;
use compiler_core::matrix_abi::{Desc, Elem, Operand, Operation};
use std::cell::RefCell;
use std::rc::Rc;

const WARP: usize = 32;
/// `.sync.aligned`: every lane of the warp takes part.
const FULL_WARP: u64 = 0xffff_ffff;
/// The largest A or B matrix of a float shape (32 x 16 or 16 x 32) and of an integer one
/// (16 x 64 `.s4`); `.b1` operands are kept as bit rows.
const MAX_OPERAND: usize = 1024;
/// The largest accumulator (16 x 16, 32 x 8, 8 x 32).
const MAX_ACC: usize = 256;

/// See `host_abi::WarpMatrixFn`.
///
/// # Safety
/// `ctx` is the calling GPU thread's context, in a kernel that runs as fibers; `frag`
/// holds the slots `desc` needs and stays valid until this returns.
pub(crate) unsafe extern "C" fn warp_matrix(ctx: *mut ThreadCtx, site: u32, frag: *mut u64, desc: u64) {
    // SAFETY: guaranteed by the caller; the exchange returns the warp's deposited values,
    // which are the arrived lanes' buffer addresses, all valid until the second exchange
    // completes (every lane waits there).
    unsafe {
        let exchange = (*ctx).warp_exchange;
        let mut arrived = 0u64;
        let vals = exchange(ctx, site, frag as u64, FULL_WARP, &mut arrived);
        let mut frags = [std::ptr::null_mut::<u64>(); WARP];
        for (lane, f) in frags.iter_mut().enumerate() {
            if arrived >> lane & 1 == 1 {
                *f = *vals.add(lane) as *mut u64;
            }
        }
        let me = lane_of(&*ctx);
        if me == arrived.trailing_zeros() as usize {
            match Desc::decode(desc) {
                // Products touch only the lanes' buffers: they run as runtime code (their
                // layout tables are allocated), not as generated code that may fault.
                Some(d) if matches!(d.op, Operation::Wmma | Operation::Mma) => {
                    crate::block::leave_kernel(ctx);
                    perform(&d, desc, &frags);
                    crate::block::enter_kernel(ctx);
                }
                Some(d) => perform(&d, desc, &frags),
                None => ((*ctx).trap)(ctx),
            }
        }
        let mut ignored = 0u64;
        exchange(ctx, site ^ 0x8000_0000, 0, FULL_WARP, &mut ignored);
    }
}

/// The calling thread's lane: its linear index in the block modulo the warp.
fn lane_of(ctx: &ThreadCtx) -> usize {
    let [x, y, z] = ctx.tid;
    let [nx, ny, _] = ctx.ntid;
    ((z * ny + y) * nx + x) as usize % WARP
}

/// Performs `d` for the lanes whose buffers are `frags` (null: the lane did not arrive).
///
/// # Safety
/// Each non-null buffer holds the slots `d` needs; the addresses in `ldmatrix`/`stmatrix`
/// slots are the program's (a bad one faults like the kernel's own access would).
unsafe fn perform(d: &Desc, desc: u64, frags: &[*mut u64; WARP]) {
    // SAFETY: forwarded.
    unsafe {
        match d.op {
            Operation::Wmma | Operation::Mma if d.elem(Operand::A) == Elem::B1 => multiply_bits(d, frags),
            Operation::Wmma | Operation::Mma => multiply(d, &layouts(d, desc), frags),
            Operation::Ldmatrix | Operation::Stmatrix => move_rows(d, frags),
            Operation::Movmatrix => transpose(frags),
        }
    }
}

/// The fragment layouts of one `desc`: for operands A, B, C and D, the matrix index
/// (`row * columns + column`) of each lane's elements (`lane * elements + e`), or
/// `u32::MAX` where the layout has none.
struct Layouts {
    desc: u64,
    index: [Vec<u32>; 4],
}

thread_local! {
    /// The layouts this thread has used, newest last (a program uses few shapes).
    static LAYOUTS: RefCell<Vec<Rc<Layouts>>> = const { RefCell::new(Vec::new()) };
}

/// The layouts of `d` (encoded as `desc`), computed once per thread.
fn layouts(d: &Desc, desc: u64) -> Rc<Layouts> {
    LAYOUTS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(l) = cache.iter().find(|l| l.desc == desc) {
            return l.clone();
        }
        let index = [Operand::A, Operand::B, Operand::C, Operand::D].map(|o| {
            let (_, cols) = d.dims(o);
            let per_lane = d.elements(o);
            (0..WARP as u32 * per_lane).map(|i| d.element(o, i / per_lane, i % per_lane).map_or(u32::MAX, |(r, c)| r * cols + c)).collect()
        });
        let l = Rc::new(Layouts { desc, index });
        if cache.len() == 16 {
            cache.remove(0);
        }
        cache.push(l.clone());
        l
    })
}

/// The element `e` of operand `o` in a lane's buffer, as raw bits (zero-extended).
///
/// # Safety
/// `frag` holds `d`'s slots.
unsafe fn element_bits(d: &Desc, frag: *const u64, o: Operand, e: u32) -> u64 {
    let elem = d.elem(o);
    let per = elem.per_reg();
    // SAFETY: the slot is among `d`'s.
    let reg = unsafe { *frag.add(d.slot(o) + (e / per) as usize) };
    let bits = elem.bits();
    if bits == 64 {
        reg
    } else {
        (reg >> ((e % per) * bits)) & ((1u64 << bits) - 1)
    }
}

/// The value of element bits `x` of type `t` (integers exactly).
fn value(t: Elem, x: u64) -> f64 {
    match t {
        Elem::F16 | Elem::B16 => half::f16::from_bits(x as u16).to_f64(),
        Elem::Bf16 => half::bf16::from_bits(x as u16).to_f64(),
        // A tensor core reads the top 19 bits of a `.tf32` operand (PTX ISA 5.2.3).
        Elem::Tf32 => f32::from_bits(x as u32 & 0xffff_e000) as f64,
        Elem::F32 => f32::from_bits(x as u32) as f64,
        Elem::F64 => f64::from_bits(x),
        Elem::S8 => x as u8 as i8 as f64,
        Elem::U8 => x as u8 as f64,
        Elem::S4 => (((x as u8) << 4) as i8 >> 4) as f64,
        Elem::U4 | Elem::B1 => x as f64,
        Elem::S32 => x as u32 as i32 as f64,
        // `.e5m2` is the upper byte of an `f16`.
        Elem::E5m2 => half::f16::from_bits((x as u16) << 8).to_f64(),
        Elem::E4m3 => e4m3(x as u8),
    }
}

/// An `.e4m3` value (PTX ISA 5.2.5: bias 7, no infinities, S.1111.111 is NaN).
fn e4m3(x: u8) -> f64 {
    let sign = if x & 0x80 != 0 { -1.0 } else { 1.0 };
    let (exp, mant) = ((x >> 3) & 15, (x & 7) as f64);
    if exp == 15 && x & 7 == 7 {
        return f64::NAN;
    }
    let magnitude = if exp == 0 { mant / 8.0 * 2f64.powi(-6) } else { (1.0 + mant / 8.0) * 2f64.powi(exp as i32 - 7) };
    sign * magnitude
}

/// The bits of `v` as an accumulator element of type `t`.
fn result_bits(t: Elem, v: f64, int: i64, satfinite: bool) -> u64 {
    match t {
        Elem::F16 => half::f16::from_f64(v).to_bits() as u64,
        Elem::F32 => (v as f32).to_bits() as u64,
        Elem::F64 => v.to_bits(),
        _ if satfinite => int.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32 as u64,
        _ => int as i32 as u32 as u64,
    }
}

/// `wmma.mma` and `mma` on non-`.b1` elements: D = A * B + C.
///
/// # Safety
/// As [`perform`].
unsafe fn multiply(d: &Desc, layouts: &Layouts, frags: &[*mut u64; WARP]) {
    let (m, n, k) = d.mnk();
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let mut a = [0f64; MAX_OPERAND];
    let mut b = [0f64; MAX_OPERAND];
    let mut c = [0f64; MAX_ACC];
    // SAFETY: forwarded.
    unsafe {
        gather(d, layouts, frags, Operand::A, &mut a);
        gather(d, layouts, frags, Operand::B, &mut b);
        gather(d, layouts, frags, Operand::C, &mut c);
    }
    let int = d.elem(Operand::A).is_int();
    let mut out = [0u64; MAX_ACC];
    for r in 0..m {
        let row = &a[r * k..r * k + k];
        for col in 0..n {
            let bits = if int {
                let sum: i64 = (0..k).map(|kk| row[kk] as i64 * b[kk * n + col] as i64).sum();
                result_bits(d.elem(Operand::D), 0.0, sum + c[r * n + col] as i64, d.satfinite)
            } else if d.elem(Operand::A) == Elem::F64 {
                let v = (0..k).fold(c[r * n + col], |acc, kk| row[kk].mul_add(b[kk * n + col], acc));
                result_bits(Elem::F64, v, 0, false)
            } else {
                let sum: f64 = (0..k).map(|kk| row[kk] * b[kk * n + col]).sum();
                result_bits(d.elem(Operand::D), sum + c[r * n + col], 0, false)
            };
            out[r * n + col] = bits;
        }
    }
    // SAFETY: forwarded.
    unsafe { scatter(d, layouts, frags, &out) };
}

/// Reads operand `o` of every arrived lane into `into` (row-major).
///
/// # Safety
/// As [`perform`].
unsafe fn gather(d: &Desc, layouts: &Layouts, frags: &[*mut u64; WARP], o: Operand, into: &mut [f64]) {
    let per_lane = d.elements(o) as usize;
    let index = &layouts.index[o as usize];
    let elem = d.elem(o);
    for (lane, f) in frags.iter().enumerate() {
        if f.is_null() {
            continue;
        }
        for e in 0..per_lane {
            let at = index[lane * per_lane + e];
            if at != u32::MAX {
                // SAFETY: forwarded.
                let x = unsafe { element_bits(d, *f, o, e as u32) };
                into[at as usize] = value(elem, x);
            }
        }
    }
}

/// Writes the D elements `out` (row-major bits) into every arrived lane's D registers.
///
/// # Safety
/// As [`perform`].
unsafe fn scatter(d: &Desc, layouts: &Layouts, frags: &[*mut u64; WARP], out: &[u64]) {
    let elem = d.elem(Operand::D);
    let (per, bits) = (elem.per_reg() as usize, elem.bits());
    let per_lane = d.elements(Operand::D) as usize;
    let index = &layouts.index[Operand::D as usize];
    let first = d.slot(Operand::D);
    for (lane, f) in frags.iter().enumerate() {
        if f.is_null() {
            continue;
        }
        // SAFETY: the D slots are among `d`'s.
        unsafe {
            for s in 0..d.regs[Operand::D as usize] as usize {
                *f.add(first + s) = 0;
            }
            for e in 0..per_lane {
                let at = index[lane * per_lane + e];
                if at != u32::MAX {
                    let slot = f.add(first + e / per);
                    let shift = if bits == 64 { 0 } else { (e % per) as u32 * bits };
                    *slot |= out[at as usize] << shift;
                }
            }
        }
    }
}

/// `.b1` products (PTX ISA 9.7.14.5.14: `.xor.popc` or `.and.popc`): D = popc(A op B) + C.
///
/// # Safety
/// As [`perform`].
unsafe fn multiply_bits(d: &Desc, frags: &[*mut u64; WARP]) {
    let (m, n, k) = d.mnk();
    let (m, n, k) = (m as usize, n as usize, k as usize);
    // Rows of A and columns of B as bit vectors of up to 256 bits.
    let mut a = [[0u64; 4]; 16];
    let mut b = [[0u64; 4]; 32];
    let mut c = [0f64; MAX_ACC];
    for (lane, f) in frags.iter().enumerate() {
        if f.is_null() {
            continue;
        }
        for (o, rows) in [(Operand::A, &mut a[..]), (Operand::B, &mut b[..])] {
            for e in 0..d.elements(o) {
                let Some((r, col)) = d.element(o, lane as u32, e) else { continue };
                // SAFETY: forwarded.
                let x = unsafe { element_bits(d, *f, o, e) };
                // A is indexed by row, B by column; the bit index is k.
                let (vector, bit) = if o == Operand::A { (r as usize, col as usize) } else { (col as usize, r as usize) };
                if x != 0 {
                    rows[vector][bit / 64] |= 1 << (bit % 64);
                }
            }
        }
    }
    let layouts = layouts(d, d.encode());
    // SAFETY: forwarded.
    unsafe { gather(d, &layouts, frags, Operand::C, &mut c) };
    let mut out = [0u64; MAX_ACC];
    for r in 0..m {
        for col in 0..n {
            let words = k.div_ceil(64);
            let pop: u32 = (0..words).map(|w| if d.b1_and { a[r][w] & b[col][w] } else { a[r][w] ^ b[col][w] }.count_ones()).sum();
            out[r * n + col] = result_bits(Elem::S32, 0.0, pop as i64 + c[r * n + col] as i64, false);
        }
    }
    // SAFETY: forwarded.
    unsafe { scatter(d, &layouts, frags, &out) };
}

/// `ldmatrix` and `stmatrix` `.m8n8.b16` (PTX ISA 9.7.14.5.15-16): matrix `i`'s rows are at
/// the addresses of lanes `8i..8i+8`; lane `t` holds elements `(t / 4, 2 (t % 4) + j)` in
/// register `i` (the transpose's with `.trans`).
///
/// # Safety
/// As [`perform`].
unsafe fn move_rows(d: &Desc, frags: &[*mut u64; WARP]) {
    let count = d.regs[Operand::D as usize] as usize;
    let load = d.op == Operation::Ldmatrix;
    for i in 0..count {
        for (t, f) in frags.iter().enumerate() {
            if f.is_null() {
                continue;
            }
            // SAFETY: slot `1 + i` is among the lane's; the row addresses are the program's.
            unsafe {
                let reg = f.add(1 + i);
                if load {
                    *reg = 0;
                }
                for j in 0..2 {
                    let (row, col) = if d.a_col { (2 * (t % 4) + j, t / 4) } else { (t / 4, 2 * (t % 4) + j) };
                    let owner = frags[8 * i + row];
                    if owner.is_null() {
                        continue;
                    }
                    let p = (*owner as usize + 2 * col) as *mut u16;
                    if load {
                        *reg |= (p.read_unaligned() as u64) << (16 * j);
                    } else {
                        p.write_unaligned((*reg >> (16 * j)) as u16);
                    }
                }
            }
        }
    }
}

/// `movmatrix.sync.aligned.m8n8.trans.b16` (PTX ISA 9.7.14.5.17): slot 0 holds the lane's
/// elements `(t / 4, 2 (t % 4) + j)`, slot 1 receives the transpose's.
///
/// # Safety
/// As [`perform`].
unsafe fn transpose(frags: &[*mut u64; WARP]) {
    let mut m = [[0u16; 8]; 8];
    for (t, f) in frags.iter().enumerate() {
        if !f.is_null() {
            // SAFETY: slot 0 is the lane's source register.
            let x = unsafe { **f };
            m[t / 4][2 * (t % 4)] = x as u16;
            m[t / 4][2 * (t % 4) + 1] = (x >> 16) as u16;
        }
    }
    for (t, f) in frags.iter().enumerate() {
        if !f.is_null() {
            let (r, c) = (t / 4, 2 * (t % 4));
            // SAFETY: slot 1 is the lane's result register.
            unsafe { *f.add(1) = m[c][r] as u64 | (m[c + 1][r] as u64) << 16 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e4m3_values() {
        assert_eq!(e4m3(0x38), 1.0);
        assert_eq!(e4m3(0x7e), 448.0);
        assert_eq!(e4m3(0x01), 2f64.powi(-9));
        assert!(e4m3(0x7f).is_nan());
        assert_eq!(e4m3(0xc0), -2.0);
    }
}
