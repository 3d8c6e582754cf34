//! What the driver reports of a kernel's resources besides shared memory
//! (`CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES` and `CU_FUNC_ATTRIBUTE_NUM_REGS`).
//!
//! - Constant bytes: every `.const` variable of the module, laid out one after another at
//!   its alignment (the module's user constant bank): NVIDIA's driver reports that bank for
//!   each kernel, whether the kernel reads it or not (measured on an H200, driver 580.159:
//!   80-, 12- and 8-byte variables give 104 for a kernel reading two and for one reading
//!   none).
//! - Registers: there is no register allocation on a CPU, so the count is an estimate from
//!   the PTX: the 32-bit register slots the kernel declares (a 64-bit register takes two,
//!   predicates none, a `%r<N>` declaration N registers), plus those of the largest function
//!   it may call, which runs in the kernel's registers. ptxas reuses registers, so the real
//!   count of a large kernel is lower; the driver caps the estimate (`.maxnreg`,
//!   `CU_JIT_MAX_REGISTERS`, and what a full block leaves per thread).

use super::module::var_size;
use super::shared_layout::reachable;
use super::types::size_of;
use crate::ptx::ast::*;

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

/// The estimated registers per thread of kernel `name` (see the module docs), within its
/// `.maxnreg` and [`MAX_REGISTERS_PER_THREAD`].
pub(crate) fn register_estimate(m: &Module, name: &str) -> u32 {
    let Some(kernel) = m.functions().find(|f| f.name == name) else { return 0 };
    let reached = reachable(m, std::iter::once(name));
    let callees = m.functions().filter(|f| f.name != name && reached.contains(&f.name)).map(declared_slots).max().unwrap_or(0);
    let estimate = declared_slots(kernel).saturating_add(callees);
    estimate.min(kernel.tuning.maxnreg.unwrap_or(MAX_REGISTERS_PER_THREAD)).min(MAX_REGISTERS_PER_THREAD) as u32
}

/// The 32-bit register slots `f` declares.
fn declared_slots(f: &Function) -> u32 {
    fn sum(body: &[Statement]) -> u64 {
        body.iter()
            .map(|s| match s {
                Statement::Var(v) if v.space == StateSpace::Reg && v.ty != ScalarType::Pred => {
                    let slots = size_of(v.ty).div_ceil(4) * v.vector.unwrap_or(1) as u64;
                    slots.saturating_mul(v.count.unwrap_or(1) as u64)
                }
                Statement::Block(b) => sum(b),
                _ => 0,
            })
            .fold(0, u64::saturating_add)
    }
    sum(f.body.as_deref().unwrap_or(&[])).min(u32::MAX as u64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(text: &str) -> Module {
        crate::ptx::parse(text).expect("test PTX parses")
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
    fn registers_are_declared_slots_within_the_limits() {
        let m = module(&format!(
            "{HEADER}.func f() {{ .reg .b64 %rd<4>; ret; }}\n\
             .entry k() {{ .reg .pred %p<9>; .reg .b32 %r<10>; .reg .f64 %fd<5>; .reg .b16 %rs<3>; call f, (); ret; }}\n\
             .entry capped() .maxnreg 40 {{ .reg .b64 %rd<100>; ret; }}\n\
             .entry huge() {{ .reg .b64 %rd<1000>; ret; }}\n"
        ));
        // 10 + 5 * 2 + 3 of the kernel, no predicates, plus f's 4 * 2.
        assert_eq!(register_estimate(&m, "k"), 31);
        assert_eq!(register_estimate(&m, "capped"), 40);
        assert_eq!(register_estimate(&m, "huge"), MAX_REGISTERS_PER_THREAD);
    }
}
