//! The host target: the CPU device's code, run by `cpu-backend` through `host_abi`.
//!
//! `%ctx` is a `host_abi::ThreadCtx`: special registers and the shared window are loads
//! from it, barriers, traps, `printf` and warp collectives call the runtime through its
//! function pointers. Warp collectives deposit one value per lane through
//! `warp_exchange` and compute the result with vector IR over the 32 lanes. Every
//! definition is `alwaysinline`, so the code is what the lowering used to emit inline.
//!
//! Entry points: `k.thread(params, ctx)` runs one GPU thread; `k.block(params, ctx)` (for
//! kernels without barriers or collectives) loops over the block's threads so LLVM can
//! vectorize across them.

use super::{MemOrder, ModuleInfo, Scope, Target};
use crate::host_abi;
use crate::lower::intrinsics::{define_header, Intrinsic};
use crate::lower::{ll_global, KernelMeta, RegionMeta};
use std::fmt::Write;

/// The CPU device's target.
#[derive(Clone, Copy, Debug, Default)]
pub struct HostTarget;

/// Lanes per warp.
const WARP: u32 = 32;

/// Kernels with at most this many barriers also get a thread loop per resume point.
pub const MAX_SITES_WITH_LOOPS: u32 = 4;

/// Whether state `state` of a region kernel has a thread loop of its own (`k.region.S`):
/// every state of kernels with few barriers; the others run through `k.region`. (Lockstep
/// loop heads were tried with loops of their own: faster on the sums, but LLVM vectorizes
/// and unrolls such a loop behind a runtime alias check per save slot, and the code and
/// compile time of kernels with grid-stride loops nearly doubled. Worth another look once
/// region loops are known to be parallel.)
pub fn has_own_loop(meta: &RegionMeta, _state: u32) -> bool {
    meta.sites <= MAX_SITES_WITH_LOOPS
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

    fn define_intrinsic(&self, i: &Intrinsic, _module: &ModuleInfo) -> String {
        let name = i.name;
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
                (None, "laneid" | "warpid") => {
                    let (op, k) = if reg == "laneid" { ("and", 31) } else { ("lshr", 5) };
                    format!("{h}\n  %l = call i32 @__ptx_linear_tid(ptr %ctx)\n  %v = {op} i32 %l, {k}\n  ret i32 %v\n}}\n")
                }
                (None, "nwarpid") => format!("{h}\n  ret i32 32\n}}\n"),
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
            "__ptx_trap" => format!("{}\n{}  call void %f(ptr %ctx)\n  ret void\n}}\n", define_header(i, &["ctx"]), callback(host_abi::OFFSET_TRAP)),
            // nvcc's strings are of 1-byte characters.
            "__ptx_assertfail" => format!(
                "{}\n{}  call void %f(ptr %ctx, ptr %msg, ptr %file, i32 %line, ptr %func, i64 1)\n  ret void\n}}\n",
                define_header(i, &["ctx", "msg", "file", "line", "func"]),
                callback(host_abi::OFFSET_ASSERT_FAIL)
            ),
            "__ptx_tanh_f32" => format!("{}\n  %r = call float @llvm.tanh.f32(float %x)\n  ret float %r\n}}\n", define_header(i, &["x"])),
            "__ptx_vprintf" => format!(
                "{}\n{}  %r = call i32 %f(ptr %ctx, ptr %fmt, ptr %args)\n  ret i32 %r\n}}\n",
                define_header(i, &["ctx", "fmt", "args"]),
                callback(host_abi::OFFSET_VPRINTF)
            ),
            _ => warp_collective(i),
        }
    }

    fn define_helper(&self, name: &str, _module: &ModuleInfo) -> Option<String> {
        if name == "__ptx_linear_tid" {
            return Some(linear_tid());
        }
        region_collective(name)
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
        let _ = writeln!(ir, "define void {thread}(ptr %params, ptr %ctx) {{\n  call void {body}(ptr %ctx, ptr %params)\n  ret void\n}}");
        if k.uses_barrier {
            return;
        }
        // The runtime hands every kernel an 8-aligned parameter buffer of at least
        // `param_buffer_size` bytes (cpu-backend `module.rs`): telling LLVM lets it hoist
        // the parameter loads out of the thread loop.
        let signature = format!("ptr noalias align 8 {}%params, ptr noalias %ctx", dereferenceable(k.param_buffer_size));
        let per_thread = format!("  call void {body}(ptr %ctx, ptr %params)\n  br label %x.next.bb\n");
        ir.push_str(&thread_loop(&block, &signature, "", &per_thread));
    }
}

/// `dereferenceable(n) ` for a parameter buffer of `n` bytes (nothing when empty).
fn dereferenceable(n: usize) -> String {
    if n > 0 { format!("dereferenceable({n}) ") } else { String::new() }
}

/// A function `fname(signature)` that runs `per_thread` once for every thread of the
/// block, x fastest: the CPU's thread loop, shared by `k.block` and `k.region`. Before
/// `per_thread` the thread's `%tid` is stored in the ctx and `%t` (its linear id, i64)
/// and `%n` (the block's thread count) are defined; `per_thread` must end by branching to
/// `%x.next.bb`. `prologue` runs once in the entry block.
fn thread_loop(fname: &str, signature: &str, prologue: &str, per_thread: &str) -> String {
    let (ntid, tid) = (host_abi::OFFSET_NTID, host_abi::OFFSET_TID);
    format!(
        r#"define void {fname}({signature}) {{
entry:
  %ntx.p = getelementptr i8, ptr %ctx, i64 {ntx}
  %nty.p = getelementptr i8, ptr %ctx, i64 {nty}
  %ntz.p = getelementptr i8, ptr %ctx, i64 {ntz}
  %ntx = load i32, ptr %ntx.p
  %nty = load i32, ptr %nty.p
  %ntz = load i32, ptr %ntz.p
  %ntx64 = zext i32 %ntx to i64
  %nty64 = zext i32 %nty to i64
  %ntz64 = zext i32 %ntz to i64
  %nxy = mul i64 %ntx64, %nty64
  %n = mul i64 %nxy, %ntz64
  %tx.p = getelementptr i8, ptr %ctx, i64 {tx}
  %ty.p = getelementptr i8, ptr %ctx, i64 {ty}
  %tz.p = getelementptr i8, ptr %ctx, i64 {tz}
{prologue}  br label %z.head
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
  store i32 %x, ptr %tx.p
  store i32 %y, ptr %ty.p
  store i32 %z, ptr %tz.p
{per_thread}x.next.bb:
  %x.next = add i32 %x, 1
  br label %x.head
x.exit:
  %y.next = add i32 %y, 1
  br label %y.head
y.exit:
  %z.next = add i32 %z, 1
  br label %z.head
exit:
  ret void
}}
"#,
        ntx = ntid,
        nty = ntid + 4,
        ntz = ntid + 8,
        tx = tid,
        ty = tid + 4,
        tz = tid + 8,
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
        .create_target_machine(&triple, &TargetMachine::get_host_cpu_name().to_string(), &TargetMachine::get_host_cpu_features().to_string(), level, RelocMode::PIC, CodeModel::Default)
        .ok_or("cannot create a target machine for the host")?;
    let context = inkwell::context::Context::create();
    let buf = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "ptx");
    let module = context.create_module_from_ir(buf).map_err(|e| format!("IR parse: {e}"))?;
    module.verify().map_err(|e| format!("IR verify: {e}"))?;
    module.set_triple(&triple);
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    module
        .run_passes(&format!("default<O{}>", opt_level.min(3)), &tm, inkwell::passes::PassBuilderOptions::create())
        .map_err(|e| format!("optimize: {e}"))?;
    let kind = if assembly { FileType::Assembly } else { FileType::Object };
    let out = tm.write_to_memory_buffer(&module, kind).map_err(|e| e.to_string())?;
    Ok(out.as_slice().to_vec())
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

/// The exchange through `warp_exchange`: leaves the warp's values in `%vals` (32 x i64)
/// and the lanes that met at `%site` in `%arrived`.
fn exchange(value: &str) -> String {
    format!(
        "  %mask.p = alloca i32\n{}  %vals = call ptr %f(ptr %ctx, i32 %site, i64 {value}, ptr %mask.p)\n  %arrived = load i32, ptr %mask.p\n",
        callback(host_abi::OFFSET_WARP_EXCHANGE)
    )
}

fn warp_collective(i: &Intrinsic) -> String {
    let (names, prep, value, tail) = collective_parts(i.name);
    format!("{}\n{prep}{}{tail}", define_header(i, &names), exchange(value))
}

/// `__ptx_region_<x>`: collective `__ptx_<x>` in the read half of a region split
/// (`lower::regions::warp_split`): the same computation with the warp's values `%vals`
/// (one i64 per lane, in the save area) and the lanes that met `%arrived` as parameters in
/// place of the ctx and the site.
fn region_collective(name: &str) -> Option<String> {
    let base = format!("__ptx_{}", name.strip_prefix("__ptx_region_")?);
    let i = crate::lower::intrinsics::lookup(&base)?;
    let (names, _, _, tail) = collective_parts(i.name);
    let types: Vec<&str> = i.params.split(", ").collect();
    let rest: String = types.iter().zip(&names).skip(2).map(|(t, n)| format!(", {t} %{n}")).collect();
    Some(format!("define internal {} @{name}(ptr %vals, i32 %arrived{rest}) alwaysinline {{\n{tail}", i.ret))
}

/// A collective's definition in parts: parameter names, what computes the deposited
/// value, that value, and the code that combines the warp's values `%vals` and the lanes
/// that met `%arrived` into the result.
fn collective_parts(name: &str) -> (Vec<&'static str>, &'static str, &'static str, String) {
    let w = WARP;
    match name {
        "__ptx_warp_sync" => (vec!["ctx", "site", "member"], "", "0", "  ret void\n}\n".into()),
        "__ptx_activemask" => (vec!["ctx", "site"], "", "0", "  ret i32 %arrived\n}\n".into()),
        // Reading a lane that did not arrive is undefined in PTX; we return the lane's own value.
        "__ptx_shfl" => (
            vec!["ctx", "site", "a", "src", "member"],
            "  %a64 = zext i32 %a to i64\n",
            "%a64",
            r#"  %bit = shl i32 1, %src
  %has = and i32 %bit, %arrived
  %ok = icmp ne i32 %has, 0
  %src64 = zext i32 %src to i64
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
                r#"  %active = and i32 %arrived, %member
  %v = load <{w} x i64>, ptr %vals, align 8
  %nz = icmp ne <{w} x i64> %v, zeroinitializer
  %bits = bitcast <{w} x i1> %nz to i32
  %ballot = and i32 %bits, %active
  %res.0 = insertvalue {{ i32, i32 }} poison, i32 %ballot, 0
  %res = insertvalue {{ i32, i32 }} %res.0, i32 %active, 1
  ret {{ i32, i32 }} %res
}}
"#
            ),
        ),
        "__ptx_redux" => {
            let mut s = format!(
                r#"  %active = and i32 %arrived, %member
  %v = load <{w} x i64>, ptr %vals, align 8
  %v32 = trunc <{w} x i64> %v to <{w} x i32>
  %sel = bitcast i32 %active to <{w} x i1>
  switch i32 %op, label %r7 [ i32 0, label %r0 i32 1, label %r1 i32 2, label %r2 i32 3, label %r3 i32 4, label %r4 i32 5, label %r5 i32 6, label %r6 ]
"#
            );
            let ops = [("add", "0"), ("smin", "2147483647"), ("smax", "-2147483648"), ("umin", "-1"), ("umax", "0"), ("and", "-1"), ("or", "0"), ("xor", "0")];
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
                r#"  %active = and i32 %arrived, %member
  %v = load <{w} x i64>, ptr %vals, align 8
  %ins = insertelement <{w} x i64> poison, i64 %a, i64 0
  %splat = shufflevector <{w} x i64> %ins, <{w} x i64> poison, <{w} x i32> zeroinitializer
  %eq = icmp eq <{w} x i64> %v, %splat
  %eqm = bitcast <{w} x i1> %eq to i32
  %same = and i32 %eqm, %active
  %res.0 = insertvalue {{ i32, i32 }} poison, i32 %same, 0
  %res = insertvalue {{ i32, i32 }} %res.0, i32 %active, 1
  ret {{ i32, i32 }} %res
}}
"#
            ),
        ),
        other => unreachable!("host target: no definition for {other}"),
    }
}

/// The loop of a barrier-region kernel (see `lower::regions`): `k.region(params, ctx,
/// save, states, S, masked)` runs the threads of the block from resume point `S` to their
/// next barrier (all of them, or with `masked` only those whose state is `S`), writing
/// each thread's next state to `states[t]`. One loop dispatches to every region body:
/// region loops do not vectorize anyway (shared-memory traffic and the state store), so
/// a loop per resume point would only multiply compile time.
fn region_wrappers(name: &str, meta: &RegionMeta, param_bytes: usize, ir: &mut String) {
    let sites = meta.sites;
    let any = ll_global(&format!("{name}.rbody.any"));
    let cases: String = (0..=sites).map(|s| format!(" i32 {s}, label %s{s}")).collect();
    let _ = write!(ir, "define internal i32 {any}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %t, i32 %S) alwaysinline {{\nentry:\n  switch i32 %S, label %none [{cases} ]\nnone:\n  ret i32 -1\n");
    for s in 0..=sites {
        let body = ll_global(&format!("{name}.rbody.{s}"));
        let _ = write!(ir, "s{s}:\n  %r{s} = call i32 {body}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %t)\n  ret i32 %r{s}\n");
    }
    let _ = writeln!(ir, "}}");
    let signature = format!(
        "ptr noalias align 8 {}%params, ptr noalias %ctx, ptr noalias %save, ptr noalias %states, i32 %S, i32 %masked",
        dereferenceable(param_bytes)
    );
    // One dispatching loop for every resume point (and for the masked, divergent case);
    // kernels with few barriers also get a loop per resume point, where the dispatch folds
    // away and each region is optimized on its own (faster at run time, more to compile).
    // A per-state loop calls its body directly: inlining the dispatch and folding it
    // away costs a copy of every body per loop at compile time.
    let mut loops = vec![(ll_global(&format!("{name}.region")), format!("{any}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %t, i32 %S)"))];
    loops.extend((0..=sites).filter(|&st| has_own_loop(meta, st)).map(|st| {
        (ll_global(&format!("{name}.region.{st}")), format!("{}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %t)", ll_global(&format!("{name}.rbody.{st}"))))
    }));
    for (region, call) in loops {
        let per_thread = format!(
            "  %st.p = getelementptr i32, ptr %states, i64 %t\n  br i1 %check, label %x.check, label %x.run\nx.check:\n  %st = load i32, ptr %st.p\n  %skip = icmp ne i32 %st, %S\n  br i1 %skip, label %x.next.bb, label %x.run\nx.run:\n  %next = call i32 {call}\n  store i32 %next, ptr %st.p\n  br label %x.next.bb\n"
        );
        ir.push_str(&thread_loop(&region, &signature, "  %check = icmp ne i32 %masked, 0\n", &per_thread));
    }
}
