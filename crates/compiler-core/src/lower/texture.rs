//! Texture and surface instructions (PTX ISA 9.7.10): `tex`, `tld4`, `txq`, `suld`, `sust`
//! and `suq` on texture and surface objects (the unified mode: the handle is a `.u64`
//! value) and on module-scope texture and surface references (`.global .texref`/
//! `.surfref` names: their variable holds the handle of the object the driver bound,
//! loaded at each use). Each becomes one call of the `__ptx_texture` intrinsic; its operand buffers and
//! `op` word are described in [`crate::texture_abi`], and the runtime does the addressing,
//! filtering and format conversion. The
//! independent mode's samplers, sparse results (`d|p`), `f16` results, depth compare,
//! offsets and formatted surface stores (`sust.p`) are refused with a compile error.

use std::fmt::Write;

use super::func::{FnLowerer, R};
use super::types::Mods;
use crate::diag::Diagnostic;
use crate::ptx::ast::*;
use crate::texture_abi::{self as abi, Op};

/// Whether element `k` of a geometry's coordinate vector is an integer even when the
/// coordinates are `.f32`: the array index of the layered geometries.
fn index_slot(geometry: u32, k: usize) -> bool {
    k == 0 && matches!(geometry, abi::GEOM_A1D | abi::GEOM_A2D | abi::GEOM_ACUBE)
}

/// The kind of a texture or surface reference variable (samplers are not references the
/// driver binds: `cuModuleGetTexRef`/`cuModuleGetSurfRef` name only these two).
pub(super) fn reference_kind(v: &VarDecl) -> Option<OpaqueKind> {
    match v.ty {
        ScalarType::Opaque(k @ (OpaqueKind::Texture | OpaqueKind::Surface)) => Some(k),
        _ => None,
    }
}

/// Emits a texture or surface reference: one 64-bit handle, unbound until the driver
/// binds it (CUDA Driver API "Texture Reference Management [DEPRECATED]").
/// `space` is the target's address space of global variables, `export_prefix` its
/// linkage prefix (`Target::export_prefix`).
pub(super) fn reference_var(v: &VarDecl, space: u32, export_prefix: &str, ir: &mut String) -> Result<(), Diagnostic> {
    if !v.array.is_empty() || v.init.is_some() || v.vector.is_some() {
        let what = "texture and surface references are supported as single names (no arrays, vectors or initializers)";
        return Err(Diagnostic::error(v.span, what).with_snippet(v.name.clone()));
    }
    let space = if space == 0 { String::new() } else { format!("addrspace({space}) ") };
    let unbound = crate::texture_abi::UNBOUND_REFERENCE as i64;
    let _ = writeln!(ir, "{} = {}{space}global i64 {unbound}, align 8", super::module::ll_global(&v.name), export_prefix);
    Ok(())
}

impl FnLowerer<'_> {
    /// `tex`, `tld4`, `txq`, `suld`, `sust`, `suq`.
    pub(crate) fn texture(&mut self, i: &Instruction) -> R<()> {
        let m = Mods::new(&i.modifiers);
        let ops = &i.operands;
        let what = format!("{}{}", i.opcode, i.modifiers.concat());
        let instr = match i.opcode.as_str() {
            "tex" => abi::INSTR_TEX,
            "tld4" => abi::INSTR_TLD4,
            "txq" => abi::INSTR_TXQ,
            "suld" => abi::INSTR_SULD,
            "sust" => abi::INSTR_SUST,
            _ => abi::INSTR_SUQ,
        };
        let mut op = Op { instr, geometry: 0, dtype: 0, int_coords: false, variant: 0, component: 0, elements: 1, clamp: 0, query: 0 };
        if matches!(instr, abi::INSTR_TXQ | abi::INSTR_SUQ) {
            return self.texture_query(&what, &m, ops, op);
        }
        op.geometry = match abi::GEOMETRIES.iter().position(|g| m.has(g)) {
            Some(g) => g as u32,
            None => return Err(self.err(format!("{what}: this geometry is not supported (1d, 2d, 3d, a1d, a2d, cube and acube are)"))),
        };
        match instr {
            abi::INSTR_TEX | abi::INSTR_TLD4 => self.texture_fetch(&what, &m, ops, op),
            _ => self.surface_access(&what, &m, ops, op),
        }
    }

    /// The handle, sampler and coordinates of a `[handle, {c...}]` operand.
    fn texture_operand<'o>(&self, what: &str, o: &'o Operand) -> R<(&'o str, &'o [Operand])> {
        match o {
            Operand::Texture { sampler: Some(_), .. } => {
                Err(self.err(format!("{what}: the independent texturing mode (a separate sampler) is not supported")))
            }
            Operand::Texture { handle, sampler: None, coords } => Ok((handle, coords)),
            Operand::Address { base: AddressBase::Ident(h), offset: 0 } => Ok((h, &[])),
            _ => Err(self.err(format!("{what}: expected a [handle, {{coordinates}}] operand"))),
        }
    }

    /// The 64-bit object handle `name` denotes: a register holding a texture or surface
    /// object, or a texture or surface reference (the object bound to it now).
    fn texture_handle(&mut self, what: &str, name: &str) -> R<String> {
        if let Some(super::func::Local::Reg { .. }) = self.lookup(name) {
            return self.src(&Operand::Ident { name: name.to_string(), component: None }, ScalarType::U(64));
        }
        if self.lookup(name).is_none() {
            if let Some(super::module::Symbol::Reference { ll }) = self.cx.symbols.get(name) {
                let ll = ll.clone();
                let v = self.t();
                self.emit(format!("{v} = load i64, ptr {ll}, align 8"));
                return Ok(v);
            }
        }
        Err(self.err(format!("{what}: '{name}' is neither a register holding a texture or surface object nor a texture or surface reference")))
    }

    /// Fills the argument buffer with `coords` (integers where `int_slot` says so, else
    /// `f32`) from slot `first` on.
    fn texture_args(&mut self, args: &str, first: usize, coords: &[Operand], int_slot: impl Fn(usize) -> bool) -> R<()> {
        for (k, c) in coords.iter().enumerate() {
            if matches!(c, Operand::Sink) {
                continue;
            }
            let slot = self.t();
            self.emit(format!("{slot} = getelementptr i32, ptr {args}, i32 {}", first + k));
            if int_slot(k) {
                let v = self.src(c, ScalarType::S(32))?;
                self.emit(format!("store i32 {v}, ptr {slot}"));
            } else {
                let v = self.src(c, ScalarType::F32)?;
                self.emit(format!("store float {v}, ptr {slot}"));
            }
        }
        Ok(())
    }

    /// The argument and data buffers of one call (`texture_abi`'s sizes), in the entry block.
    fn texture_buffers(&mut self) -> (String, String) {
        (self.alloca(&format!("[{} x i32]", abi::ARG_SLOTS), 4), self.alloca(&format!("[{} x i64]", abi::DATA_SLOTS), 8))
    }

    /// Emits the call; returns the call's result (the answer of a query).
    fn texture_call(&mut self, handle: &str, op: Op, args: &str, data: &str) -> String {
        self.intrinsic("__ptx_texture", &format!("i64 {handle}, i32 {}, ptr {args}, ptr {data}", op.encode() as i32))
    }

    /// Loads data slot `k` as `ty` (32-bit types from the slot's low half).
    fn texture_result(&mut self, data: &str, k: usize, ty: ScalarType) -> String {
        let slot = self.t();
        self.emit(format!("{slot} = getelementptr i64, ptr {data}, i32 {k}"));
        let v = self.t();
        match ty {
            ScalarType::F32 => self.emit(format!("{v} = load float, ptr {slot}")),
            ScalarType::U(64) | ScalarType::B(64) | ScalarType::S(64) => self.emit(format!("{v} = load i64, ptr {slot}")),
            _ => self.emit(format!("{v} = load i32, ptr {slot}")),
        }
        v
    }

    /// `tex{.level,.grad}.geom.v4.dtype.ctype d, [a, c]{, lod | , dPdx, dPdy}` and
    /// `tld4.comp.2d.v4.dtype.f32 d, [a, c]` (PTX ISA 9.7.10.3, 9.7.10.4).
    fn texture_fetch(&mut self, what: &str, m: &Mods, ops: &[Operand], mut op: Op) -> R<()> {
        let (dtype, ctype) = match m.types.as_slice() {
            [d, c] => (*d, *c),
            _ => return Err(self.err(format!("{what}: expected a result and a coordinate type"))),
        };
        op.dtype = match dtype {
            ScalarType::F32 => abi::DTYPE_F32,
            ScalarType::S(32) => abi::DTYPE_S32,
            ScalarType::U(32) => abi::DTYPE_U32,
            _ => return Err(self.err(format!("{what}: results of type {dtype:?} are not supported (f32, s32 and u32 are)"))),
        };
        op.int_coords = match ctype {
            ScalarType::F32 => false,
            ScalarType::S(32) => true,
            _ => return Err(self.err(format!("{what}: coordinates must be .f32 or .s32"))),
        };
        if m.vector() != Some(4) {
            return Err(self.err(format!("{what}: only .v4 results are supported")));
        }
        let extra = if m.has(".level") {
            op.variant = abi::VARIANT_LEVEL;
            1
        } else if m.has(".grad") {
            op.variant = abi::VARIANT_GRAD;
            2
        } else {
            0
        };
        if op.instr == abi::INSTR_TLD4 {
            op.component = match [".r", ".g", ".b", ".a"].iter().position(|c| m.has(c)) {
                Some(c) => c as u32,
                None => return Err(self.err(format!("{what}: missing the component (.r, .g, .b or .a)"))),
            };
        }
        if ops.len() != 2 + extra {
            return Err(self.err(format!("{what}: offsets, depth compare and sparse results are not supported")));
        }
        let dsts = match &ops[0] {
            Operand::Vector(d) if d.len() == 4 => d.clone(),
            _ => return Err(self.err(format!("{what}: expected a 4-register result vector"))),
        };
        let (handle_name, coords) = self.texture_operand(what, &ops[1])?;
        if coords.is_empty() || coords.len() > 4 {
            return Err(self.err(format!("{what}: expected 1 to 4 coordinates")));
        }
        let handle = self.texture_handle(what, handle_name)?;
        let (args, data) = self.texture_buffers();
        let (geometry, int_coords) = (op.geometry, op.int_coords);
        self.texture_args(&args, 0, coords, |k| int_coords || index_slot(geometry, k))?;
        match op.variant {
            abi::VARIANT_LEVEL => self.texture_args(&args, 4, std::slice::from_ref(&ops[2]), |_| false)?,
            abi::VARIANT_GRAD => {
                for (g, first) in [(&ops[2], 4), (&ops[3], 8)] {
                    let v = match g {
                        Operand::Vector(v) => v.as_slice(),
                        other => std::slice::from_ref(other),
                    };
                    self.texture_args(&args, first, &v[..v.len().min(4)], |_| false)?;
                }
            }
            _ => {}
        }
        self.texture_call(&handle, op, &args, &data);
        for (k, d) in dsts.iter().enumerate() {
            let v = self.texture_result(&data, k, dtype);
            self.dst(d, dtype, &v)?;
        }
        Ok(())
    }

    /// `suld.b.geom{.cop}.vec.btype.clamp d, [a, b]` and
    /// `sust.b.geom{.cop}.vec.btype.clamp [a, b], c` (PTX ISA 9.7.10.6, 9.7.10.7).
    fn surface_access(&mut self, what: &str, m: &Mods, ops: &[Operand], mut op: Op) -> R<()> {
        if m.has(".p") {
            return Err(self.err(format!("{what}: formatted surface stores (.p) are not supported; .b is")));
        }
        let ety = match m.types.as_slice() {
            [t] => *t,
            _ => return Err(self.err(format!("{what}: expected one element type (.b8 .. .b64)"))),
        };
        let bits = match ety {
            ScalarType::B(n) | ScalarType::U(n) | ScalarType::S(n) if matches!(n, 8 | 16 | 32 | 64) => n,
            _ => return Err(self.err(format!("{what}: element type must be .b8, .b16, .b32 or .b64"))),
        };
        op.dtype = bits.trailing_zeros() - 3;
        op.elements = m.vector().unwrap_or(1);
        if !matches!(op.elements, 1 | 2 | 4) {
            return Err(self.err(format!("{what}: vectors of 1, 2 or 4 elements only")));
        }
        op.clamp = if m.has(".clamp") {
            abi::CLAMP_CLAMP
        } else if m.has(".zero") {
            abi::CLAMP_ZERO
        } else {
            abi::CLAMP_TRAP
        };
        let (value, surface) = match op.instr {
            abi::INSTR_SULD if ops.len() == 2 => (&ops[0], &ops[1]),
            abi::INSTR_SUST if ops.len() == 2 => (&ops[1], &ops[0]),
            _ => return Err(self.err(format!("{what}: expected two operands"))),
        };
        let values: Vec<Operand> = match value {
            Operand::Vector(v) => v.clone(),
            one => vec![one.clone()],
        };
        if values.len() != op.elements as usize {
            return Err(self.err(format!("{what}: {} values for a vector of {}", values.len(), op.elements)));
        }
        let (handle_name, coords) = self.texture_operand(what, surface)?;
        if coords.is_empty() || coords.len() > 4 {
            return Err(self.err(format!("{what}: expected 1 to 4 coordinates")));
        }
        let handle = self.texture_handle(what, handle_name)?;
        let (args, data) = self.texture_buffers();
        self.texture_args(&args, 0, coords, |_| true)?;
        let wide = ScalarType::U(if bits == 64 { 64 } else { 32 });
        if op.instr == abi::INSTR_SUST {
            for (k, v) in values.iter().enumerate() {
                let x = self.src(v, ScalarType::U(bits))?;
                let x = self.convert(&x, ScalarType::U(bits), ScalarType::U(64), false);
                let slot = self.t();
                self.emit(format!("{slot} = getelementptr i64, ptr {data}, i32 {k}"));
                self.emit(format!("store i64 {x}, ptr {slot}"));
            }
            self.texture_call(&handle, op, &args, &data);
            return Ok(());
        }
        self.texture_call(&handle, op, &args, &data);
        for (k, d) in values.iter().enumerate() {
            let v = self.texture_result(&data, k, wide);
            self.dst(d, wide, &v)?;
        }
        Ok(())
    }

    /// `txq.query.b32 d, [a]` and `suq.query.b32 d, [a]` (PTX ISA 9.7.10.5, 9.7.10.9).
    fn texture_query(&mut self, what: &str, m: &Mods, ops: &[Operand], mut op: Op) -> R<()> {
        op.query = match abi::QUERIES.iter().position(|q| m.has(q)) {
            Some(q) => q as u32,
            None => return Err(self.err(format!("{what}: this query is not supported"))),
        };
        if ops.len() != 2 || m.has(".level") {
            return Err(self.err(format!("{what}: queries of mipmap levels are not supported")));
        }
        let (handle_name, _) = self.texture_operand(what, &ops[1])?;
        let handle = self.texture_handle(what, handle_name)?;
        let (args, data) = self.texture_buffers();
        let v = self.texture_call(&handle, op, &args, &data);
        self.dst(&ops[0], ScalarType::U(32), &v)
    }
}
