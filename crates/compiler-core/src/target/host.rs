//! The host target: the CPU device's code, run by `cpu-backend` through `host_abi`.
//!
//! `%ctx` is a `host_abi::ThreadCtx`: special registers and the shared window are loads
//! from it, barriers, traps, `printf` and warp collectives call the runtime through its
//! function pointers. Warp collectives deposit one value per lane through
//! `warp_exchange` and compute the result with vector IR over the module's 32 or 64 lanes. Every
//! definition is `alwaysinline`, so the code is what the lowering used to emit inline.
//!
//! Entry points: `k.block(params, ctx)` (for kernels without barriers or collectives)
//! loops over the block's threads so LLVM can vectorize across them; `k.thread(params,
//! ctx)` runs one GPU thread, for kernels with barriers that run as fibers; kernels cut
//! into barrier regions get `k.region` (and `k.region.S`) instead.

use super::{MemOrder, ModuleInfo, Scope, Target};
use crate::host_abi;
use crate::lower::intrinsics::{define_header, Intrinsic};
use crate::lower::{ll_global, KernelMeta, RegionMeta};
use std::fmt::Write;

mod dense;
mod dispatch;
mod specialize;

pub use specialize::{specialized_block_name, ShapeSpecialized};

/// The CPU device's target.
#[derive(Clone, Copy, Debug, Default)]
pub struct HostTarget;

/// The largest block the CPU device accepts in each dimension (its `max_block_dim`; the
/// driver refuses larger launches). The thread loops tell LLVM, so that thread-index
/// arithmetic provably does not wrap and addresses stay affine.
pub const MAX_BLOCK_DIM: [u32; 3] = [1024, 1024, 64];

/// Kernels with at most this many barriers also get a thread loop per resume point.
pub const MAX_SITES_WITH_LOOPS: u32 = 4;

/// Whether state `state` of a region kernel has a thread loop of its own (`k.region.S`):
/// every state of kernels with few barriers; the others run through `k.region`. (Lockstep
/// loop heads were tried with loops of their own: faster on the sums, but LLVM vectorizes
/// and unrolls such a loop behind a runtime alias check per save slot, and the code and
/// compile time of kernels with grid-stride loops nearly doubled. Worth another look once
/// region loops are known to be parallel.)
pub fn has_own_loop(meta: &RegionMeta, state: u32) -> bool {
    // A wide strip's loop exit is a stop each thread passes once: it neither counts
    // against the limit nor gets a loop (the dispatching loop runs it).
    let sites = meta.sites - meta.loop_exit_states.len() as u32;
    sites <= MAX_SITES_WITH_LOOPS && !meta.loop_exit_states.contains(&state)
}

/// The metadata node `!invariant.load` refers to (declared in `module_header`).
const INVARIANT_MD: u32 = 1_000_000;

impl Target for HostTarget {
    fn name(&self) -> &str {
        "host"
    }

    fn sync_scope(&self, _scope: Scope) -> &'static str {
        // Blocks run on several host threads at once: every scope is the system's.
        ""
    }

    /// Read-modify-writes and fences are `seq_cst` whatever PTX asks: on x86 that costs
    /// nothing over weaker orders, and code that leans on NVIDIA's stronger-than-specified
    /// behaviour keeps working.
    fn rmw_ordering(&self, _order: MemOrder) -> MemOrder {
        MemOrder::SeqCst
    }

    fn define_intrinsic(&self, i: &Intrinsic, module: &ModuleInfo) -> String {
        let name = i.name;
        let warp = module.warp_size;
        if let Some(reg) = name.strip_prefix("__ptx_sreg_") {
            let xyz = |s: &str| match s {
                "y" => 4,
                "z" => 8,
                _ => 0,
            };
            let field = match reg.split_once('_') {
                Some(("tid", c)) => Some(host_abi::OFFSET_TID + xyz(c)),
                Some(("ntid", c)) => Some(host_abi::OFFSET_NTID + xyz(c)),
                Some(("ctaid", c)) => Some(host_abi::OFFSET_CTAID + xyz(c)),
                Some(("nctaid", c)) => Some(host_abi::OFFSET_NCTAID + xyz(c)),
                _ if reg == "dynamic_smem_size" => Some(host_abi::OFFSET_DYNAMIC_SMEM),
                _ if reg == "total_smem_size" => Some(host_abi::OFFSET_TOTAL_SMEM),
                _ => None,
            };
            let h = define_header(i, &["ctx"]);
            return match (field, reg) {
                (Some(off), _) => format!("{h}\n  %p = getelementptr i8, ptr %ctx, i64 {off}\n  %v = load i32, ptr %p\n  ret i32 %v\n}}\n"),
                // Warps are consecutive runs of `warp` threads in linear thread order.
                (None, "laneid" | "warpid") => {
                    let (op, k) = if reg == "laneid" { ("and", warp - 1) } else { ("lshr", warp.trailing_zeros()) };
                    format!("{h}\n  %l = call i32 @__ptx_linear_tid(ptr %ctx)\n  %v = {op} i32 %l, {k}\n  ret i32 %v\n}}\n")
                }
                // Warp slots of a 1024-thread CTA.
                (None, "nwarpid") => format!("{h}\n  ret i32 {}\n}}\n", 1024 / warp),
                (None, "nsmid") => format!("{h}\n  ret i32 1\n}}\n"),
                _ => format!("{h}\n  ret i32 0\n}}\n"),
            };
        }
        match name {
            "__ptx_envreg" => format!(
                "{}\n  %pp = getelementptr i8, ptr %ctx, i64 {}\n  %p = load ptr, ptr %pp\n  %e = zext i32 %n to i64\n  %q = getelementptr i32, ptr %p, i64 %e\n  %v = load i32, ptr %q\n  ret i32 %v\n}}\n",
                define_header(i, &["ctx", "n"]),
                host_abi::OFFSET_ENVREG
            ),
            "__ptx_nanosleep" => format!(
                "{}\n  %fp = getelementptr i8, ptr %ctx, i64 {}\n  %f = load ptr, ptr %fp\n  call void %f(ptr %ctx, i32 %ns)\n  ret void\n}}\n",
                define_header(i, &["ctx", "ns"]),
                host_abi::OFFSET_SPIN_YIELD
            ),
            "__ptx_clock64" | "__ptx_globaltimer" => {
                format!("{}\n  %v = call i64 @llvm.readcyclecounter()\n  ret i64 %v\n}}\n", define_header(i, &["ctx"]))
            }
            "__ptx_shared_base" => format!(
                "{}\n  %p = getelementptr i8, ptr %ctx, i64 {}\n  %v = load ptr, ptr %p\n  ret ptr %v\n}}\n",
                define_header(i, &["ctx"]),
                host_abi::OFFSET_SHARED
            ),
            // `.global` and `.const` addresses are host addresses. They are formed as an
            // offset from an opaque base (null at run time, but LLVM cannot know) instead of
            // `inttoptr`, so scalar evolution sees through them and the thread loop can
            // vectorize; the base is not null-based, so alias analysis stays sound next to
            // shared memory.
            "__ptx_ptr_global" | "__ptx_ptr_const" => format!(
                "{}\n  %b = load ptr, ptr @__ptx_global_base, align 8, !invariant.load !{INVARIANT_MD}\n  %p = getelementptr i8, ptr %b, i64 %a\n  ret ptr %p\n}}\n",
                define_header(i, &["a"])
            ),
            "__ptx_ptr_local" => format!("{}\n  %p = inttoptr i64 %a to ptr\n  ret ptr %p\n}}\n", define_header(i, &["a"])),
            "__ptx_barrier" => format!(
                "{}\n{}  call void %f(ptr %ctx, i32 %id, i32 %count)\n  ret void\n}}\n",
                define_header(i, &["ctx", "id", "count"]),
                callback(host_abi::OFFSET_BARRIER)
            ),
            "__ptx_barrier_op" => format!(
                "{}\n{}  %r = call i32 %f(ptr %ctx, i32 %id, i32 %count, i32 %op, i32 %pred)\n  ret i32 %r\n}}\n",
                define_header(i, &["ctx", "id", "count", "op", "pred"]),
                callback(host_abi::OFFSET_BARRIER_OP)
            ),
            "__ptx_texture" => format!(
                "{}\n{}  %r = call i32 %f(ptr %ctx, i64 %handle, i32 %op, ptr %args, ptr %data)\n  ret i32 %r\n}}\n",
                define_header(i, &["ctx", "handle", "op", "args", "data"]),
                callback(host_abi::OFFSET_TEXTURE)
            ),
            "__ptx_warp_matrix" => format!(
                "{}\n{}  call void %f(ptr %ctx, i32 %site, ptr %frag, i64 %desc)\n  ret void\n}}\n",
                define_header(i, &["ctx", "site", "frag", "desc"]),
                callback(host_abi::OFFSET_WARP_MATRIX)
            ),
            "__ptx_trap" => format!("{}\n{}  call void %f(ptr %ctx)\n  ret void\n}}\n", define_header(i, &["ctx"]), callback(host_abi::OFFSET_TRAP)),
            // nvcc's strings are of 1-byte characters.
            "__ptx_assertfail" => format!(
                "{}\n{}  call void %f(ptr %ctx, ptr %msg, ptr %file, i32 %line, ptr %func, i64 1)\n  ret void\n}}\n",
                define_header(i, &["ctx", "msg", "file", "line", "func"]),
                callback(host_abi::OFFSET_ASSERT_FAIL)
            ),
            "__ptx_tanh_f32" => format!("{}\n  %r = call float @llvm.tanh.f32(float %x)\n  ret float %r\n}}\n", define_header(i, &["x"])),
            "__ptx_ex2_f32" => format!("{}\n{}}}\n", define_header(i, &["x"]), EX2_F32_BODY),
            "__ptx_vprintf" => format!(
                "{}\n{}  %r = call i32 %f(ptr %ctx, ptr %fmt, ptr %args)\n  ret i32 %r\n}}\n",
                define_header(i, &["ctx", "fmt", "args"]),
                callback(host_abi::OFFSET_VPRINTF)
            ),
            // The device heap is the runtime's (`ThreadCtx::malloc`).
            "__ptx_malloc" => format!(
                "{}\n{}  %p = call ptr %f(ptr %ctx, i64 %n)\n  ret ptr %p\n}}\n",
                define_header(i, &["ctx", "n"]),
                callback(host_abi::OFFSET_MALLOC)
            ),
            "__ptx_devrt" => format!(
                "{}\n{}  %r = call i64 %f(ptr %ctx, ptr %args)\n  ret i64 %r\n}}\n",
                define_header(i, &["ctx", "args"]),
                callback(host_abi::OFFSET_DEVICE_RUNTIME)
            ),
            "__ptx_free" => format!("{}\n{}  call void %f(ptr %ctx, ptr %p)\n  ret void\n}}\n", define_header(i, &["ctx", "p"]), callback(host_abi::OFFSET_FREE)),
            _ => warp_collective(i, warp),
        }
    }

    fn define_helper(&self, name: &str, module: &ModuleInfo) -> Option<String> {
        if name == "__ptx_linear_tid" {
            return Some(linear_tid());
        }
        region_collective(name, module.warp_size)
    }

    fn supports_regions(&self) -> bool {
        true
    }

    fn module_header(&self) -> String {
        format!("@__ptx_global_base = internal externally_initialized global ptr null\n!{INVARIANT_MD} = !{{}}\n")
    }

    fn entry_wrappers(&self, k: &KernelMeta, _module: &ModuleInfo, ir: &mut String) {
        let body = ll_global(&format!("{}.body", k.name));
        let thread = ll_global(&format!("{}.thread", k.name));
        let block = ll_global(&format!("{}.block", k.name));
        if let Some(r) = &k.regions {
            // Cut into regions: there is no single-thread body to call.
            region_wrappers(&k.name, r, k.param_buffer_size, ir);
            return;
        }
        if k.uses_barrier {
            // Only the fiber scheduler calls one thread at a time.
            let _ = writeln!(ir, "define void {thread}(ptr %params, ptr %ctx) {{\n  call void {body}(ptr %ctx, ptr %params)\n  ret void\n}}");
            return;
        }
        // Without barriers the runtime always runs `k.block`: no `k.thread`, so the body
        // is optimized and compiled once, not twice.
        block_loop(k, &block, &block_dims(), ir);
    }
}

/// The thread loop `fname` of kernel `k` (one without barriers: `k.block`, or a variant
/// for one launch shape), with the block's dimensions defined by `dims`.
fn block_loop(k: &KernelMeta, fname: &str, dims: &str, ir: &mut String) {
    let body = ll_global(&format!("{}.body", k.name));
    // The runtime hands every kernel an 8-aligned parameter buffer of at least
    // `param_buffer_size` bytes (cpu-backend `module.rs`): telling LLVM lets it hoist
    // the parameter loads out of the thread loop.
    let signature = format!("ptr noalias align 8 {}%params, {}", dereferenceable(k.param_buffer_size), ctx_param());
    let par = ParallelLoop::numbered_after(ir);
    let per_thread = format!("  call void {body}(ptr %ctx, ptr %params){}\n  br label %x.next.bb\n", par.access());
    ir.push_str(&thread_loop(fname, &signature, dims, "", &per_thread, par));
}

/// The `%ctx` parameter of the thread loops: the runtime passes its own `ThreadCtx`, so
/// it is dereferenceable, and LLVM may hoist the loads of `%ntid`, `%ctaid` and the
/// shared window out of the loop even where they sit under a branch.
fn ctx_param() -> String {
    format!("ptr noalias align 8 dereferenceable({}) %ctx", std::mem::size_of::<host_abi::ThreadCtx>())
}

/// `dereferenceable(n) ` for a parameter buffer of `n` bytes (nothing when empty).
fn dereferenceable(n: usize) -> String {
    if n > 0 {
        format!("dereferenceable({n}) ")
    } else {
        String::new()
    }
}

/// The metadata that declares a thread loop parallel (LLVM LangRef,
/// `llvm.loop.parallel_accesses`): every load, store and call of one thread's iteration
/// carries the access group `group`, and the loop's latch carries `loop_id`, which lists
/// that group. The loop vectorizer then needs no dependence analysis between threads.
///
/// Why this is sound: the loop runs the threads of one block from one barrier (or the
/// start) to the next. In the CUDA memory model (PTX ISA 8.5 "Memory Consistency Model"),
/// two threads' conflicting accesses between barriers are either a data race (undefined)
/// or go through atomics, volatile or strong operations, which the vectorizer never
/// vectorizes (a loop containing one stays scalar, and then thread order is kept). Accesses
/// of one thread stay ordered: the metadata only speaks of accesses in different
/// iterations. Spin-waiting on another thread of the same block without a barrier cannot
/// work on this path at all (thread `t` runs to its barrier before `t + 1` starts), with or
/// without the metadata.
#[derive(Clone, Copy)]
struct ParallelLoop {
    group: u64,
    loop_id: u64,
}

impl ParallelLoop {
    /// Metadata numbers unique in the module being built: derived from the IR's length
    /// when the loop is appended (every wrapper appends more than 3 bytes, so two loops
    /// never share numbers), above the numbers the lowering uses. Deterministic, so the
    /// kernel cache key stays stable.
    fn numbered_after(ir: &str) -> ParallelLoop {
        let base = INVARIANT_MD as u64 + 1 + 3 * ir.len() as u64;
        ParallelLoop { group: base, loop_id: base + 1 }
    }

    /// The suffix that puts a memory access or call into the loop's access group.
    fn access(&self) -> String {
        format!(", !llvm.access.group !{}", self.group)
    }

    /// The metadata definitions (top level).
    fn definitions(&self) -> String {
        let (g, l) = (self.group, self.loop_id);
        format!("!{g} = distinct !{{}}\n!{l} = distinct !{{!{l}, !{p}}}\n!{p} = !{{!\"llvm.loop.parallel_accesses\", !{g}}}\n", p = l + 1)
    }
}

/// The entry-block lines every thread loop starts with: the block's dimensions from the
/// ctx (`%ntx`/`%nty`/`%ntz`, bounded by [`MAX_BLOCK_DIM`], and as i64), its thread count
/// `%n`, and the ctx slots `%tx.p`/`%ty.p`/`%tz.p` the loops store each thread's `%tid` in.
fn block_dims() -> String {
    let loads = format!(
        "  %ntx = load i32, ptr %ntx.p, !range !{{i32 1, i32 {mx}}}\n  %nty = load i32, ptr %nty.p, !range !{{i32 1, i32 {my}}}\n  %ntz = load i32, ptr %ntz.p, !range !{{i32 1, i32 {mz}}}\n",
        mx = MAX_BLOCK_DIM[0] + 1,
        my = MAX_BLOCK_DIM[1] + 1,
        mz = MAX_BLOCK_DIM[2] + 1,
    );
    block_dims_from(&loads)
}

/// [`block_dims`] with `values` defining `%ntx`/`%nty`/`%ntz` (i32) from the ctx slots
/// `%ntx.p`/`%nty.p`/`%ntz.p`.
fn block_dims_from(values: &str) -> String {
    let (ntid, tid) = (host_abi::OFFSET_NTID, host_abi::OFFSET_TID);
    format!(
        r#"  %ntx.p = getelementptr i8, ptr %ctx, i64 {ntx}
  %nty.p = getelementptr i8, ptr %ctx, i64 {nty}
  %ntz.p = getelementptr i8, ptr %ctx, i64 {ntz}
{values}  %ntx64 = zext i32 %ntx to i64
  %nty64 = zext i32 %nty to i64
  %ntz64 = zext i32 %ntz to i64
  %nxy = mul i64 %ntx64, %nty64
  %n = mul i64 %nxy, %ntz64
  %tx.p = getelementptr i8, ptr %ctx, i64 {tx}
  %ty.p = getelementptr i8, ptr %ctx, i64 {ty}
  %tz.p = getelementptr i8, ptr %ctx, i64 {tz}
"#,
        ntx = ntid,
        nty = ntid + 4,
        ntz = ntid + 8,
        tx = tid,
        ty = tid + 4,
        tz = tid + 8,
    )
}

/// A function `fname(signature)` that runs `per_thread` once for every thread of the
/// block, x fastest: the CPU's thread loop, shared by `k.block` and `k.region.S` (`k.region`
/// has loops of its own, `dispatch.rs`). Before
/// `per_thread` the thread's `%tid` is stored in the ctx and `%t` (its linear id, i64)
/// and `%n` (the block's thread count) are defined; `per_thread` must end by branching to
/// `%x.next.bb`. `dims` defines the block's dimensions ([`block_dims`], or constants for
/// one launch shape, `specialize.rs`); `prologue` runs once in the entry block after it.
/// The x loop is declared parallel with `par` (`per_thread` must put its memory accesses
/// and calls into `par`'s group).
fn thread_loop(fname: &str, signature: &str, dims: &str, prologue: &str, per_thread: &str, par: ParallelLoop) -> String {
    let ag = par.access();
    let latch = par.loop_id;
    let metadata = par.definitions();
    format!(
        r#"define void {fname}({signature}) {{
entry:
{dims}{prologue}  br label %z.head
z.head:
  %z = phi i32 [ 0, %entry ], [ %z.next, %y.exit ]
  %z.done = icmp uge i32 %z, %ntz
  br i1 %z.done, label %exit, label %y.head
y.head:
  %y = phi i32 [ 0, %z.head ], [ %y.next, %x.exit ]
  %y.done = icmp uge i32 %y, %nty
  br i1 %y.done, label %y.exit, label %x.head
x.head:
  %x = phi i32 [ 0, %y.head ], [ %x.next, %x.next.bb ]
  %x.done = icmp uge i32 %x, %ntx
  br i1 %x.done, label %x.exit, label %x.body
x.body:
  %z64 = zext i32 %z to i64
  %y64 = zext i32 %y to i64
  %x64 = zext i32 %x to i64
  %zy = mul i64 %z64, %nty64
  %zy2 = add i64 %zy, %y64
  %row = mul i64 %zy2, %ntx64
  %t = add i64 %row, %x64
  store i32 %x, ptr %tx.p{ag}
  store i32 %y, ptr %ty.p{ag}
  store i32 %z, ptr %tz.p{ag}
{per_thread}x.next.bb:
  %x.next = add nuw i32 %x, 1
  br label %x.head, !llvm.loop !{latch}
x.exit:
  %y.next = add i32 %y, 1
  br label %y.head
y.exit:
  %z.next = add i32 %z, 1
  br label %z.head
exit:
  ret void
}}
{metadata}"#,
    )
}

/// Compile IR lowered for the host into a relocatable object (or assembly text) for this
/// machine's CPU, as `crate::host` would JIT it: for inspecting what PTX becomes.
pub fn emit(ir: &str, opt_level: u32, assembly: bool) -> Result<Vec<u8>, String> {
    use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target as LlvmTarget, TargetMachine};
    LlvmTarget::initialize_native(&InitializationConfig::default())?;
    let triple = TargetMachine::get_default_triple();
    let target = LlvmTarget::from_triple(&triple).map_err(|e| e.to_string())?;
    let level = match opt_level {
        0 => inkwell::OptimizationLevel::None,
        1 => inkwell::OptimizationLevel::Less,
        2 => inkwell::OptimizationLevel::Default,
        _ => inkwell::OptimizationLevel::Aggressive,
    };
    let tm = target
        .create_target_machine(
            &triple,
            &TargetMachine::get_host_cpu_name().to_string(),
            &TargetMachine::get_host_cpu_features().to_string(),
            level,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or("cannot create a target machine for the host")?;
    let context = inkwell::context::Context::create();
    let buf = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "ptx");
    let module = context.create_module_from_ir(buf).map_err(|e| format!("IR parse: {e}"))?;
    module.verify().map_err(|e| format!("IR verify: {e}"))?;
    module.set_triple(&triple);
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    probe_stacks(&module);
    module
        .run_passes(&format!("default<O{}>", opt_level.min(3)), &tm, inkwell::passes::PassBuilderOptions::create())
        .map_err(|e| format!("optimize: {e}"))?;
    let kind = if assembly { FileType::Assembly } else { FileType::Object };
    let out = tm.write_to_memory_buffer(&module, kind).map_err(|e| e.to_string())?;
    Ok(out.as_slice().to_vec())
}

/// Gives every function of `module` inline stack probes: a frame larger than a page then
/// touches its pages in order, so that a kernel that overflows its fiber's stack faults
/// in the guard page, which the CPU runtime reports as a failed launch, instead of
/// jumping past the guard into other memory.
pub fn probe_stacks(module: &inkwell::module::Module) {
    let attr = module.get_context().create_string_attribute("probe-stack", "inline-asm");
    for f in module.get_functions() {
        if f.count_basic_blocks() > 0 {
            f.add_attribute(inkwell::attributes::AttributeLoc::Function, attr);
        }
    }
}

/// Load the runtime callback at `offset` of the `ThreadCtx` into `%f`.
fn callback(offset: usize) -> String {
    format!("  %fp = getelementptr i8, ptr %ctx, i64 {offset}\n  %f = load ptr, ptr %fp\n")
}

/// `@__ptx_linear_tid`: the thread's index in the block, x fastest (a host-only helper).
fn linear_tid() -> String {
    let (t, n) = (host_abi::OFFSET_TID, host_abi::OFFSET_NTID);
    let mut s = String::from("define internal i32 @__ptx_linear_tid(ptr %ctx) alwaysinline {\n");
    for (k, (f, off)) in [("x", t), ("y", t + 4), ("z", t + 8), ("nx", n), ("ny", n + 4)].into_iter().enumerate() {
        let _ = writeln!(s, "  %p{k} = getelementptr i8, ptr %ctx, i64 {off}\n  %{f} = load i32, ptr %p{k}");
    }
    s.push_str("  %a = mul i32 %z, %ny\n  %b = add i32 %a, %y\n  %c = mul i32 %b, %nx\n  %d = add i32 %c, %x\n  ret i32 %d\n}\n");
    s
}

/// The exchange through `warp_exchange` of the lanes `member` names (`0` for
/// `activemask`, which has no member mask): leaves the warp's values in `%vals` (one i64
/// per lane) and the lanes that met at `%site` in `%arrived` (an i64 lane mask).
fn exchange(value: &str, member: &str) -> String {
    format!(
        "  %mask.p = alloca i64\n{}  %vals = call ptr %f(ptr %ctx, i32 %site, i64 {value}, i64 {member}, ptr %mask.p)\n  %arrived = load i64, ptr %mask.p\n",
        callback(host_abi::OFFSET_WARP_EXCHANGE)
    )
}

/// `%name` = the `<w x i1>` vector `%bits` of lane mask `%mask` (an i64).
fn mask_vector(name: &str, mask: &str, w: u32) -> String {
    if w == 64 {
        format!("  {name} = bitcast i64 {mask} to <64 x i1>\n")
    } else {
        format!("  {name}.n = trunc i64 {mask} to i{w}\n  {name} = bitcast i{w} {name}.n to <{w} x i1>\n")
    }
}

/// `%name` = the lane mask (i64) of the `<w x i1>` vector `vec`.
fn vector_mask(name: &str, vec: &str, w: u32) -> String {
    if w == 64 {
        format!("  {name} = bitcast <64 x i1> {vec} to i64\n")
    } else {
        format!("  {name}.n = bitcast <{w} x i1> {vec} to i{w}\n  {name} = zext i{w} {name}.n to i64\n")
    }
}

/// The collectives for warps of `w` lanes.
fn warp_collective(i: &Intrinsic, w: u32) -> String {
    let (names, prep, value, tail) = collective_parts(i.name, w);
    let member = if names.contains(&"member") { "%member" } else { "0" };
    format!("{}\n{prep}{}{tail}", define_header(i, &names), exchange(value, member))
}

/// `__ptx_region_<x>`: collective `__ptx_<x>` in the read half of a region split
/// (`lower::regions::warp_split`) for warps of `w` lanes: the same computation with the
/// warp's values `%vals` (one i64 per lane, in the save area) and the lanes that met
/// `%arrived` (an i64 lane mask) as parameters in place of the ctx and the site.
fn region_collective(name: &str, w: u32) -> Option<String> {
    let base = format!("__ptx_{}", name.strip_prefix("__ptx_region_")?);
    let i = crate::lower::intrinsics::lookup(&base)?;
    let (names, _, _, tail) = collective_parts(i.name, w);
    let types: Vec<&str> = i.params.split(", ").collect();
    let rest: String = types.iter().zip(&names).skip(2).map(|(t, n)| format!(", {t} %{n}")).collect();
    Some(format!("define internal {} @{name}(ptr %vals, i64 %arrived{rest}) alwaysinline {{\n{tail}", i.ret))
}

/// A collective's definition in parts, for warps of `w` lanes: parameter names, what
/// computes the deposited value, that value, and the code that combines the warp's values
/// `%vals` and the lanes that met `%arrived` (an i64 lane mask) into the result.
fn collective_parts(name: &str, w: u32) -> (Vec<&'static str>, &'static str, &'static str, String) {
    match name {
        "__ptx_warp_sync" => (vec!["ctx", "site", "member"], "", "0", "  ret void\n}\n".into()),
        "__ptx_activemask" => (vec!["ctx", "site"], "", "0", "  ret i64 %arrived\n}\n".into()),
        // Reading a lane that did not arrive is undefined in PTX; we return the lane's own value.
        "__ptx_shfl" => (
            vec!["ctx", "site", "a", "src", "member"],
            "  %a64 = zext i32 %a to i64\n",
            "%a64",
            r#"  %src64 = zext i32 %src to i64
  %bit = shl i64 1, %src64
  %has = and i64 %bit, %arrived
  %ok = icmp ne i64 %has, 0
  %vp = getelementptr i64, ptr %vals, i64 %src64
  %v = load i64, ptr %vp
  %t = trunc i64 %v to i32
  %r = select i1 %ok, i32 %t, i32 %a
  ret i32 %r
}
"#
            .into(),
        ),
        "__ptx_vote" => (
            vec!["ctx", "site", "p", "member"],
            "  %p64 = zext i1 %p to i64\n",
            "%p64",
            format!(
                r#"  %active = and i64 %arrived, %member
  %v = load <{w} x i64>, ptr %vals, align 8
  %nz = icmp ne <{w} x i64> %v, zeroinitializer
{}  %ballot = and i64 %bits, %active
  %res.0 = insertvalue {{ i64, i64 }} poison, i64 %ballot, 0
  %res = insertvalue {{ i64, i64 }} %res.0, i64 %active, 1
  ret {{ i64, i64 }} %res
}}
"#,
                vector_mask("%bits", "%nz", w)
            ),
        ),
        "__ptx_redux" => {
            let mut s = format!(
                r#"  %active = and i64 %arrived, %member
  %v = load <{w} x i64>, ptr %vals, align 8
  %v32 = trunc <{w} x i64> %v to <{w} x i32>
{}  switch i32 %op, label %r7 [ i32 0, label %r0 i32 1, label %r1 i32 2, label %r2 i32 3, label %r3 i32 4, label %r4 i32 5, label %r5 i32 6, label %r6 ]
"#,
                mask_vector("%sel", "%active", w)
            );
            let ops = [
                ("add", "0"),
                ("smin", "2147483647"),
                ("smax", "-2147483648"),
                ("umin", "-1"),
                ("umax", "0"),
                ("and", "-1"),
                ("or", "0"),
                ("xor", "0"),
            ];
            for (k, (f, identity)) in ops.iter().enumerate() {
                let _ = write!(
                    s,
                    "r{k}:\n  %m{k} = select <{w} x i1> %sel, <{w} x i32> %v32, <{w} x i32> splat (i32 {identity})\n  %x{k} = call i32 @llvm.vector.reduce.{f}.v{w}i32(<{w} x i32> %m{k})\n  ret i32 %x{k}\n"
                );
            }
            s.push_str("}\n");
            (vec!["ctx", "site", "op", "a", "member"], "  %a64 = zext i32 %a to i64\n", "%a64", s)
        }
        "__ptx_match" => (
            vec!["ctx", "site", "a", "member"],
            "",
            "%a",
            format!(
                r#"  %active = and i64 %arrived, %member
  %v = load <{w} x i64>, ptr %vals, align 8
  %ins = insertelement <{w} x i64> poison, i64 %a, i64 0
  %splat = shufflevector <{w} x i64> %ins, <{w} x i64> poison, <{w} x i32> zeroinitializer
  %eq = icmp eq <{w} x i64> %v, %splat
{}  %same = and i64 %eqm, %active
  %res.0 = insertvalue {{ i64, i64 }} poison, i64 %same, 0
  %res = insertvalue {{ i64, i64 }} %res.0, i64 %active, 1
  ret {{ i64, i64 }} %res
}}
"#,
                vector_mask("%eqm", "%eq", w)
            ),
        ),
        other => unreachable!("host target: no definition for {other}"),
    }
}

/// The loops of a barrier-region kernel (see `lower::regions`): `k.region(params, ctx,
/// save, states, S, masked)` runs the threads of the block from resume point `S` to their
/// next barrier (all of them, or with `masked` only those whose state is `S`), writing
/// each thread's next state to `states[t]`; it dispatches to every region body, with an x
/// loop of its own for lockstep loop heads (`dispatch.rs`). Kernels with at most
/// [`MAX_SITES_WITH_LOOPS`] stops also get `k.region.S` ([`has_own_loop`]), a loop per
/// resume point that LLVM optimizes and vectorizes on its own. With more barriers the
/// extra loops cost more compile time than they gain (the bitonic benchmark, 55 barriers:
/// 10x the compile time for 4x the speed, most regions still scalar because the
/// vectorizer guards its strided paths with checks that fail at run time).
fn region_wrappers(name: &str, meta: &RegionMeta, param_bytes: usize, ir: &mut String) {
    let sites = meta.sites;
    let per_state = (0..=sites).any(|st| has_own_loop(meta, st));
    // With loops per resume point, the dispatching loop only serves the masked
    // (divergent) case: it calls the bodies out of line (`noinline` call sites) instead of
    // inlining every body a second time, which keeps compile time near one copy each.
    let dispatch_call = if per_state { " noinline" } else { "" };
    let signature = format!(
        "ptr noalias align 8 {}%params, {}, ptr noalias %save, ptr noalias %states, i32 %S, i32 %masked",
        dereferenceable(param_bytes),
        ctx_param()
    );
    // The states without an x loop of their own in the dispatching loop, by a switch per
    // thread (`dispatch`).
    let own = dispatch::own_x_loops(meta);
    let dense = dense::dense_states(meta);
    let any = ll_global(&format!("{name}.rbody.any"));
    let shared: Vec<u32> = (0..=sites).filter(|s| !own.contains(s) && !dense.contains(s)).collect();
    let cases: String = shared.iter().map(|s| format!(" i32 {s}, label %s{s}")).collect();
    let _ = write!(ir, "define internal i32 {any}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %t, i32 %S) alwaysinline {{\nentry:\n  switch i32 %S, label %none [{cases} ]\nnone:\n  ret i32 -1\n");
    for s in shared {
        let body = ll_global(&format!("{name}.rbody.{s}"));
        let _ = write!(ir, "s{s}:\n  %r{s} = call i32 {body}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %t){dispatch_call}\n  ret i32 %r{s}\n");
    }
    let _ = writeln!(ir, "}}");
    // The dispatching loop for every resume point (and for the masked, divergent case).
    let par = ParallelLoop::numbered_after(ir);
    ir.push_str(&dispatch::dispatching_loop(name, meta, &own, &dense, &signature, dispatch_call, par));
    // Kernels with few barriers also get a loop per resume point, where each region is
    // optimized (and vectorized) on its own.
    for st in (0..=sites).filter(|&st| has_own_loop(meta, st)) {
        let region = ll_global(&format!("{name}.region.{st}"));
        let par = ParallelLoop::numbered_after(ir);
        if meta.wide_strips.contains(&st) {
            // A lockstep head with a wide strip (`dispatch::wide_state_loop`).
            ir.push_str(&dispatch::wide_state_loop(name, sites, st, &signature, dispatch_call, par));
            continue;
        }
        let ag = par.access();
        // The runtime calls `k.region.S` for the whole block only.
        let body = ll_global(&format!("{name}.rbody.{st}"));
        let per_thread = format!(
            "  %st.p = getelementptr i32, ptr %states, i64 %t\n  %next = call i32 {body}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %t){ag}\n  store i32 %next, ptr %st.p{ag}\n  br label %x.next.bb\n"
        );
        ir.push_str(&thread_loop(&region, &signature, &block_dims(), "", &per_thread, par));
    }
}

/// `__ptx_ex2_f32`'s body: 2^x as e^(x ln 2) in double precision, rounded once to float,
/// so that the exponential is `llvm.exp.f64`, which the vector library (libmvec, see
/// `host/vector_math.rs`) computes for 4 lanes at once where `llvm.exp2.f32` has no vector
/// form. The double product and exponential are far more precise than a float ulp, so the
/// result is 2^x correctly rounded but in rare halfway cases, also when it overflows to
/// infinity or is subnormal; NaN and the infinities come through as `exp2f` gives them.
const EX2_F32_BODY: &str = "  %d = fpext float %x to double
  %t = fmul double %d, 0x3FE62E42FEFA39EF
  %e = call double @llvm.exp.f64(double %t)
  %r = fptrunc double %e to float
  ret float %r
";
