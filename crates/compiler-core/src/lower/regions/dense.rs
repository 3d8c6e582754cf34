//! Which region kernels may get *dense* loops: an x loop of its own for every resume
//! point inside `k.region`, run in aligned chunks of threads and vectorized with masks
//! (`target/host/dense.rs`), instead of the x loop that switches to a region body per
//! thread.
//!
//! A kernel qualifies when each region is simple straight-line code: only the
//! instructions of [`SIMPLE_OPCODES`] (plain arithmetic, comparisons, conversions, weak
//! loads and stores, block barriers, `exit`/`ret`), no backward branch (no loop anywhere,
//! so no lockstep heads either), no warp collective: bodies the loop vectorizer can
//! if-convert (masked loads, stores, gathers and scatters). LLVM's cost model decides
//! whether to vectorize; the loops are not forced (`llvm.loop.vectorize.enable`), because
//! a forced loop that LLVM cannot vectorize prints a remark on the program's stderr.
//! Dense loops cost compile time (the bitonic benchmark's module: 0.13 s -> 0.31 s of
//! `ptxc` user time, about 3 ms per resume point), so a module hands them out from a
//! budget of [`DENSE_STATES_PER_MODULE`] resume points, kernel by kernel in module order
//! ([`DenseBudget`]): the extra compile time per module is bounded whatever its size
//! (`template_heavy.ptx`, 228 kernels, 62 dense resume points: within the noise of its
//! 5.5 s, `cpu-bench/RESULTS.md`).

use crate::ptx::ast::{Function, Instruction, Operand, Statement};
use std::collections::HashMap;

/// Resume points per module that may get dense loops (a kernel gets them for all its
/// resume points or for none). A bitonic sort of 1024 elements has 56 barriers (57
/// resume points); `cpu-bench/RESULTS.md` has the compile-time figures.
pub const DENSE_STATES_PER_MODULE: u32 = 64;

/// Opcodes a dense kernel may contain. Everything else (calls, atomics, fences,
/// collectives, textures, division, math functions, video instructions...) keeps a kernel
/// on the shared loop.
pub const SIMPLE_OPCODES: &[&str] = &[
    "add", "sub", "mul", "mad", "fma", "min", "max", "abs", "neg", "and", "or", "xor", "not", "cnot", "shl", "shr", "setp", "selp", "set", "slct",
    "mov", "cvt", "cvta", "ld", "st", "bra", "bar", "barrier", "exit", "ret", "shfl",
];

/// Modifiers that make a load or store strong (or volatile): LLVM keeps loops with such
/// accesses scalar, so their kernels gain nothing from dense loops.
const STRONG: &[&str] = &[".volatile", ".relaxed", ".acquire", ".release", ".mmio"];

/// Whether `i` is an instruction a dense loop can hold.
fn simple(i: &Instruction) -> bool {
    if !SIMPLE_OPCODES.contains(&i.opcode.as_str()) {
        return false;
    }
    match i.opcode.as_str() {
        "ld" | "st" => !i.modifiers.iter().any(|m| STRONG.contains(&m.as_str())),
        "bar" | "barrier" => super::is_block_barrier(i),
        // `mul.wide`, `mad.hi` etc. are plain arithmetic too; `brx` is not listed.
        _ => true,
    }
}

/// Whether kernel `f` is made of simple straight-line code (see the module docs): every
/// instruction simple and every branch forward, except the back edges of `wide_loops`
/// lockstep loops that run as wide strips (`widen`): their loops stay in their head's
/// region, which keeps its own x loop, so the other regions are straight-line.
pub(crate) fn straight_line(f: &Function, wide_loops: usize) -> bool {
    fn walk<'a>(body: &'a [Statement], order: &mut Vec<&'a Instruction>, labels: &mut HashMap<&'a str, usize>) {
        for s in body {
            match s {
                Statement::Label { name, .. } => {
                    labels.insert(name, order.len());
                }
                Statement::Instr(i) => order.push(i),
                Statement::Block(b) => walk(b, order, labels),
                _ => {}
            }
        }
    }
    let Some(body) = f.body.as_deref() else { return false };
    let (mut order, mut labels) = (Vec::new(), HashMap::new());
    walk(body, &mut order, &mut labels);
    let mut back_edges = 0;
    let forward = order.iter().enumerate().all(|(k, i)| {
        simple(i)
            && (i.opcode != "bra"
                || i.operands.iter().all(|o| match o {
                    // A branch to a label at or before it closes a loop.
                    Operand::Ident { name, .. } => match labels.get(name.as_str()) {
                        Some(&at) if at > k => true,
                        Some(_) => {
                            back_edges += 1;
                            true
                        }
                        None => false,
                    },
                    _ => false,
                }))
    });
    forward && back_edges <= wide_loops
}

/// The module's remaining budget of dense resume points.
pub(crate) struct DenseBudget {
    left: u32,
}

impl DenseBudget {
    pub(crate) fn new() -> DenseBudget {
        DenseBudget { left: DENSE_STATES_PER_MODULE }
    }

    /// Whether the kernel planned as `meta` (straight-line: `straight`) gets dense loops;
    /// charges its resume points to the budget if so. Kernels with few barriers have
    /// per-state loops of their own already (`target::host::has_own_loop`) and take none.
    pub(crate) fn take(&mut self, meta: &crate::lower::RegionMeta, straight: bool) -> bool {
        let states = meta.sites + 1;
        // Lockstep heads keep their own x loops, so each must have a wide strip.
        let heads_wide = meta.lockstep_states.iter().all(|s| meta.wide_strips.contains(s));
        let eligible = straight && !crate::target::host::has_own_loop(meta, 0) && heads_wide;
        let states = states - meta.lockstep_states.len() as u32;
        if !eligible || states > self.left {
            return false;
        }
        self.left -= states;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::ast::Directive;

    /// The kernel `k` with body `body` (registers declared).
    fn kernel(body: &str) -> Function {
        let ptx = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<4>;\n  .shared .align 4 .b32 sh[64];\n{body}\n  ret;\n}}\n"
        );
        let m = crate::ptx::parse(&ptx).unwrap_or_else(|e| panic!("{body}: {e:?}"));
        m.directives.into_iter().find_map(|d| if let Directive::Function(f) = d { Some(f) } else { None }).unwrap()
    }

    /// (body, straight-line?): what keeps a kernel off dense loops, one thing at a time.
    /// Full-mask collectives are split by the region plan (`warp_split`), so their
    /// deposits and reads run in dense loops too.
    const CASES: &[(&str, bool)] = &[
        ("  mov.u32 %r1, %tid.x;\n  bar.sync 0;\n  shl.b32 %r2, %r1, 2;\n  ld.shared.u32 %r3, [%r2];\n  st.shared.u32 [%r2+4], %r3;", true),
        ("  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra SKIP;\n  bar.sync 0;\nSKIP:\n  bar.sync 0;", true),
        ("  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 exit;\n  bar.sync 0;", true),
        ("TOP:\n  bar.sync 0;\n  add.s32 %r1, %r1, 1;\n  setp.lt.u32 %p1, %r1, 3;\n  @%p1 bra TOP;", false),
        ("  ld.volatile.shared.u32 %r3, [%r2];\n  bar.sync 0;", false),
        ("  ld.relaxed.gpu.global.u32 %r3, [%rd1];\n  bar.sync 0;", false),
        ("  atom.shared.add.u32 %r3, [%r2], 1;\n  bar.sync 0;", false),
        ("  bar.sync 0;\n  trap;", false),
        ("  bar.sync 0, 64;", false),
        ("  div.u32 %r3, %r2, %r1;\n  bar.sync 0;", false),
        ("  shfl.sync.bfly.b32 %r3, %r1, 1, 31, -1;\n  bar.sync 0;", true),
        ("  membar.cta;\n  bar.sync 0;", false),
    ];

    #[test]
    fn straight_line_kernels() {
        for &(body, want) in CASES {
            assert_eq!(straight_line(&kernel(body), 0), want, "{body}");
        }
    }

    /// A loop's back edge is allowed once per wide strip the kernel has.
    #[test]
    fn back_edges_of_wide_strips() {
        let one = "TOP:\n  add.s32 %r1, %r1, 1;\n  setp.lt.u32 %p1, %r1, 3;\n  @%p1 bra TOP;\n  bar.sync 0;";
        let two = format!("{one}\nTOP2:\n  add.s32 %r2, %r2, 1;\n  setp.lt.u32 %p2, %r2, 3;\n  @%p2 bra TOP2;");
        for (body, wide, want) in [(one, 0, false), (one, 1, true), (&two, 1, false), (&two, 2, true)] {
            assert_eq!(straight_line(&kernel(body), wide), want, "{wide} wide strips: {body}");
        }
    }
}
