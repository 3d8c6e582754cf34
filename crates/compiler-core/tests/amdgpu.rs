//! AMDGPU code objects, checked without a GPU: for every supported processor, a set of
//! kernels (arithmetic, shared memory + barriers, every warp collective, atomics,
//! printf/assert, cp.async and mbarrier; `tests/ptx/amdgpu/`) is compiled and the code objects are inspected with
//! LLVM 19's `llvm-readelf` and `llvm-objdump`: a valid AMDGPU HSA ELF, the AMDHSA metadata
//! note (kernel names, kernarg segment size, group segment size, wavefront size), and
//! the instruction classes each kernel must contain.

use compiler_core::target::amdgpu::{abi, codegen, AmdgpuOptions, GPUS};
use std::path::{Path, PathBuf};
use std::process::Command;

const LLVM_BIN: &str = "/usr/lib/llvm-19/bin";

fn tool(name: &str) -> PathBuf {
    let p = Path::new(LLVM_BIN).join(name);
    assert!(p.is_file(), "{} is missing: install llvm-19 (scripts/bootstrap.sh)", p.display());
    p
}

fn run(tool_name: &str, args: &[&str], file: &Path) -> String {
    let out = Command::new(tool(tool_name)).args(args).arg(file).output().expect("run LLVM tool");
    assert!(out.status.success(), "{tool_name} {args:?} {}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What one kernel's code object must show.
struct Expect {
    file: &'static str,
    kernel: &'static str,
    param_bytes: usize,
    /// The kernel reads implicit arguments (`%ntid`, `%nctaid`, printf buffer...).
    implicit: bool,
    group_segment: u64,
    /// Instruction prefixes (alternatives separated by '|'), each of which some
    /// instruction must start with.
    instructions: &'static [&'static str],
    /// Text the disassembly must contain.
    contains: &'static [&'static str],
}

const KERNELS: &[Expect] = &[
    Expect {
        file: "arith",
        kernel: "arith",
        param_bytes: 16,
        implicit: true,
        group_segment: 0,
        instructions: &["v_fma|v_fmac", "global_store", "s_load_dword|s_load_b", "v_exp_f32"],
        contains: &[],
    },
    Expect {
        file: "shared",
        kernel: "block_sum",
        param_bytes: 16,
        implicit: true,
        group_segment: 1024,
        instructions: &["s_barrier", "ds_write_b32|ds_store_b32", "ds_read_b32|ds_load_b32"],
        // The dynamic array is LDS byte 1024, right after the static area.
        contains: &["offset:1024"],
    },
    Expect {
        file: "warp",
        kernel: "collectives",
        param_bytes: 8,
        implicit: false,
        group_segment: 0,
        instructions: &["ds_bpermute_b32", "v_mbcnt_lo_u32_b32"],
        contains: &[],
    },
    Expect {
        file: "atomics",
        kernel: "atomics",
        param_bytes: 20,
        implicit: false,
        group_segment: 16,
        instructions: &[
            "global_atomic_add|global_atomic_add_u32",
            "global_atomic_cmpswap",
            "global_atomic_swap",
            "global_atomic_smax|global_atomic_max_i32",
            "global_atomic_inc",
            "global_atomic_add_x2|global_atomic_add_u64",
            "ds_add_u32|ds_add_rtn_u32",
        ],
        contains: &[],
    },
    // The mbarrier word is compared and swapped in LDS; incomplete waits sleep.
    Expect {
        file: "async",
        kernel: "pipeline",
        param_bytes: 16,
        implicit: false,
        group_segment: 272,
        instructions: &["ds_cmpst_rtn_b64|ds_cmpstore_rtn_b64|flat_atomic_cmpswap_x2|flat_atomic_cmpswap_b64", "s_sleep"],
        contains: &[],
    },
    // bar.red and bar.arrive: per-wave ballot counts added to and subtracted from the
    // LDS counter around two s_barriers; thread counts checked (trap); the counter's 16
    // bytes come first in LDS: the static array at 16, the dynamic one at 16 + 256.
    Expect {
        file: "barrier_ops",
        kernel: "reductions",
        param_bytes: 12,
        implicit: true,
        group_segment: 272,
        instructions: &["s_barrier", "ds_add_u32|ds_add_rtn_u32", "ds_sub_u32|ds_sub_rtn_u32", "s_bcnt1_i32", "s_ff1_i32|s_ctz_i32", "s_trap"],
        contains: &["offset:16", "offset:276"],
    },
    // A grid barrier over the cooperative launch's workspace (%envreg1:%envreg2, read from
    // the implicit arguments): a release add on its arrival word, an acquire spin that sleeps.
    Expect {
        file: "grid_sync",
        kernel: "grid_barrier",
        param_bytes: 12,
        implicit: true,
        group_segment: 0,
        instructions: &[
            "flat_atomic_add|global_atomic_add",
            "flat_load_dword|global_load_dword|flat_load_b32|global_load_b32",
            "s_sleep",
            "s_barrier",
        ],
        contains: &["offset:4"],
    },
    Expect {
        file: "printf",
        kernel: "hello",
        param_bytes: 8,
        implicit: true,
        group_segment: 0,
        instructions: &["s_trap", "global_atomic_add_x2|flat_atomic_add_x2|global_atomic_add_u64|flat_atomic_add_u64", "s_swappc_b64|s_setpc_b64"],
        contains: &[],
    },
];

fn ptx(file: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx/amdgpu").join(format!("{file}.ptx"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The value of `key:` in the metadata block of `kernel` in `llvm-readelf --notes` output.
fn kernel_field(notes: &str, kernel: &str, key: &str) -> Option<String> {
    // Each kernel's map lists `.args` first and ends after `.wavefront_size`; find the map
    // that contains `.name: kernel` and read `key` from it.
    let blocks: Vec<&str> = notes.split("  - .args:").collect();
    let block = blocks.iter().find(|b| b.lines().any(|l| l.trim() == format!(".name:           {kernel}")))?;
    block.lines().find_map(|l| {
        let t = l.trim();
        t.strip_prefix(&format!("{key}:")).map(|v| v.trim().to_string())
    })
}

fn matches_any(disasm: &str, alternatives: &str) -> bool {
    alternatives.split('|').any(|a| disasm.lines().any(|l| l.trim_start().starts_with(a)))
}

#[test]
fn every_kernel_compiles_for_every_gpu_and_the_code_objects_check_out() {
    let dir = std::env::temp_dir().join(format!("amdgpu-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for &(gfx, wave) in GPUS {
        for e in KERNELS {
            let co = codegen::compile_ptx(&ptx(e.file), &AmdgpuOptions::new(gfx)).unwrap_or_else(|err| panic!("{gfx} {}: {err}", e.file));
            assert_eq!(co.wavefront_size, wave);
            let path = dir.join(format!("{}.{gfx}.co", e.file));
            std::fs::write(&path, &co.elf).unwrap();
            let header = run("llvm-readelf", &["-h"], &path);
            for want in ["DYN (Shared object file)", "EM_AMDGPU", "AMDGPU - HSA", gfx] {
                assert!(header.contains(want), "{gfx} {}: ELF header lacks {want:?}:\n{header}", e.file);
            }
            // ABI version 3 is code object v5.
            assert!(header.lines().any(|l| l.contains("ABI Version:") && l.trim().ends_with('3')), "{gfx}: not code object v5:\n{header}");
            let notes = run("llvm-readelf", &["--notes"], &path);
            assert!(notes.contains(&format!("amdhsa.target:   amdgcn-amd-amdhsa--{gfx}")), "{gfx}: target in metadata:\n{notes}");
            let field = |k: &str| kernel_field(&notes, e.kernel, k).unwrap_or_else(|| panic!("{gfx} {}: no {k} in\n{notes}", e.kernel));
            assert_eq!(field(".symbol"), format!("{}.kd", e.kernel));
            assert_eq!(field(".wavefront_size"), wave.to_string(), "{gfx} {}", e.kernel);
            let kernarg: usize = field(".kernarg_segment_size").parse().unwrap();
            let want = if e.implicit { abi::kernarg_segment_size(e.param_bytes) } else { e.param_bytes };
            assert_eq!(kernarg, want, "{gfx} {}: kernarg segment size", e.kernel);
            assert!(kernarg <= abi::kernarg_segment_size(e.param_bytes), "the runtime's segment must cover the kernel's");
            assert_eq!(field(".group_segment_fixed_size"), e.group_segment.to_string(), "{gfx} {}: group segment", e.kernel);
            assert_eq!(co.static_lds_bytes, e.group_segment.max(co.static_lds_bytes), "{gfx} {}", e.kernel);
            let meta = co.kernels.iter().find(|k| k.name == e.kernel).expect("kernel meta");
            assert_eq!(meta.param_buffer_size, e.param_bytes);
            let symbols = run("llvm-readelf", &["--dyn-symbols"], &path);
            assert!(symbols.contains(&format!(" {}.kd", e.kernel)), "{gfx}: kernel descriptor not exported:\n{symbols}");
            let disasm = run("llvm-objdump", &["-d", &format!("--mcpu={gfx}")], &path);
            for class in e.instructions {
                assert!(matches_any(&disasm, class), "{gfx} {}: no {class} in\n{disasm}", e.kernel);
            }
            for text in e.contains {
                assert!(disasm.contains(text), "{gfx} {}: no {text} in\n{disasm}", e.kernel);
            }
            // Divergent control flow saves and restores EXEC: 64 bits wide on wave64.
            if wave == 64 {
                assert!(disasm.contains("_b64") && disasm.contains("exec"), "{gfx} {}: no 64-bit exec handling", e.kernel);
                assert!(!disasm.contains("saveexec_b32"), "{gfx} {}: wave32 code on a wave64 target", e.kernel);
            } else if e.file == "warp" || e.file == "shared" {
                assert!(disasm.contains("exec_lo"), "{gfx} {}: no 32-bit exec handling", e.kernel);
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(checked, GPUS.len() * KERNELS.len());
}

#[test]
fn the_test_kernels_also_run_on_the_host_target() {
    for e in KERNELS {
        let m = compiler_core::host::compile_ptx(&ptx(e.file), &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() })
            .unwrap_or_else(|err| panic!("{}: {err}", e.file));
        assert!(m.kernels.iter().any(|k| k.meta.name == e.kernel));
    }
}

#[test]
fn every_host_sample_compiles_for_wave32_and_wave64() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx");
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().map(|x| x == "ptx").unwrap_or(false) {
            let text = std::fs::read_to_string(&p).unwrap();
            for gfx in ["gfx90a", "gfx1100"] {
                codegen::compile_ptx(&text, &AmdgpuOptions::new(gfx)).unwrap_or_else(|e| panic!("{} on {gfx}: {e}", p.display()));
            }
        }
    }
}

#[test]
fn unsupported_targets_and_warp_widths_are_refused_clearly() {
    let err = |gfx: &str, lanes: u32| {
        let mut o = AmdgpuOptions::new(gfx);
        o.warp_lanes = lanes;
        codegen::compile_ptx(&ptx("arith"), &o).err().map(|e| e.to_string()).unwrap_or_default()
    };
    assert!(err("gfx950", 32).contains("needs LLVM 20"), "{}", err("gfx950", 32));
    assert!(err("gfx803", 32).contains("supported: gfx900"), "{}", err("gfx803", 32));
    assert!(err("gfx1100", 64).contains("wave32"), "{}", err("gfx1100", 64));
    assert_eq!(err("gfx90a", 64), "", "64-lane warps run as native wave64 on gfx9");
    assert_eq!(err("gfx90a:xnack-", 32), "", "target ID features are accepted");
    // A module that declares 64-lane warps needs them whatever the options say: refused
    // on every wave32 target.
    let wave64 = ptx("arith").replacen(".address_size 64", ".address_size 64\n.warp_size 64", 1);
    assert!(wave64.contains(".warp_size 64"));
    for &(gfx, wave) in GPUS {
        let e = codegen::compile_ptx(&wave64, &AmdgpuOptions::new(gfx)).err().map(|e| e.to_string()).unwrap_or_default();
        if wave == 64 {
            assert_eq!(e, "", "{gfx}");
        } else {
            assert!(e.contains("64-lane warps") && e.contains("--warp-size=32"), "{gfx}: {e}");
        }
    }
}

/// A barrier with a thread count compiles to a run-time check that the count covers the
/// whole CTA (a trap otherwise): `s_barrier` has no thread counts. `bar.arrive` is an
/// `s_barrier` too. Without `bar.red` the module reserves no LDS for its counter.
#[test]
fn counted_barriers_check_the_count_at_run_time() {
    let ptx = ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tbar.sync 1, 64;\n\tbar.arrive 2, 64;\n\tret;\n}\n";
    let dir = std::env::temp_dir().join(format!("amdgpu-counted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for gfx in ["gfx90a", "gfx1100"] {
        let co = codegen::compile_ptx(ptx, &AmdgpuOptions::new(gfx)).unwrap_or_else(|e| panic!("{gfx}: {e}"));
        assert_eq!(co.static_lds_bytes, 0, "{gfx}: no scratch without bar.red");
        let path = dir.join(format!("counted.{gfx}.co"));
        std::fs::write(&path, &co.elf).unwrap();
        let disasm = run("llvm-objdump", &["-d", &format!("--mcpu={gfx}")], &path);
        for class in ["s_barrier", "s_trap", "s_load|global_load"] {
            assert!(matches_any(&disasm, class), "{gfx}: no {class} in\n{disasm}");
        }
        assert_eq!(disasm.lines().filter(|l| l.trim_start().starts_with("s_barrier")).count(), 2, "{gfx}: bar.sync and bar.arrive");
        let notes = run("llvm-readelf", &["--notes"], &path);
        assert_eq!(kernel_field(&notes, "k", ".group_segment_fixed_size").as_deref(), Some("0"), "{gfx}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// 64-lane modules on wave64 GPUs: a PTX warp is the whole wavefront. The code object
/// says wave64; redux tests the whole 64-bit EXEC for a full warp; the divergent-`exit`
/// check compares EXEC with the warp's existing lanes and traps; no instruction computes
/// the base lane of a 32-lane half (`& 32`), which the same collectives in a 32-lane
/// module on the same GPU do.
#[test]
fn wave64_modules_run_as_native_wave64_on_gfx9() {
    let dir = std::env::temp_dir().join(format!("amdgpu-wave64-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let half_base = |disasm: &str| {
        disasm.lines().any(|l| {
            let t = l.trim_start();
            t.starts_with("v_and_b32") && t.split_whitespace().nth(2) == Some("32,")
        })
    };
    let mut checked = 0;
    for &(gfx, wave) in GPUS.iter().filter(|g| g.1 == 64) {
        let co = codegen::compile_ptx(&ptx("warp64"), &AmdgpuOptions::new(gfx)).unwrap_or_else(|e| panic!("{gfx}: {e}"));
        assert_eq!(co.wavefront_size, wave);
        assert_eq!(co.kernels[0].warp_size, 64, "{gfx}: the kernel is 64-lane");
        let path = dir.join(format!("warp64.{gfx}.co"));
        std::fs::write(&path, &co.elf).unwrap();
        let notes = run("llvm-readelf", &["--notes"], &path);
        assert_eq!(kernel_field(&notes, "collectives64", ".wavefront_size").as_deref(), Some("64"), "{gfx}");
        let disasm = run("llvm-objdump", &["-d", &format!("--mcpu={gfx}")], &path);
        for class in ["ds_bpermute_b32", "v_mbcnt_hi_u32_b32", "s_trap", "global_store_dword"] {
            assert!(matches_any(&disasm, class), "{gfx}: no {class} in\n{disasm}");
        }
        for text in ["s_cmp_eq_u64 exec, -1", "exec"] {
            assert!(disasm.contains(text), "{gfx}: no {text} in\n{disasm}");
        }
        assert!(!half_base(&disasm), "{gfx}: a 64-lane warp computes a half-wavefront base:\n{disasm}");
        // What our NVRTC writes for a gfx9 target compiles as wave64 too.
        let co = codegen::compile_ptx(&ptx("nvrtc_wave64"), &AmdgpuOptions::new(gfx)).unwrap_or_else(|e| panic!("{gfx}: {e}"));
        assert_eq!((co.wavefront_size, co.kernels[0].warp_size, co.static_lds_bytes), (64, 64, 16), "{gfx}: wave64, bar.red's counter");
        // The same collectives at 32 lanes on this GPU work on half wavefronts.
        let co32 = codegen::compile_ptx(&ptx("warp"), &AmdgpuOptions::new(gfx)).unwrap();
        let path32 = dir.join(format!("warp.{gfx}.co"));
        std::fs::write(&path32, &co32.elf).unwrap();
        assert!(half_base(&run("llvm-objdump", &["-d", &format!("--mcpu={gfx}")], &path32)), "{gfx}: 32-lane warps on wave64 use half wavefronts");
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(checked, 5, "gfx900, gfx906, gfx908, gfx90a, gfx942");
}

/// The 64-lane definitions of the special registers and collectives, before optimization:
/// `%laneid` masks with 63, `%warpid` divides by 64, `%nwarpid` is 16, ballots are i64.
#[test]
fn wave64_special_registers_follow_the_warp_width() {
    use compiler_core::lower::intrinsics::lookup;
    use compiler_core::target::{amdgpu::AmdgpuTarget, ModuleInfo, Target};
    let target = AmdgpuTarget::new(&AmdgpuOptions { warp_lanes: 64, ..AmdgpuOptions::new("gfx90a") }).unwrap();
    let info = |warp_size| ModuleInfo { warp_size, ..ModuleInfo::default() };
    let def = |name: &str, warp| target.define_intrinsic(lookup(name).unwrap(), &info(warp));
    for (name, at32, at64) in [
        ("__ptx_sreg_laneid", "and i32 %hl, 31", "and i32 %hl, 63"),
        ("__ptx_sreg_warpid", "lshr i32 %d, 5", "lshr i32 %d, 6"),
        ("__ptx_sreg_nwarpid", "ret i32 32", "ret i32 16"),
        ("__ptx_activemask", "call i32 @__ptx_warp_ballot", "call i64 @__ptx_warp_ballot"),
    ] {
        assert!(def(name, 32).contains(at32), "{name} at 32 lanes:\n{}", def(name, 32));
        assert!(def(name, 64).contains(at64), "{name} at 64 lanes:\n{}", def(name, 64));
    }
    let ballot64 = target.define_helper("__ptx_warp_ballot", &info(64)).unwrap();
    assert!(ballot64.contains("ballot.i64") && !ballot64.contains("lshr"), "{ballot64}");
}

/// `%envreg1:%envreg2` read the grid workspace from the implicit arguments' multigrid-sync
/// slot: LLVM's metadata lists that hidden argument at the offset our runtime writes the
/// workspace address to (`abi::build_kernargs`).
#[test]
fn the_grid_workspace_is_the_multigrid_sync_argument() {
    let dir = std::env::temp_dir().join(format!("amdgpu-grid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let want = abi::implicit_args_offset(12) + abi::implicit::GRID_WORKSPACE;
    for gfx in ["gfx90a", "gfx1100"] {
        let co = codegen::compile_ptx(&ptx("grid_sync"), &AmdgpuOptions::new(gfx)).unwrap();
        let path = dir.join(format!("grid_sync.{gfx}.co"));
        std::fs::write(&path, &co.elf).unwrap();
        let notes = run("llvm-readelf", &["--notes"], &path);
        let lines: Vec<&str> = notes.lines().map(str::trim).collect();
        let at = lines
            .iter()
            .position(|l| *l == ".value_kind:     hidden_multigrid_sync_arg")
            .unwrap_or_else(|| panic!("{gfx}: no multigrid sync argument in\n{notes}"));
        let offset = lines[..at].iter().rev().find(|l| l.starts_with("- .offset:")).unwrap();
        assert_eq!(*offset, format!("- .offset:         {want}"), "{gfx}");
        // The workspace bytes of a launch sit there.
        let shape = abi::LaunchShape { grid: [4, 1, 1], block: [64, 1, 1], dynamic_shared_bytes: 0 };
        let k = abi::build_kernargs(&[0; 12], &shape, 0, 0xabcd_0000_1230);
        assert_eq!(u64::from_le_bytes(k[want..want + 8].try_into().unwrap()), 0xabcd_0000_1230);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `bar.red` counter is zeroed at the entry of every kernel of a module that uses
/// `bar.red`, also when the reduction sits in a function the kernel calls.
#[test]
fn the_reduction_counter_is_zeroed_in_every_kernel() {
    let ptx = ".version 7.8\n.target sm_80\n.address_size 64\n.func (.reg .b32 %n) count(.reg .pred %q)\n{\n\tbar.red.popc.u32 %n, 0, %q;\n\tret;\n}\n.visible .entry k(.param .u64 out)\n{\n\t.reg .pred %p;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p, %r1, 7;\n\tcall.uni (%r2), count, (%p);\n\tld.param.u64 %rd1, [out];\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n.visible .entry plain()\n{\n\tret;\n}\n";
    let mut ast = compiler_core::ptx::parse(ptx).unwrap();
    let (target, _) = codegen::target_for(&mut ast, &AmdgpuOptions::new("gfx90a")).unwrap();
    assert_eq!(target.scratch_bytes(), 16);
    let lowered = compiler_core::lower::lower_module_for(&ast, &target).unwrap();
    let zeroing = "store atomic i32 0, ptr addrspace(3) @__ptx_shared";
    for kernel in ["@\"k\"(", "@\"plain\"("] {
        let at = lowered.ir.find(&format!("amdgpu_kernel void {kernel}")).unwrap_or_else(|| panic!("{kernel} in\n{}", lowered.ir));
        let body = &lowered.ir[at..at + lowered.ir[at..].find("\n}\n").unwrap()];
        assert!(body.contains(zeroing) && body.contains("@llvm.amdgcn.s.barrier()"), "{kernel}:\n{body}");
    }
    let co = codegen::compile_ptx(ptx, &AmdgpuOptions::new("gfx90a")).unwrap();
    assert_eq!(co.static_lds_bytes, 16);
}
