//! The contract of `__ptx_texture` between lowered code and a runtime: which texture or
//! surface instruction a call performs (the `op` word) and where its operands are.
//!
//! `i32 __ptx_texture(ctx, i64 handle, i32 op, ptr args, ptr data)`:
//! - `handle` is the texture or surface object (PTX ISA 5.3 "Texture, Sampler, and
//!   Surface Types": `.u64` handles in the unified mode);
//! - `args` points to [`ARG_SLOTS`] 32-bit slots: the coordinates in slots 0..4 (as the
//!   instruction's vector holds them: `f32` or `s32` bits; an array index first for
//!   layered geometries), the level of `tex.level` in slot 4, the gradients of `tex.grad`
//!   (`dPdx` then `dPdy`, 4 slots each) in slots 4..12;
//! - `data` points to 4 slots of 8 bytes: results of `tex`/`tld4`/`suld` (32-bit values in
//!   the low half of each slot, `.b64` surface elements whole), the values `sust` stores;
//! - the return value is the answer of `txq`/`suq` (0 otherwise).
//!
//! `op` bit fields:
//!
//! | bits | field |
//! |---|---|
//! | 0..4 | [`INSTR_TEX`] ... [`INSTR_SUQ`] |
//! | 4..8 | geometry, [`GEOMETRIES`] index |
//! | 8..10 | `tex`/`tld4` result type ([`DTYPE_F32`], [`DTYPE_S32`], [`DTYPE_U32`]); `suld`/`sust`: log2 of the element bytes |
//! | 10 | `tex`: integer coordinates (`.s32`) |
//! | 11..13 | `tex`: [`VARIANT_PLAIN`], [`VARIANT_LEVEL`], [`VARIANT_GRAD`] |
//! | 13..15 | `tld4`: the component gathered (r, g, b, a) |
//! | 16..19 | `suld`/`sust`: elements in the vector (1, 2, 4) |
//! | 19..21 | `suld`/`sust`: [`CLAMP_TRAP`], [`CLAMP_CLAMP`], [`CLAMP_ZERO`] |
//! | 16..24 | `txq`/`suq`: the query, [`QUERIES`] index |

pub const ARG_SLOTS: usize = 12;

/// The handle a texture or surface reference (`.global .texref`/`.surfref`, PTX ISA 5.3)
/// holds while nothing is bound to it: module load initializes references with it and the
/// driver writes it back when it unbinds one. An instruction on it reads zeros, stores
/// nothing and answers 0 to queries, as NVIDIA's driver does for unbound references
/// (measured on an H200, driver 580.159: `tex` and `suld.trap` read 0, the launch succeeds).
/// Not a multiple of 8, so never the address of an object.
pub const UNBOUND_REFERENCE: u64 = u64::MAX;
pub const DATA_SLOTS: usize = 4;

pub const INSTR_TEX: u32 = 0;
pub const INSTR_TLD4: u32 = 1;
pub const INSTR_TXQ: u32 = 2;
pub const INSTR_SULD: u32 = 3;
pub const INSTR_SUST: u32 = 4;
pub const INSTR_SUQ: u32 = 5;

/// Geometries in op order (PTX ISA 9.7.10.3 `tex`: `.1d .2d .3d .a1d .a2d .cube .acube`).
pub const GEOMETRIES: [&str; 7] = [".1d", ".2d", ".3d", ".a1d", ".a2d", ".cube", ".acube"];
pub const GEOM_1D: u32 = 0;
pub const GEOM_2D: u32 = 1;
pub const GEOM_3D: u32 = 2;
pub const GEOM_A1D: u32 = 3;
pub const GEOM_A2D: u32 = 4;
pub const GEOM_CUBE: u32 = 5;
pub const GEOM_ACUBE: u32 = 6;

pub const DTYPE_F32: u32 = 0;
pub const DTYPE_S32: u32 = 1;
pub const DTYPE_U32: u32 = 2;

pub const VARIANT_PLAIN: u32 = 0;
pub const VARIANT_LEVEL: u32 = 1;
pub const VARIANT_GRAD: u32 = 2;

pub const CLAMP_TRAP: u32 = 0;
pub const CLAMP_CLAMP: u32 = 1;
pub const CLAMP_ZERO: u32 = 2;

/// `txq`/`suq` queries in op order (PTX ISA 9.7.10.5 `txq`, 9.7.10.9 `suq`).
pub const QUERIES: [&str; 11] = [
    ".width",
    ".height",
    ".depth",
    ".channel_data_type",
    ".channel_order",
    ".normalized_coords",
    ".array_size",
    ".num_mipmap_levels",
    ".num_samples",
    ".filter_mode",
    ".addr_mode_0",
];

/// The fields of an `op` word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    pub instr: u32,
    pub geometry: u32,
    pub dtype: u32,
    pub int_coords: bool,
    pub variant: u32,
    pub component: u32,
    pub elements: u32,
    pub clamp: u32,
    pub query: u32,
}

impl Op {
    pub fn encode(&self) -> u32 {
        let low = self.instr | self.geometry << 4 | self.dtype << 8 | (self.int_coords as u32) << 10 | self.variant << 11 | self.component << 13;
        match self.instr {
            INSTR_TXQ | INSTR_SUQ => low | self.query << 16,
            _ => low | self.elements << 16 | self.clamp << 19,
        }
    }

    pub fn decode(op: u32) -> Op {
        let instr = op & 0xf;
        let query_form = matches!(instr, INSTR_TXQ | INSTR_SUQ);
        Op {
            instr,
            geometry: (op >> 4) & 0xf,
            dtype: (op >> 8) & 3,
            int_coords: (op >> 10) & 1 != 0,
            variant: (op >> 11) & 3,
            component: (op >> 13) & 3,
            elements: if query_form { 0 } else { (op >> 16) & 7 },
            clamp: if query_form { 0 } else { (op >> 19) & 3 },
            query: if query_form { (op >> 16) & 0xff } else { 0 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_words_round_trip() {
        let ops = [
            Op {
                instr: INSTR_TEX,
                geometry: GEOM_A2D,
                dtype: DTYPE_U32,
                int_coords: true,
                variant: VARIANT_GRAD,
                component: 0,
                elements: 0,
                clamp: 0,
                query: 0,
            },
            Op {
                instr: INSTR_TLD4,
                geometry: GEOM_2D,
                dtype: DTYPE_S32,
                int_coords: false,
                variant: 0,
                component: 3,
                elements: 0,
                clamp: 0,
                query: 0,
            },
            Op {
                instr: INSTR_SUST,
                geometry: GEOM_3D,
                dtype: 3,
                int_coords: false,
                variant: 0,
                component: 0,
                elements: 4,
                clamp: CLAMP_ZERO,
                query: 0,
            },
            Op { instr: INSTR_TXQ, geometry: 0, dtype: 0, int_coords: false, variant: 0, component: 0, elements: 0, clamp: 0, query: 10 },
        ];
        for op in ops {
            assert_eq!(Op::decode(op.encode()), op);
        }
    }
}
