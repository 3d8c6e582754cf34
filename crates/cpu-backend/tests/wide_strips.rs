//! Wide strips (`compiler_core::lower::regions::widen`): grid-stride loops of region
//! kernels run 16 threads at a time in vector IR, with a run-time choice between vector
//! and gathered loads and stores. Each kernel is checked against a Rust model of its PTX
//! (and against the fiber path), over block shapes whose rows end in partial chunks,
//! trip counts that end at every position of a strip, and threads that reach the loop in
//! different rounds; each case also checks whether the compiler gave the loop a strip.

use backend_api::{Device, LaunchConfig, LoadOptions};
use compiler_core::lower::regions::set_enabled;
use std::sync::Mutex;
mod support;
use support::{download, upload};

/// Tests flip the process-wide fiber switch: run them one at a time.
static SWITCH: Mutex<()> = Mutex::new(());

/// The kernel frame: `%r6` is the thread's grid index `i`, `%r7` the grid stride, `%r1`
/// `n`; `{pre}` runs before the loop, `{body}` is the loop body before the step, and
/// after a barrier each thread stores `%r20` to `out[n + gtid]` (its accumulator).
/// `barriers` more barriers follow: with few stops a kernel gets a loop per resume
/// point (`k.region.S`, run for whole blocks), with more the dispatching loop, which
/// also runs the strip for chunks of a masked run.
fn kernel(pre: &str, body: &str, barriers: usize) -> String {
    let barriers = "  bar.sync 0;\n".repeat(barriers);
    format!(
        r#".version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)
{{
  .reg .b32 %r<40>;
  .reg .b64 %rd<20>;
  .reg .f32 %f<8>;
  .reg .f64 %fd<8>;
  .reg .pred %p<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %tid.y;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %ntid.y;
  mul.lo.s32 %r8, %r4, %r5;
  mad.lo.s32 %r9, %r3, %r4, %r2;
  mov.u32 %r10, %ctaid.x;
  mad.lo.s32 %r6, %r10, %r8, %r9;
  mov.u32 %r11, %nctaid.x;
  mul.lo.s32 %r7, %r11, %r8;
  mov.u32 %r30, %r6;
  mov.u32 %r20, 0;
  mov.f32 %f1, 0f00000000;
  mov.f64 %fd1, 0d0000000000000000;
{pre}
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra DONE;
LOOP:
{body}
  add.s32 %r6, %r6, %r7;
  setp.lt.u32 %p2, %r6, %r1;
  @%p2 bra LOOP;
DONE:
  bar.sync 0;
{barriers}  add.s32 %r31, %r30, %r1;
  mul.wide.u32 %rd18, %r31, 4;
  add.s64 %rd19, %rd2, %rd18;
  st.global.u32 [%rd19], %r20;
  ret;
}}
"#
    )
}

/// `%rd4` = &in[i], `%rd5` = &out[i].
const ADDRS: &str = "  mul.wide.u32 %rd3, %r6, 4;\n  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;";

/// One case: the loop, whether it gets a strip, and a model of one thread's loop over
/// its grid-stride indices (`is`), given the input and the output so far (`out[..n]`,
/// which it may update); returns the thread's accumulator.
struct Case {
    name: &'static str,
    pre: &'static str,
    body: String,
    wide: bool,
    model: fn(x: &[u32], out: &mut [u32], is: &[usize], tid: usize) -> u32,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "f32 sum, consecutive loads",
            pre: "",
            // The bits are masked to finite floats below 2 (NaN payloads could differ).
            body: format!("{ADDRS}\n  ld.global.nc.u32 %r12, [%rd4];\n  and.b32 %r12, %r12, 1073741823;\n  mov.b32 %f2, %r12;\n  add.f32 %f1, %f1, %f2;\n  mov.b32 %r20, %f1;"),
            wide: true,
            model: |x, _, is, _| is.iter().fold(0f32, |a, &i| a + f32::from_bits(x[i] & 0x3fff_ffff)).to_bits(),
        },
        Case {
            name: "integer arithmetic, shifts past the width, comparisons",
            pre: "",
            body: format!(
                "{ADDRS}\n  ld.global.u32 %r12, [%rd4];\n  and.b32 %r13, %r12, 63;\n  shl.b32 %r14, %r12, %r13;\n  shr.s32 %r15, %r12, %r13;\n  shr.u32 %r16, %r20, %r13;\n  mad.lo.s32 %r20, %r20, 3, %r14;\n  xor.b32 %r20, %r20, %r15;\n  sub.s32 %r20, %r20, %r16;\n  min.s32 %r17, %r20, %r12;\n  max.u32 %r18, %r17, %r13;\n  setp.gt.s32 %p3, %r17, 0;\n  setp.lo.u32 %p4, %r18, 1000;\n  and.pred %p5, %p3, %p4;\n  selp.b32 %r19, %r18, %r17, %p5;\n  not.b32 %r19, %r19;\n  or.b32 %r20, %r20, 1;\n  add.s32 %r20, %r20, %r19;"
            ),
            wide: true,
            model: |x, _, is, _| {
                let mut acc = 0u32;
                for &i in is {
                    let v = x[i];
                    let amt = v & 63;
                    let shl = if amt > 31 { 0 } else { v << amt };
                    let shr_s = ((v as i32) >> amt.min(31)) as u32;
                    let shr_u = if amt > 31 { 0 } else { acc >> amt };
                    acc = acc.wrapping_mul(3).wrapping_add(shl) ^ shr_s;
                    acc = acc.wrapping_sub(shr_u);
                    let min = (acc as i32).min(v as i32) as u32;
                    let max = min.max(amt);
                    let sel = if (min as i32) > 0 && max < 1000 { max } else { min };
                    acc = (acc | 1).wrapping_add(!sel);
                }
                acc
            },
        },
        Case {
            name: "gathered loads and scattered stores (an index array), 64-bit arithmetic",
            pre: "",
            body: format!(
                "{ADDRS}\n  ld.global.u32 %r12, [%rd4];\n  rem.u32 %r13, %r12, %r1;\n  cvt.u64.u32 %rd6, %r13;\n  shl.b64 %rd7, %rd6, 2;\n  add.s64 %rd8, %rd1, %rd7;\n  ld.global.u32 %r14, [%rd8];\n  add.s32 %r20, %r20, %r14;\n  st.global.u32 [%rd5], %r14;"
            ),
            // `rem` is no strip instruction: the loop stays scalar (and still correct).
            wide: false,
            model: |x, out, is, _| {
                let mut acc = 0u32;
                for &i in is {
                    let v = x[(x[i] as usize) % x.len()];
                    acc = acc.wrapping_add(v);
                    out[i] = v;
                }
                acc
            },
        },
        Case {
            name: "gathered loads and scattered stores",
            pre: "",
            body: format!(
                "{ADDRS}\n  ld.global.u32 %r12, [%rd4];\n  and.b32 %r13, %r12, 1023;\n  sub.s32 %r25, %r1, 1;\n  min.u32 %r13, %r13, %r25;\n  neg.s32 %r13, %r13;\n  mul.wide.s32 %rd6, %r13, 4;\n  mul.wide.u32 %rd13, %r25, 4;\n  add.s64 %rd8, %rd1, %rd13;\n  add.s64 %rd8, %rd8, %rd6;\n  ld.global.u32 %r14, [%rd8];\n  add.s32 %r20, %r20, %r14;\n  sub.s32 %r15, %r1, %r6;\n  sub.s32 %r15, %r15, 1;\n  mul.wide.u32 %rd9, %r15, 4;\n  add.s64 %rd10, %rd2, %rd9;\n  st.global.u32 [%rd10], %r14;"
            ),
            wide: true,
            model: |x, out, is, _| {
                let n = x.len() as u32;
                let mut acc = 0u32;
                for &i in is {
                    let j = (n - 1) - (x[i] & 1023).min(n - 1);
                    let v = x[j as usize];
                    acc = acc.wrapping_add(v);
                    out[x.len() - i - 1] = v;
                }
                acc
            },
        },
        Case {
            name: "f64 fma and a consecutive store",
            pre: "",
            body: format!(
                "{ADDRS}\n  ld.global.u32 %r12, [%rd4];\n  cvt.u64.u32 %rd6, %r12;\n  mov.b64 %fd2, %rd6;\n  fma.rn.f64 %fd1, %fd2, 0d3FF8000000000000, %fd1;\n  mov.b64 %rd7, %fd1;\n  cvt.u32.u64 %r20, %rd7;\n  neg.s32 %r13, %r12;\n  st.global.u32 [%rd5], %r13;"
            ),
            wide: true,
            model: |x, out, is, _| {
                let mut acc = 0f64;
                for &i in is {
                    acc = f64::from_bits(x[i] as u64).mul_add(1.5, acc);
                    out[i] = x[i].wrapping_neg();
                }
                acc.to_bits() as u32
            },
        },
        Case {
            name: "threads reach the loop in different rounds",
            // A first lockstep loop with two exits (no strip) runs tid % 21 iterations.
            pre: "  rem.u32 %r21, %r9, 21;\n  mov.u32 %r22, 0;\n  mov.u32 %r23, %r6;\nFIRST:\n  setp.ge.u32 %p6, %r23, %r1;\n  @%p6 bra SECOND;\n  setp.ge.u32 %p7, %r22, %r21;\n  @%p7 bra SECOND;\n  mul.wide.u32 %rd11, %r23, 4;\n  add.s64 %rd12, %rd1, %rd11;\n  ld.global.u32 %r24, [%rd12];\n  add.s32 %r20, %r20, %r24;\n  add.s32 %r22, %r22, 1;\n  add.s32 %r23, %r23, %r7;\n  bra.uni FIRST;\nSECOND:",
            body: format!("{ADDRS}\n  ld.global.u32 %r12, [%rd4];\n  mad.lo.s32 %r20, %r20, 5, %r12;"),
            wide: true,
            model: |x, _, is, tid| {
                let stride = if is.len() > 1 { is[1] - is[0] } else { usize::MAX };
                let mut acc = 0u32;
                let mut i = is.first().copied().unwrap_or(usize::MAX);
                let mut k = 0;
                while i < x.len() && k < tid % 21 {
                    acc = acc.wrapping_add(x[i]);
                    k += 1;
                    i = i.saturating_add(stride);
                }
                for &i in is {
                    acc = acc.wrapping_mul(5).wrapping_add(x[i]);
                }
                acc
            },
        },
    ]
}

/// (block, grid, n): rows of 48 (three strips), of 40 (two and a partial chunk), 2D
/// blocks of 24 x 3, and trip counts cut at every position of a strip.
const SHAPES: &[([u32; 3], u32, usize)] = &[
    ([48, 1, 1], 3, 48 * 3 * 19 + 37),
    ([40, 1, 1], 2, 40 * 2 * 9 + 5),
    ([24, 3, 1], 2, 144 * 11 + 100),
    ([256, 1, 1], 2, 512 * 20 + 3),
    ([32, 1, 1], 1, 10),
];

fn inputs(n: usize) -> Vec<u32> {
    let mut s = 0x9e37_79b9u32;
    (0..n)
        .map(|k| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            // Small floats for the f32 case (as bits), varied integers for the others.
            if k % 3 == 0 {
                (((s >> 9) % 1000) as f32 / 64.0).to_bits()
            } else {
                s
            }
        })
        .collect()
}

fn model(case: &Case, x: &[u32], block: [u32; 3], grid: u32) -> Vec<u32> {
    let threads = (block.iter().product::<u32>() * grid) as usize;
    let n = x.len();
    let mut out = vec![0u32; n + threads];
    let per_block = block.iter().product::<u32>() as usize;
    for g in 0..threads {
        let is: Vec<usize> = (g..n).step_by(threads).collect();
        let acc = (case.model)(x, &mut out[..n], &is, g % per_block);
        out[n + g] = acc;
    }
    out
}

fn run(d: &dyn Device, fibers: bool, ptx: &str, x: &[u32], block: [u32; 3], grid: u32) -> Vec<u32> {
    set_enabled(!fibers);
    let m = d.load_ptx(ptx, &LoadOptions::default()).unwrap();
    set_enabled(true);
    let threads = (block.iter().product::<u32>() * grid) as usize;
    let input = upload(d, x);
    let out = upload(d, &vec![0u32; x.len() + threads]);
    let mut params = input.to_le_bytes().to_vec();
    params.extend_from_slice(&out.to_le_bytes());
    params.extend_from_slice(&(x.len() as u32).to_le_bytes());
    let cfg = LaunchConfig { grid: [grid, 1, 1], block, dynamic_shared_bytes: 0 };
    m.launch("k", &cfg, &params).unwrap();
    let v = download::<u32>(d, out, x.len() + threads);
    d.free(input).unwrap();
    d.free(out).unwrap();
    v
}

#[test]
fn grid_stride_loops_match_rust_on_strips_and_fibers() {
    let _one = SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let d = cpu_backend::devices().remove(0);
    for case in cases() {
        for barriers in [0, 4] {
            let ptx = kernel(case.pre, &case.body, barriers);
            let m = compiler_core::host::compile_ptx(&ptx, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() })
                .unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
            let r = m.kernels[0].meta.regions.as_ref().expect("a region kernel");
            assert_eq!(!r.wide_strips.is_empty(), case.wide, "{}: {r:?}", case.name);
            assert_eq!(compiler_core::target::host::has_own_loop(r, 0), barriers == 0, "{r:?}");
            for &(block, grid, n) in SHAPES {
                let x = inputs(n);
                let want = model(&case, &x, block, grid);
                for fibers in [false, true] {
                    let got = run(&*d, fibers, &ptx, &x, block, grid);
                    assert_eq!(got, want, "{} ({barriers} more barriers) fibers={fibers} block={block:?} grid={grid} n={n}", case.name);
                }
            }
        }
    }
}
