//! Control transfer: `bra`, `call` (PTX ISA 9.7.12), and the calls to functions a module
//! declares without a body (`vprintf`, `__assertfail`), which become neutral intrinsics.

use super::func::{FnLowerer, Local, R};
use super::types::{storage, Mods};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    pub(crate) fn bra(&mut self, i: &Instruction) -> R<()> {
        let target = match i.operands.first() {
            Some(Operand::Ident { name, .. }) => name.clone(),
            _ => return Err(self.err("bra needs a label")),
        };
        let bb = self.label_block(&target).cloned().ok_or_else(|| self.err(format!("undefined label '{target}'")))?;
        match &i.guard {
            None => self.emit_terminator(format!("br label %{bb}")),
            Some(g) => {
                let p = self.src(&Operand::Ident { name: g.predicate.clone(), component: None }, ScalarType::Pred)?;
                let next = self.new_block("fall");
                let (a, b) = if g.negated { (&next, &bb) } else { (&bb, &next) };
                self.emit_terminator(format!("br i1 {p}, label %{a}, label %{b}"));
                self.start_block(&next);
            }
        }
        Ok(())
    }

    /// `call` (PTX ISA 9.7.12.6). Every function takes `(ctx, returns..., params...)` as
    /// pointers to their `.param` storage; values in registers or immediates are spilled
    /// to a temporary so the callee sees the same layout.
    pub(crate) fn call(&mut self, _m: &Mods, ops: &[Operand]) -> R<()> {
        let callee_idx = ops.iter().position(|o| !matches!(o, Operand::List(_))).ok_or_else(|| self.err("call without a target"))?;
        let rets: &[Operand] = match callee_idx.checked_sub(1).and_then(|i| ops.get(i)) {
            Some(Operand::List(l)) => l,
            _ => &[],
        };
        let args: &[Operand] = match ops.get(callee_idx + 1) {
            Some(Operand::List(l)) => l,
            _ => &[],
        };
        let callee = match &ops[callee_idx] {
            Operand::Ident { name, .. } => name.clone(),
            _ => return Err(self.err("call target must be a name or a register")),
        };
        let mut ret_ptrs = Vec::new();
        let mut after = Vec::new();
        for r in rets {
            ret_ptrs.push(self.param_ptr(r, false, &mut after)?);
        }
        let mut arg_ptrs = Vec::new();
        for a in args {
            arg_ptrs.push(self.param_ptr(a, true, &mut after)?);
        }
        let target = match self.sig(&callee) {
            Some(sig) if sig.has_body => {
                if sig.n_returns != ret_ptrs.len() || sig.n_params != arg_ptrs.len() {
                    return Err(self.err(format!("call to '{callee}' has the wrong number of arguments")));
                }
                sig.ll.clone()
            }
            Some(_) => return self.extern_call(&callee, &ret_ptrs, &arg_ptrs, after),
            None => {
                // Indirect call through a register.
                let v = self.src(&ops[callee_idx], ScalarType::U(64))?;
                let t = self.t();
                self.emit(format!("{t} = inttoptr i64 {v} to ptr"));
                t
            }
        };
        let mut list = vec!["ptr %ctx".to_string()];
        list.extend(ret_ptrs.iter().chain(arg_ptrs.iter()).map(|p| format!("ptr {p}")));
        self.emit(format!("call void {target}({})", list.join(", ")));
        self.finish_call(after)
    }

    pub(crate) fn finish_call(&mut self, after: Vec<(String, Operand, ScalarType)>) -> R<()> {
        for (ptr, op, ty) in after {
            let t = self.t();
            self.emit(format!("{t} = load {}, ptr {ptr}", storage(ty)));
            self.dst(&op, ty, &t)?;
        }
        Ok(())
    }

    /// Calls to functions declared without a body: the CUDA runtime's device-side entry
    /// points that the host runtime provides.
    pub(crate) fn extern_call(&mut self, name: &str, rets: &[String], args: &[String], after: Vec<(String, Operand, ScalarType)>) -> R<()> {
        match name {
            "vprintf" if args.len() == 2 => {
                let (f, a) = (self.t(), self.t());
                self.emit(format!("{f} = load ptr, ptr {}", args[0]));
                self.emit(format!("{a} = load ptr, ptr {}", args[1]));
                let r = self.intrinsic("__ptx_vprintf", &format!("ptr {f}, ptr {a}"));
                if let Some(rp) = rets.first() {
                    self.emit(format!("store i32 {r}, ptr {rp}"));
                }
                self.finish_call(after)
            }
            // PTX ISA "System Calls": `malloc(size)` returns a pointer into the device
            // heap (null when it is exhausted), `free(ptr)` gives it back (CUDA C++
            // Programming Guide, "Dynamic Global Memory Allocation and Operations").
            "malloc" if args.len() == 1 => {
                let n = self.t();
                self.emit(format!("{n} = load i64, ptr {}", args[0]));
                let p = self.intrinsic("__ptx_malloc", &format!("i64 {n}"));
                if let Some(rp) = rets.first() {
                    self.emit(format!("store ptr {p}, ptr {rp}"));
                }
                self.finish_call(after)
            }
            "free" if args.len() == 1 => {
                let p = self.t();
                self.emit(format!("{p} = load ptr, ptr {}", args[0]));
                self.intrinsic("__ptx_free", &format!("ptr {p}"));
                self.finish_call(after)
            }
            // The device runtime's system call (`crate::devrt`): `(op, thread, a0..a7)`,
            // all 64-bit, returning 64 bits.
            crate::devrt::SYSCALL if !args.is_empty() && args.len() <= 10 => {
                let array = self.alloca("[10 x i64]", 8);
                for (k, a) in args.iter().enumerate() {
                    let (v, slot) = (self.t(), self.t());
                    self.emit(format!("{v} = load i64, ptr {a}"));
                    self.emit(format!("{slot} = getelementptr i64, ptr {array}, i64 {k}"));
                    self.emit(format!("store i64 {v}, ptr {slot}"));
                }
                for k in args.len()..10 {
                    let slot = self.t();
                    self.emit(format!("{slot} = getelementptr i64, ptr {array}, i64 {k}"));
                    self.emit(format!("store i64 0, ptr {slot}"));
                }
                let r = self.intrinsic("__ptx_devrt", &format!("ptr {array}"));
                if let Some(rp) = rets.first() {
                    self.emit(format!("store i64 {r}, ptr {rp}"));
                }
                self.finish_call(after)
            }
            // `cudaGraphSetConditional(handle, value)` (CUDA Programming Guide, "Conditional
            // Graph Nodes"; a built-in of NVIDIA's driver, which no library defines): the
            // driver's conditional handles are the device addresses of their 32-bit value
            // cells, read when the conditional node is evaluated after this kernel completes.
            crate::devrt::GRAPH_SET_CONDITIONAL if args.len() == 2 => {
                let (h, v) = (self.t(), self.t());
                self.emit(format!("{h} = load i64, ptr {}", args[0]));
                self.emit(format!("{v} = load i32, ptr {}", args[1]));
                let p = self.intrinsic("__ptx_ptr_global", &format!("i64 {h}"));
                self.emit(format!("store volatile i32 {v}, ptr {p}, align 4"));
                self.finish_call(after)
            }
            "__assertfail" => {
                // __assertfail(message, file, line, function, charSize).
                let mut vals = Vec::new();
                for (k, ty) in ["ptr", "ptr", "i32", "ptr"].into_iter().enumerate() {
                    match args.get(k) {
                        Some(p) => {
                            let v = self.t();
                            self.emit(format!("{v} = load {ty}, ptr {p}"));
                            vals.push(format!("{ty} {v}"));
                        }
                        None => vals.push(format!("{ty} {}", if ty == "ptr" { "null" } else { "0" })),
                    }
                }
                self.intrinsic("__ptx_assertfail", &vals.join(", "));
                let ret = self.ret_exit();
                self.emit_terminator(ret);
                Ok(())
            }
            _ => Err(self
                .err(format!("call to '{name}', which is declared but not defined in this module (link the module that defines it with cuLink*)"))),
        }
    }

    /// A pointer to the `.param` storage for one call argument or return value.
    pub(crate) fn param_ptr(&mut self, op: &Operand, is_arg: bool, after: &mut Vec<(String, Operand, ScalarType)>) -> R<String> {
        if let Operand::Ident { name, component: None } = op {
            match self.lookup(name).cloned() {
                Some(Local::Mem { ptr }) => return Ok(ptr),
                Some(Local::Reg { ty, .. }) => {
                    let tmp = self.alloca(&storage(ty), super::types::size_of(ty));
                    if is_arg {
                        let v = self.src(op, ty)?;
                        self.emit(format!("store {} {v}, ptr {tmp}", storage(ty)));
                    } else {
                        after.push((tmp.clone(), op.clone(), ty));
                    }
                    return Ok(tmp);
                }
                None => {}
            }
        }
        if is_arg {
            if let Operand::Imm(_) = op {
                let tmp = self.alloca("i64", 8);
                let v = self.src(op, ScalarType::B(64))?;
                self.emit(format!("store i64 {v}, ptr {tmp}"));
                return Ok(tmp);
            }
        }
        Err(self.err(format!("unsupported call operand {op:?}")))
    }
}
