//! Operands: reading a source operand as a given PTX type, writing a destination with PTX's
//! relaxed type rules (PTX ISA 9.4.3 "Operand size exceeding instruction-type size"),
//! converting between register types, and turning an address operand of some state space
//! into an LLVM pointer.

use super::func::{FnLowerer, Local, R};
use super::module::Symbol;
use super::types::{bits, storage};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    /// Convert `v` from the storage type of `from` to the storage type of `to`.
    /// Integers are truncated or extended (sign-extended when `signed`).
    pub fn convert(&mut self, v: &str, from: ScalarType, to: ScalarType, signed: bool) -> String {
        let (a, b) = (storage(from), storage(to));
        if a == b {
            return v.to_string();
        }
        if from == ScalarType::Pred {
            let t = self.t();
            let int = format!("i{}", bits(to));
            self.emit(format!("{t} = zext i1 {v} to {int}"));
            return if b == int { t } else { self.bitcast(&t, &int, &b) };
        }
        if to == ScalarType::Pred {
            let iv = self.to_int(v, &a, bits(from));
            let t = self.t();
            self.emit(format!("{t} = icmp ne i{} {iv}, 0", bits(from)));
            return t;
        }
        let (fb, tb) = (bits(from), bits(to));
        let iv = self.to_int(v, &a, fb);
        let resized = if fb == tb {
            iv
        } else {
            let t = self.t();
            let op = if tb < fb {
                "trunc"
            } else if signed {
                "sext"
            } else {
                "zext"
            };
            self.emit(format!("{t} = {op} i{fb} {iv} to i{tb}"));
            t
        };
        let int = format!("i{tb}");
        if b == int {
            resized
        } else {
            self.bitcast(&resized, &int, &b)
        }
    }

    fn to_int(&mut self, v: &str, ty: &str, n: u32) -> String {
        if ty.starts_with('i') {
            v.to_string()
        } else {
            self.bitcast(v, ty, &format!("i{n}"))
        }
    }

    pub fn bitcast(&mut self, v: &str, from: &str, to: &str) -> String {
        if from == to {
            return v.to_string();
        }
        let t = self.t();
        self.emit(format!("{t} = bitcast {from} {v} to {to}"));
        t
    }

    /// Read a source operand as PTX type `ty`, in `storage(ty)`.
    pub fn src(&mut self, op: &Operand, ty: ScalarType) -> R<String> {
        match op {
            Operand::Imm(imm) => Ok(super::module::imm_text(imm, ty)),
            Operand::Ident { name, component } => {
                if let Some(v) = self.warp_constant(name, ty) {
                    return Ok(v);
                }
                if super::lanemask::is_lanemask_sreg(name) && self.lookup(name).is_none() {
                    return self.lanemask_src(name, ty);
                }
                if name.starts_with('%') && self.lookup(name).is_none() || component.is_some() {
                    if let Some(v) = self.special(name, *component)? {
                        return Ok(self.convert(&v, ScalarType::U(32), ty, false));
                    }
                }
                match self.lookup(name).cloned() {
                    Some(Local::Reg { ptr, ty: rty }) => {
                        let t = self.t();
                        self.emit(format!("{t} = load {}, ptr {ptr}", storage(rty)));
                        Ok(self.convert(&t, rty, ty, super::types::is_signed(rty)))
                    }
                    Some(Local::Mem { ptr }) => {
                        let t = self.t();
                        self.emit(format!("{t} = ptrtoint ptr {ptr} to i64"));
                        Ok(self.convert(&t, ScalarType::U(64), ty, false))
                    }
                    None => {
                        let v = self.symbol_value(name)?;
                        Ok(self.convert(&v, ScalarType::U(64), ty, false))
                    }
                }
            }
            Operand::SymbolOffset { symbol, offset } => {
                let v = match self.lookup(symbol).cloned() {
                    Some(Local::Mem { ptr }) => {
                        let t = self.t();
                        self.emit(format!("{t} = ptrtoint ptr {ptr} to i64"));
                        t
                    }
                    _ => self.symbol_value(symbol)?,
                };
                let t = self.t();
                self.emit(format!("{t} = add i64 {v}, {offset}"));
                Ok(self.convert(&t, ScalarType::U(64), ty, false))
            }
            Operand::Not(inner) => {
                let v = self.src(inner, ScalarType::Pred)?;
                let t = self.t();
                self.emit(format!("{t} = xor i1 {v}, true"));
                Ok(self.convert(&t, ScalarType::Pred, ty, false))
            }
            _ => Err(self.err(format!("unsupported operand form {op:?}"))),
        }
    }

    /// The address of a module-scope symbol as an i64 value of its own state space.
    fn symbol_value(&mut self, name: &str) -> R<String> {
        match self.cx.symbols.get(name) {
            Some(Symbol::Global { ll }) | Some(Symbol::Function { ll }) => {
                let t = self.t();
                self.emit(format!("{t} = ptrtoint ptr {ll} to i64"));
                Ok(t)
            }
            Some(Symbol::Shared { offset }) => Ok(offset.to_string()),
            Some(Symbol::Kernel { index }) => Ok(super::module::kernel_handle(*index).to_string()),
            Some(Symbol::Reference { .. }) => Err(self.err(format!("'{name}' is a texture or surface reference: it has no address (PTX ISA 5.3)"))),
            None => Err(self.err(self.cx.undefined_symbol(name))),
        }
    }

    /// Write `v` (in `storage(ty)`) to a destination operand.
    pub fn dst(&mut self, op: &Operand, ty: ScalarType, v: &str) -> R<()> {
        match op {
            Operand::Sink => Ok(()),
            Operand::Ident { name, component: None } => match self.lookup(name).cloned() {
                Some(Local::Reg { ptr, ty: rty }) => {
                    let c = self.convert(v, ty, rty, super::types::is_signed(ty));
                    self.emit(format!("store {} {c}, ptr {ptr}", storage(rty)));
                    Ok(())
                }
                _ => Err(self.err(format!("'{name}' is not a register"))),
            },
            _ => Err(self.err(format!("invalid destination operand {op:?}"))),
        }
    }

    /// The LLVM pointer an address operand denotes in state space `space`
    /// (generic for `None`).
    pub fn addr(&mut self, op: &Operand, space: Option<StateSpace>) -> R<String> {
        let (base, offset) = match op {
            Operand::Address { base, offset } => (base, *offset),
            _ => return Err(self.err("expected an address operand [..]")),
        };
        match base {
            AddressBase::Imm(a) => {
                let v = (*a as i64).wrapping_add(offset);
                Ok(self.int_to_ptr(&v.to_string(), space))
            }
            AddressBase::Ident(name) => match self.lookup(name).cloned() {
                Some(Local::Mem { ptr }) => Ok(self.gep(&ptr, offset)),
                Some(Local::Reg { ptr, ty }) => {
                    let t = self.t();
                    self.emit(format!("{t} = load {}, ptr {ptr}", storage(ty)));
                    // `[reg+imm]` adds at the register's width: a 32-bit address wraps
                    // modulo 2^32 before it is extended (nvcc folds `r - 84` then `[r+84]`
                    // into one shared-memory access).
                    let t = if offset != 0 && bits(ty) == 32 {
                        let w = self.t();
                        self.emit(format!("{w} = add i32 {t}, {}", offset as i32));
                        w
                    } else {
                        t
                    };
                    let v = self.convert(&t, ty, ScalarType::U(64), false);
                    let v = if offset != 0 && bits(ty) != 32 {
                        let t = self.t();
                        self.emit(format!("{t} = add i64 {v}, {offset}"));
                        t
                    } else {
                        v
                    };
                    Ok(self.int_to_ptr(&v, space))
                }
                None => match self.cx.symbols.get(name).cloned() {
                    Some(Symbol::Global { ll }) | Some(Symbol::Function { ll }) => Ok(self.gep(&ll, offset)),
                    Some(Symbol::Shared { offset: base }) => Ok(self.gep("%shared", base as i64 + offset)),
                    Some(Symbol::Kernel { .. }) => Err(self.err(format!("'{name}' is a kernel: its address is not memory"))),
                    Some(Symbol::Reference { .. }) => {
                        Err(self.err(format!("'{name}' is a texture or surface reference: it is no memory (PTX ISA 5.3)")))
                    }
                    None => Err(self.err(self.cx.undefined_symbol(name))),
                },
            },
        }
    }

    fn gep(&mut self, ptr: &str, offset: i64) -> String {
        if offset == 0 {
            return ptr.to_string();
        }
        let t = self.t();
        self.emit(format!("{t} = getelementptr i8, ptr {ptr}, i64 {offset}"));
        t
    }

    /// The pointer for address value `v` (an i64) of state space `space`.
    fn int_to_ptr(&mut self, v: &str, space: Option<StateSpace>) -> String {
        let via = match space {
            Some(StateSpace::Shared) => {
                let t = self.t();
                self.emit(format!("{t} = getelementptr i8, ptr %shared, i64 {v}"));
                return t;
            }
            Some(StateSpace::Global) => "__ptx_ptr_global",
            Some(StateSpace::Const) => "__ptx_ptr_const",
            Some(StateSpace::Local) => "__ptx_ptr_local",
            _ => {
                let t = self.t();
                self.emit(format!("{t} = inttoptr i64 {v} to ptr"));
                return t;
            }
        };
        self.intrinsic(via, &format!("i64 {v}"))
    }
}
