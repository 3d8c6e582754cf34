//! Warp matrix instructions that `ctests/warp_matrix.cu` cannot reach from sm_80 code:
//! `stmatrix` (sm_90) and `mma` on 8-bit floats (sm_89), checked against a Rust model of
//! PTX ISA 9.7.14.5 (fragment layouts) and 5.2.5 (`.e4m3`/`.e5m2` values).

use backend_api::{LaunchConfig, LoadOptions};

/// `stmatrix .x4` (plain or `.trans`) of lane t's registers i = (8t + 2i) | (8t + 2i + 1) << 16
/// into four 8 x 8 matrices whose rows lanes 8i..8i+8 name; then `ldmatrix .x4` reads
/// them back. `out`: the 512 bytes of shared memory, then each lane's four loaded registers.
const MOVES: &str = r#".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 trans)
{
  .reg .b32 %r<40>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  .shared .align 16 .b8 sm[512];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r30, [trans];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 3;
  add.u32 %r7, %r2, 1;
  shl.b32 %r8, %r7, 16;
  or.b32 %r3, %r2, %r8;
  add.u32 %r4, %r3, 131074;
  add.u32 %r5, %r4, 131074;
  add.u32 %r6, %r5, 131074;
  shr.u32 %r10, %r1, 3;
  shl.b32 %r11, %r10, 7;
  and.b32 %r12, %r1, 7;
  shl.b32 %r13, %r12, 4;
  add.u32 %r14, %r11, %r13;
  mov.u32 %r15, sm;
  add.u32 %r16, %r15, %r14;
  setp.ne.u32 %p1, %r30, 0;
  @%p1 bra TRANS;
  stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r16], {%r3, %r4, %r5, %r6};
  bra.uni DONE;
TRANS:
  stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%r16], {%r3, %r4, %r5, %r6};
DONE:
  bar.sync 0;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20, %r21, %r22, %r23}, [%r16];
  shl.b32 %r24, %r1, 4;
  add.u32 %r25, %r15, %r24;
  ld.shared.v4.u32 {%r26, %r27, %r28, %r29}, [%r25];
  cvt.u64.u32 %rd2, %r24;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r26, %r27, %r28, %r29};
  st.global.v4.u32 [%rd3+512], {%r20, %r21, %r22, %r23};
  ret;
}
"#;

#[test]
fn stmatrix_and_ldmatrix() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(MOVES, &LoadOptions::default()).unwrap();
    let cfg = LaunchConfig { grid: [1, 1, 1], block: [32, 1, 1], dynamic_shared_bytes: 0 };
    for trans in [false, true] {
        let out = d.alloc(1024).unwrap();
        let mut params = out.to_le_bytes().to_vec();
        params.extend_from_slice(&(trans as u32).to_le_bytes());
        m.launch("k", &cfg, &params).unwrap();
        let mut got = vec![0u16; 512];
        unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, 1024).unwrap() };
        let value = |t: usize, i: usize, j: usize| (8 * t + 2 * i + j) as u16;
        // Lane t's element j of register i is (row t / 4, column 2 (t % 4) + j) of matrix i,
        // stored transposed with `.trans`.
        let mut want = vec![0u16; 256];
        for t in 0..32 {
            for i in 0..4 {
                for j in 0..2 {
                    let (r, c) = (t / 4, 2 * (t % 4) + j);
                    let (r, c) = if trans { (c, r) } else { (r, c) };
                    want[i * 64 + r * 8 + c] = value(t, i, j);
                }
            }
        }
        assert_eq!(&got[..256], &want[..], "shared memory after stmatrix (trans {trans})");
        for t in 0..32 {
            for i in 0..4 {
                for j in 0..2 {
                    let stored = want[i * 64 + (t / 4) * 8 + 2 * (t % 4) + j];
                    assert_eq!(got[256 + t * 8 + i * 2 + j], stored, "ldmatrix lane {t} register {i} half {j} (trans {trans})");
                }
            }
        }
    }
}

/// `mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32` over registers the host prepared:
/// lane t reads a[4], b[2], c[4] from `inp + 40 t` and writes d[4] to `out + 16 t`.
const FP8_MMA: &str = r#".version 8.4
.target sm_89
.address_size 64
.visible .entry k(.param .u64 inp, .param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .f32 %f<10>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [inp];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 40;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];
  ld.global.v2.u32 {%r6, %r7}, [%rd4+16];
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+24];
  mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%f5, %f6, %f7, %f8}, {%r2, %r3, %r4, %r5}, {%r6, %r7}, {%f1, %f2, %f3, %f4};
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v4.f32 [%rd6], {%f5, %f6, %f7, %f8};
  ret;
}
"#;

#[test]
fn mma_on_fp8() {
    // Exactly representable values and their encodings (PTX ISA 5.2.5).
    const VALUES: [(f32, u8, u8); 8] = [
        (0.0, 0x00, 0x00),
        (0.5, 0x30, 0x38),
        (1.0, 0x38, 0x3c),
        (1.5, 0x3c, 0x3e),
        (2.0, 0x40, 0x40),
        (3.0, 0x44, 0x42),
        (-1.0, 0xb8, 0xbc),
        (-2.0, 0xc0, 0xc0),
    ];
    let a_idx = |i: usize, k: usize| (i * 5 + k * 3) % 8;
    let b_idx = |k: usize, j: usize| (k * 7 + j) % 8;
    let c_val = |i: usize, j: usize| ((i + 2 * j) % 5) as f32 - 2.0;
    let mut inp = vec![0u8; 32 * 40];
    for t in 0..32 {
        let (g, tig) = (t / 4, t % 4);
        let lane = &mut inp[t * 40..t * 40 + 40];
        // A (16 x 32): register r, byte e is (g + 8 (r % 2), 4 tig + 16 (r / 2) + e).
        for r in 0..4 {
            for e in 0..4 {
                lane[r * 4 + e] = VALUES[a_idx(g + 8 * (r % 2), 4 * tig + 16 * (r / 2) + e)].1;
            }
        }
        // B (32 x 8): register r, byte e is (4 tig + 16 r + e, g).
        for r in 0..2 {
            for e in 0..4 {
                lane[16 + r * 4 + e] = VALUES[b_idx(4 * tig + 16 * r + e, g)].2;
            }
        }
        for i in 0..4 {
            let c = c_val(g + 8 * (i / 2), 2 * tig + (i & 1));
            lane[24 + 4 * i..28 + 4 * i].copy_from_slice(&c.to_le_bytes());
        }
    }
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(FP8_MMA, &LoadOptions::default()).unwrap();
    let din = d.alloc(inp.len()).unwrap();
    let dout = d.alloc(32 * 16).unwrap();
    unsafe { d.copy_to_device(din, inp.as_ptr(), inp.len()).unwrap() };
    let mut params = din.to_le_bytes().to_vec();
    params.extend_from_slice(&dout.to_le_bytes());
    m.launch("k", &LaunchConfig { grid: [1, 1, 1], block: [32, 1, 1], dynamic_shared_bytes: 0 }, &params).unwrap();
    let mut got = vec![0f32; 32 * 4];
    unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, dout, 32 * 16).unwrap() };
    for t in 0..32 {
        let (g, tig) = (t / 4, t % 4);
        for i in 0..4 {
            let (r, c) = (g + 8 * (i / 2), 2 * tig + (i & 1));
            let want = (0..32).map(|k| VALUES[a_idx(r, k)].0 * VALUES[b_idx(k, c)].0).sum::<f32>() + c_val(r, c);
            assert_eq!(got[t * 4 + i], want, "D[{r}][{c}] (lane {t} element {i})");
        }
    }
}

/// nvcc unrolls GEMM loops into thousands of matrix instructions: they share one fragment
/// buffer, so the kernel's frame stays small enough for a fiber's stack (3000 buffers of
/// their own would need 336 KiB). 3000 `.tf32` products of all-ones A (16 x 8) and B
/// (8 x 8) add 8 to every element each.
#[test]
fn thousands_of_matrix_instructions_fit_a_fiber_stack() {
    let steps = 3000;
    let mut ptx = String::from(
        ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n  .reg .f32 %f<8>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [out];\n  mov.b32 %r1, 1065353216;\n  mov.f32 %f1, 0f00000000;\n  mov.f32 %f2, 0f00000000;\n  mov.f32 %f3, 0f00000000;\n  mov.f32 %f4, 0f00000000;\n",
    );
    for _ in 0..steps {
        ptx.push_str(
            "  mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r1, %r1, %r1}, {%r1, %r1}, {%f1, %f2, %f3, %f4};\n",
        );
    }
    ptx.push_str("  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd2, %r2, 16;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.v4.f32 [%rd3], {%f1, %f2, %f3, %f4};\n  ret;\n}\n");
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(&ptx, &LoadOptions::default()).unwrap();
    let out = d.alloc(32 * 16).unwrap();
    m.launch("k", &LaunchConfig { grid: [1, 1, 1], block: [32, 1, 1], dynamic_shared_bytes: 0 }, &out.to_le_bytes()).unwrap();
    let mut got = vec![0f32; 128];
    unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, 32 * 16).unwrap() };
    assert!(got.iter().all(|v| *v == 8.0 * steps as f32), "{:?}", &got[..4]);
}
