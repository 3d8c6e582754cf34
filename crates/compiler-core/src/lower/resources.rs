//! What the driver reports of a kernel's resources besides shared memory
//! (`CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES` and `CU_FUNC_ATTRIBUTE_NUM_REGS`).
//!
//! - Constant bytes: every `.const` variable of the module, laid out one after another at
//!   its alignment (the module's user constant bank): NVIDIA's driver reports that bank for
//!   each kernel, whether the kernel reads it or not (measured on an H200, driver 580.159:
//!   80-, 12- and 8-byte variables give 104 for a kernel reading two and for one reading
//!   none).
//! - Registers: there is no register allocation on a CPU, so the count is an estimate from
//!   the PTX: the 32-bit register slots of the registers the kernel declares and uses (a
//!   64-bit register takes two, predicates none), plus those of the largest function it may
//!   call, which runs in the kernel's registers. ptxas reuses registers, so the real count
//!   of a large kernel is lower; the driver caps the estimate (`.maxnreg`,
//!   `CU_JIT_MAX_REGISTERS`, and what a full block leaves per thread).

use super::module::{mentioned_names, var_size};
use super::types::size_of;
use crate::ptx::ast::*;
use std::collections::{HashMap, HashSet};

/// The most registers a thread can have (PTX ISA 11.4.1, `.maxnreg`; CUDA's per-thread
/// limit on every architecture since sm_35).
pub const MAX_REGISTERS_PER_THREAD: u32 = 255;

/// The constant bytes each kernel of `m` reports (see the module docs).
pub(crate) fn const_bytes(m: &Module) -> u64 {
    let mut end = 0u64;
    for d in &m.directives {
        if let Directive::Variable(v) = d {
            if v.space == StateSpace::Const {
                let align = v.align.unwrap_or(size_of(v.ty) as u32).max(1) as u64;
                end = end.div_ceil(align) * align + var_size(v);
            }
        }
    }
    end
}

/// Register estimates of a module's kernels, remembering each function's used slots (a
/// function called by many kernels is counted once).
#[derive(Default)]
pub(crate) struct RegisterEstimates<'m> {
    slots: HashMap<&'m str, u32>,
}

impl<'m> RegisterEstimates<'m> {
    /// The estimated registers per thread of `kernel`, which reaches the functions named in
    /// `reached` (see the module docs), within its `.maxnreg` and
    /// [`MAX_REGISTERS_PER_THREAD`].
    pub(crate) fn estimate(&mut self, m: &'m Module, kernel: &'m Function, reached: &HashSet<String>) -> u32 {
        let callees = m.functions().filter(|f| f.name != kernel.name && reached.contains(&f.name)).map(|f| self.slots(f)).max().unwrap_or(0);
        let estimate = self.slots(kernel).saturating_add(callees);
        estimate.min(kernel.tuning.maxnreg.unwrap_or(MAX_REGISTERS_PER_THREAD)).min(MAX_REGISTERS_PER_THREAD)
    }

    fn slots(&mut self, f: &'m Function) -> u32 {
        *self.slots.entry(f.name.as_str()).or_insert_with(|| used_slots(f))
    }
}

/// The 32-bit register slots of the registers `f` declares and mentions.
fn used_slots(f: &Function) -> u32 {
    fn sum(body: &[Statement], used: &HashSet<&str>, indexed: &HashMap<&str, Vec<u32>>) -> u64 {
        body.iter()
            .map(|s| match s {
                Statement::Var(v) if v.space == StateSpace::Reg && v.ty != ScalarType::Pred => {
                    let slots = size_of(v.ty).div_ceil(4) * v.vector.unwrap_or(1) as u64;
                    let count = match v.count {
                        // `%r<N>` declares `%r0` .. `%r{N-1}`.
                        Some(n) => indexed.get(v.name.as_str()).map_or(0, |ix| ix.iter().filter(|&&i| i < n).count()) as u64,
                        None => used.contains(v.name.as_str()) as u64,
                    };
                    slots.saturating_mul(count)
                }
                Statement::Block(b) => sum(b, used, indexed),
                _ => 0,
            })
            .fold(0, u64::saturating_add)
    }
    let body = f.body.as_deref().unwrap_or(&[]);
    let mut used = HashSet::new();
    mentioned_names(body, &mut used);
    // Each mentioned `prefix<digits>` under its prefix, for the parameterized declarations.
    let mut indexed: HashMap<&str, Vec<u32>> = HashMap::new();
    for name in &used {
        let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
        let digits = &name[prefix.len()..];
        if let Ok(i) = digits.parse::<u32>() {
            if i.to_string() == digits {
                indexed.entry(prefix).or_default().push(i);
            }
        }
    }
    sum(body, &used, &indexed).min(u32::MAX as u64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(text: &str) -> Module {
        crate::ptx::parse(text).expect("test PTX parses")
    }

    fn register_estimate(m: &Module, name: &str) -> u32 {
        let kernel = m.functions().find(|f| f.name == name).expect("the kernel");
        let reached = super::super::shared_layout::reachable(m, std::iter::once(name));
        RegisterEstimates::default().estimate(m, kernel, &reached)
    }

    const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

    #[test]
    fn const_bytes_are_the_modules_constant_bank() {
        let m = module(&format!(
            "{HEADER}.const .align 8 .b8 table[80];\n.const .u32 other[3];\n.const .f64 unused;\n\
             .func (.param .u32 r) get() {{ .reg .u32 %r<2>; ld.const.u32 %r1, [other]; st.param.u32 [r], %r1; ret; }}\n\
             .entry k() {{ .reg .u64 %rd<2>; .reg .u32 %r<2>; mov.u64 %rd1, table; call (%r1), get, (); ret; }}\n\
             .entry plain() {{ ret; }}\n"
        ));
        // table (80), other (12) at 4-byte alignment, unused (8) at 8-byte alignment.
        assert_eq!(const_bytes(&m), 104);
    }

    #[test]
    fn registers_are_used_slots_within_the_limits() {
        let uses = |n: usize| (0..n).map(|i| format!("mov.b64 %rd{i}, {i};")).collect::<String>();
        let m = module(&format!(
            "{HEADER}.func f() {{ .reg .b64 %rd<4>; mov.b64 %rd1, 0; mov.b64 %rd3, %rd1; ret; }}\n\
             .entry k() {{ .reg .pred %p<9>; .reg .b32 %r<10>; .reg .f64 %fd<5>; .reg .b16 %rs<3>; .reg .b32 %unused;\n\
               setp.eq.u32 %p1, %r1, %r2; add.f64 %fd1, %fd2, %fd3; mov.b16 %rs1, 0; call f, (); ret; }}\n\
             .entry capped() .maxnreg 40 {{ .reg .b64 %rd<100>; {} ret; }}\n\
             .entry huge() {{ .reg .b64 %rd<1000>; {} ret; }}\n\
             .entry idle() {{ .reg .b64 %rd<1000>; ret; }}\n",
            uses(100),
            uses(1000)
        ));
        // The kernel's %r1, %r2 (1 each), %fd1..3 (2 each), %rs1 (1), no predicates and not
        // the unused registers, plus f's %rd1 and %rd3 (2 each).
        assert_eq!(register_estimate(&m, "k"), 9 + 4);
        assert_eq!(register_estimate(&m, "capped"), 40);
        assert_eq!(register_estimate(&m, "huge"), MAX_REGISTERS_PER_THREAD);
        assert_eq!(register_estimate(&m, "idle"), 0);
    }
}
